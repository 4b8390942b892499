import { existsSync, lstatSync, readdirSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** The folders a project keeps its installed dependencies in, which may be links to elsewhere. */
export const DEPENDENCY_FOLDERS = ["node_modules", ".venv", "venv"];

/** More entries than a project's own dependency folder holds at its top: past it, the rest are not looked at. */
const MAX_ENTRIES = 20_000;

/**
 * Where a project's dependencies really live when they are links to elsewhere (`npm install <folder>`, `npm link`,
 * a linked `node_modules` or virtualenv): each link's target, widened to the `node_modules` folder that holds it,
 * since Node resolves a linked package's own dependencies from its real path. A target in no `node_modules` folder
 * and no virtualenv is left out, as is `/`, any folder holding one of `hidden` (what the validations' sandbox hides),
 * and any folder inside one that is not a `node_modules` folder. The sandbox hides the host's temp folders, so a
 * project whose dependencies are linked from there needs these to stay readable (read-only).
 */
export function dependencyLinkTargets(
  root: string,
  hidden: readonly string[] = [],
): string[] {
  const reopensHidden = (path: string) =>
    hidden.some(
      (h) =>
        h === path ||
        h.startsWith(`${path}/`) ||
        path === "/" ||
        (!path.includes("/node_modules") && path.startsWith(`${h}/`)),
    );
  const found = new Set<string>();
  let seen = 0;
  const add = (path: string) => {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      return;
    }
    // Only a package folder or a virtualenv: the link is the agent's to make, and a link to `/`, `/run` or the
    // host's temp folder would open to validations what the sandbox hides (sockets of programs outside it).
    const readable =
      enclosingModules(real) ??
      (existsSync(join(real, "pyvenv.cfg")) ? real : null);
    if (readable !== null && !reopensHidden(readable)) found.add(readable);
  };
  const visit = (folder: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return;
      const path = join(folder, entry.name);
      if (entry.isSymbolicLink()) add(path);
      else if (depth === 0 && entry.isDirectory() && entry.name.startsWith("@"))
        visit(path, 1);
    }
  };
  for (const name of DEPENDENCY_FOLDERS) {
    const folder = join(root, name);
    let stat;
    try {
      stat = lstatSync(folder);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) add(folder);
    else if (stat.isDirectory() && name === "node_modules") visit(folder, 0);
  }
  return [...found];
}

function enclosingModules(path: string): string | null {
  for (let at = path; dirname(at) !== at; at = dirname(at))
    if (basename(at) === "node_modules") return at;
  return null;
}
