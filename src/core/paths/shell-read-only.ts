import type { SecurityMode } from "../model/state.ts";

/** Why the project is read-only to the agent's shell right now, if it is. */
export type ShellReadOnly =
  | { kind: "none" }
  | { kind: "post-loop-lock"; denyWrite: string[] }
  | { kind: "default-branch"; branch: string; denyWrite: string[] };

/** Names at the project's root the shell keeps on the default branch: git's folder (to make the playbook's branch) and the repair path. */
const KEPT_ON_DEFAULT_BRANCH = new Set([".git", "plan", "state.md"]);

/**
 * The `sandbox.filesystem.denyWrite` entries that make the main-branch guard and the post-loop lock hold for code the
 * hook's parser cannot read. Under the lock the whole project is read-only, `.git` included, so HEAD stays where
 * the archive left it; `playbook post-loop` lifts it as the hook's own job. On the default branch every entry at the
 * root is, except `.git`, `plan` and `state.md`: `git switch -c` (and `playbook new`) must still make the playbook's
 * branch. The sandbox takes no exceptions inside a read-only folder, so the root itself stays writable there: a new
 * file at the root can still be made (docs/trust-boundary.md). `developer` mode turns both guards off.
 */
export function planShellReadOnly(facts: {
  security: SecurityMode;
  lock: boolean;
  branch: string | null;
  defaultBranch: string | null;
  /** The names at the project's root; read only when on the default branch. */
  rootNames: () => readonly string[];
}): ShellReadOnly {
  if (facts.security === "developer") return { kind: "none" };
  if (facts.lock) return { kind: "post-loop-lock", denyWrite: ["."] };
  const { branch, defaultBranch } = facts;
  if (branch === null) return { kind: "none" };
  const onDefault =
    defaultBranch !== null
      ? branch === defaultBranch
      : branch === "main" || branch === "master";
  if (!onDefault) return { kind: "none" };
  const denyWrite = facts
    .rootNames()
    .filter((name) => !KEPT_ON_DEFAULT_BRANCH.has(name))
    .sort();
  return { kind: "default-branch", branch, denyWrite };
}

/** What the agent reads when its shell finds the project read-only: why, and what to do. */
export function describeShellReadOnly(state: ShellReadOnly): string | null {
  switch (state.kind) {
    case "none":
      return null;
    case "post-loop-lock":
      return "The post-loop lock is set: the project is read-only to your shell (writes fail with `Read-only file system`). Next: run /post-loop (`playbook post-loop`) to pick the next task; it lifts the lock. state.md and plan/** stay editable with the Edit tool.";
    case "default-branch":
      return `You are on the default branch \`${state.branch}\`: the project's files are read-only to your shell (writes fail with \`Read-only file system\`). Next: switch to the playbook's branch (\`git switch <branch>\`, or start with Skill(playbook-init), whose \`playbook new\` makes it); the files are writable again from your next command there.`;
  }
}

/**
 * Whether a shell command is nothing but `git switch <name>` to another branch: on the default branch the hook lifts the
 * read-only project for it, since git must rewrite the working tree to get there. Anything more (a second command, an
 * option) keeps the project read-only, and so does `git checkout <name>`, whose name may be a path to restore.
 */
export function isPlainBranchSwitch(
  command: string,
  defaultBranch: string | null,
): boolean {
  const found = /^\s*git\s+switch\s+([A-Za-z0-9][A-Za-z0-9._/-]*)\s*$/.exec(
    command,
  );
  const name = found?.[1];
  if (name === undefined || name.includes("..") || name.endsWith(".lock"))
    return false;
  return defaultBranch !== null
    ? name !== defaultBranch
    : name !== "main" && name !== "master";
}
