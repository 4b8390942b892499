/** What a command says when a write was refused by a read-only mount (Linux: EROFS; a mount point: EBUSY). */
const REFUSED =
  /Read-only file system|\bEROFS\b|Device or resource busy|\bEBUSY\b/i;

/** `plan/...`, a bare `plan`, or `state.md`, as a path in a tool's message. */
const PLAN_PATH = /(?:^|[\s'"`(/:])(?:plan(?:\/|['"`):\s]|$)|state\.md\b)/m;

/**
 * The note for a shell command that failed because it tried to write the plan (docs/trust-boundary.md, "The plan
 * has one door"): what the agent can do instead, and what only the user can. Null for any other failure.
 */
export function planReadOnlyNote(error: string): string | null {
  if (!REFUSED.test(error) || !PLAN_PATH.test(error)) return null;
  return "`plan/` and `state.md` are read-only to your shell, so this command could not write them. Change them with the Edit or Write tool, which playbook checks; `playbook new`, `verify`, `review` and the archive write them from outside your shell. A git command that changes them (switching to a branch whose plan differs, `git checkout <rev> -- plan/...`, a merge, a rebase, `git stash pop`) runs only in the user's terminal: run `git status` to see what this one left, and ask the user to run it.";
}
