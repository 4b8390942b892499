import { PlaybookError } from "../core/errors.ts";
import {
  maxDocumentBytes,
  oversizeMessage,
} from "../core/paths/input-limits.ts";
import { readBounded } from "./read-bounded.ts";

/**
 * The text of `state.md` or a playbook, for a command or a trusted job. The agent can make either as large as it
 * likes, so one larger than playbook reads is refused as a broken document, never read whole. Throws as
 * `readFileSync` does when the file cannot be read, and `E_TOO_LARGE` when it is too large.
 */
export function readDocumentText(
  path: string,
  kind: "state" | "playbook",
  shown: string,
): string {
  const limit = maxDocumentBytes(kind);
  const read = readBounded(path, limit);
  if (read.truncated)
    throw new PlaybookError(
      "E_TOO_LARGE",
      oversizeMessage(shown, read.size, limit).replace(/ Next: .*$/, ""),
      {
        hint: "Shrink it (restore it from git, or rewrite it), or split a playbook this large.",
      },
    );
  return read.text;
}
