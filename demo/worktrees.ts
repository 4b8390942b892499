import { dirname, join } from "node:path";
import type { GoldenPath } from "./golden-path.ts";
import { installPlaybook } from "./install-playbook.ts";

/**
 * What the user does before starting a parallel session: `git worktree add --detach ../calc-<name> main` beside the
 * project, then `npm install` in it (a worktree has no `node_modules` of its own; here the packed playbook-kit is
 * unpacked, as for the project). Returns the worktree's folder; the session's `playbook new` makes its branch.
 */
export function addWorktree(world: GoldenPath, name: string): string {
  const dir = join(dirname(world.project.dir), `calc-${name}`);
  world.project.git("worktree", "add", "--quiet", "--detach", dir, "main");
  installPlaybook(dir);
  return dir;
}
