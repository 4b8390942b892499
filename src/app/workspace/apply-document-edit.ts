import { basename } from "node:path";
import { readDocumentText } from "../../adapters/read-document.ts";
import { writeTextAtomic } from "../../adapters/atomic-write.ts";
import type { EditResult } from "../../core/edit/text-edit.ts";
import { locationAt, PlaybookError } from "../../core/errors.ts";

/**
 * Applies a surgical writer to the document at `path` (`shown` is its path in the project) and writes the result
 * atomically (temp file + rename in the same directory). A refused edit, or a document that changed on disk while the
 * edit was computed, leaves the file exactly as it is.
 *
 * @throws PlaybookError E_NOT_FOUND when the document is missing, E_WRITE when the edit is refused or raced.
 */
export function applyDocumentEdit(
  path: string,
  shown: string,
  edit: (text: string) => EditResult,
): { changed: boolean } {
  const before = readDocument(path, shown);
  const result = edit(before);
  if (!result.ok) {
    throw new PlaybookError("E_WRITE", `${shown}: ${result.reason}`, {
      hint: `Fix ${shown} as it says, then run the command again. Nothing was written.`,
      location: locationAt(shown, result.at),
    });
  }
  if (!result.changed) return { changed: false };
  if (readDocument(path, shown) !== before) {
    throw new PlaybookError(
      "E_WRITE",
      `${shown} changed while it was being edited; nothing was written.`,
      {
        hint: "Run the command again to apply it to the current content.",
      },
    );
  }
  writeTextAtomic(path, result.text);
  return { changed: true };
}

function readDocument(path: string, shown: string): string {
  try {
    return readDocumentText(
      path,
      basename(path) === "state.md" ? "state" : "playbook",
      shown,
    );
  } catch (cause) {
    if (cause instanceof PlaybookError) throw cause;
    throw new PlaybookError(
      "E_NOT_FOUND",
      `${shown} does not exist or cannot be read.`,
      {
        hint: "Check the path; state.md can be copied from plan/template/state-initial.md.",
        cause,
      },
    );
  }
}
