import { PlaybookError } from "../core/errors.ts";
import {
  maxDocumentBytes,
  oversizeMessage,
} from "../core/paths/input-limits.ts";
import { lstatSync } from "node:fs";
import { basename, dirname } from "node:path";
import { readBounded } from "./read-bounded.ts";
import { documentNameProblem } from "./document-name.ts";

/**
 * The text of `state.md` or a playbook, for a command or a trusted job. The agent can make either as large as it
 * likes, so one larger than playbook reads is refused as a broken document, never read whole; one that is a link, or
 * has other names, is refused too (docs/trust-boundary.md). Throws as `readFileSync` does when the file cannot be
 * read, `E_TOO_LARGE` when it is too large, `E_CONFIG` when it is not its own file. `shown` is its path in the project.
 */
export function readDocumentText(
  path: string,
  kind: "state" | "playbook",
  shown: string,
): string {
  const stats = lstatSync(path);
  const root = path.endsWith(`/${shown}`)
    ? path.slice(0, -(shown.length + 1))
    : null;
  const misnamed = documentNameProblem(
    root ?? dirname(path),
    root === null ? basename(path) : shown,
    stats,
  );
  if (misnamed !== null)
    throw new PlaybookError("E_CONFIG", misnamed, {
      hint: `Put the file itself there, in a terminal: \`cp "$(realpath ${shown})" ${shown}.new && mv ${shown}.new ${shown}\`.`,
      location: { file: shown },
    });
  const limit = maxDocumentBytes(kind);
  const read = readBounded(path, limit);
  if (read.truncated)
    throw new PlaybookError(
      "E_TOO_LARGE",
      oversizeMessage(shown, read.size, limit).replace(/ Next: .*$/, ""),
      {
        hint: "Shrink it (restore it from git, or rewrite it), or split a playbook this large.",
        location: { file: shown },
      },
    );
  return read.text;
}
