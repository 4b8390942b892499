/**
 * How large an agent-writable file a trusted process reads (docs/trust-boundary.md, "Fail closed"). Larger ones are
 * not read: a document is then a broken one, whose next step is to shrink it.
 */
const MAX_STATE_BYTES = 256 * 1024;
/** A 5,000-subtask playbook is about 1.7 MB; a cold parse of this many bytes takes a few seconds. */
const MAX_PLAYBOOK_BYTES = 2 * 1024 * 1024;
/** `.git/HEAD`, a worktree's `.git` file, `commondir`: a line each. */
export const MAX_GIT_POINTER_BYTES = 4 * 1024;
/** `packed-refs`: tens of thousands of refs. */
export const MAX_PACKED_REFS_BYTES = 8 * 1024 * 1024;
/** A patch `git apply` reads, for the files it names. */
export const MAX_PATCH_BYTES = 1024 * 1024;

/** The limit of a playbook document of `kind`. */
export function maxDocumentBytes(kind: "state" | "playbook"): number {
  return kind === "state" ? MAX_STATE_BYTES : MAX_PLAYBOOK_BYTES;
}

/** The one diagnostic of a document too large to read, with the next step. */
export function oversizeMessage(
  file: string,
  size: number,
  limit: number,
): string {
  const kb = (n: number) => `${Math.round(n / 1024).toLocaleString("en")} KB`;
  return `Unexpected size: ${file} is ${kb(size)}, more than the ${kb(limit)} playbook reads, so it is not read and nothing that depends on it is allowed. Next: shrink it (restore it from git, or rewrite it with the Write tool), or split a playbook this large.`;
}
