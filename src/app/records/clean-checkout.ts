import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { RUNTIME_DIR } from "../../adapters/runtime-files.ts";
import { join } from "node:path";
import { runGitSync } from "../../adapters/git-runner.ts";
import { PlaybookError } from "../../core/errors.ts";
import { DEPENDENCY_FOLDERS } from "../../adapters/dependency-links.ts";

/**
 * Folders a validation needs that git ignores and a clean checkout lacks: the project's installed dependencies. They
 * are linked from the project, so the checkout proves the committed code against what is installed; CI's fresh
 * install proves the rest (docs/trust-boundary.md, "Ignored inputs").
 */

/** A checkout of one commit in a temporary folder, removed by `remove`. */
export interface CleanCheckout {
  dir: string;
  commit: string;
  /**
   * Links the project's dependency folders in. Called once the tree is read: git does not ignore a link the way it
   * ignores the folder (`node_modules/` matches folders only), and the fingerprint is of the commit.
   */
  linkDependencies: () => void;
  /** Where the folders `linkDependencies` links really are: the validations' sandbox must be able to read them. */
  dependencies: string[];
  remove: () => void;
}

/**
 * Checks `rev` out into a new temporary worktree of the repository at `root` (detached: no branch moves); the
 * dependency folders can be linked in later. Nothing git ignores, and nothing uncommitted, is there: a validation that passes only
 * because of such a file fails here.
 *
 * @throws PlaybookError E_GIT when git cannot make the checkout.
 */
export function makeCleanCheckout(root: string, rev: string): CleanCheckout {
  const git = (args: string[]) =>
    runGitSync({ cwd: root, args, purpose: "act", timeoutMs: 120_000 });
  const resolved = git(["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
  const commit = resolved.stdout.trim();
  if (resolved.status !== 0 || commit === "")
    throw new PlaybookError("E_GIT", `git cannot find the commit ${rev}.`, {
      hint: "Commit the work first, or name a commit git knows.",
    });
  // In the runtime folder, a trust path: the agent's shell cannot change the checkout while its validations run (a
  // temporary folder it can write would let it), and the validations' sandbox, which hides the host's temporary
  // folders, still sees it.
  const parent = join(root, RUNTIME_DIR, "reprove");
  mkdirSync(parent, { recursive: true });
  const dir = join(mkdtempSync(join(parent, "run-")), "tree");
  const added = git(["worktree", "add", "--detach", "--quiet", dir, commit]);
  if (added.status !== 0)
    throw new PlaybookError(
      "E_GIT",
      `git could not check ${rev} out for the re-proof: ${added.stderr.trim()}`,
      {
        hint: "Fix what git says (`git worktree prune` clears stale worktrees), then run the command again.",
      },
    );
  const linked = DEPENDENCY_FOLDERS.filter(
    (name) => existsSync(join(root, name)) && !existsSync(join(dir, name)),
  );
  return {
    dir,
    commit,
    dependencies: linked.map((name) => realpathSync(join(root, name))),
    linkDependencies: () => {
      for (const name of linked)
        symlinkSync(join(root, name), join(dir, name), "dir");
    },
    remove: () => {
      git(["worktree", "remove", "--force", dir]);
      rmSync(join(dir, ".."), { recursive: true, force: true });
      git(["worktree", "prune"]);
    },
  };
}
