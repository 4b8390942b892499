import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { GoldenPath } from "./golden-path.ts";

/** Where a finished task left the repository, read from disk and from the bare remote. */
export interface TaskOutcome {
  /** `state.md`'s `active`, `branch` and `last_archived` lines as they read now. */
  state: { active: string; branch: string; lastArchived: string };
  /** The subject of the newest commit on the remote's `main`. */
  mainHead: string;
  /** Whether each path exists on the remote's `main`. */
  onMain: Record<string, boolean>;
  /** The branch the working copy is on. */
  currentBranch: string;
  /** Record files (`.claude/playbook/records/<playbook>/<kind>.<target>...json`), relative to the records folder. */
  records: string[];
  /** Whether the post-loop lock file exists. */
  locked: boolean;
}

/** Reads the outcome of `task`'s archive: its files and `plan/archive/playbook-<task>.md` on main, state and records. */
export function readTaskOutcome(
  world: GoldenPath,
  paths: readonly string[],
): TaskOutcome {
  const state = world.read("state.md");
  const field = (key: string) =>
    new RegExp(`^${key}: (.*)$`, "m").exec(state)?.[1]?.trim() ?? "";
  const tree = new Set(
    world.project
      .remoteGit("ls-tree", "-r", "--name-only", "main")
      .split("\n")
      .filter(Boolean),
  );
  const recordsDir = world.path(".claude/playbook/records");
  return {
    state: {
      active: field("active"),
      branch: field("branch"),
      lastArchived: field("last_archived"),
    },
    mainHead: world.project
      .remoteGit("log", "-1", "--format=%s", "main")
      .trim(),
    onMain: Object.fromEntries(paths.map((path) => [path, tree.has(path)])),
    currentBranch: world.project.git("branch", "--show-current").trim(),
    records: existsSync(recordsDir)
      ? listFiles(recordsDir)
          .map((file) => relative(recordsDir, file))
          .filter((file) => file.endsWith(".json"))
          .sort()
      : [],
    locked: existsSync(world.path(".claude/playbook/post-loop.json")),
  };
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listFiles(join(dir, entry.name))
      : [join(dir, entry.name)],
  );
}
