import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** The folders a project keeps its installed dependencies in, which may be links to elsewhere. */
export const DEPENDENCY_FOLDERS = ["node_modules", ".venv", "venv"];

/** More entries than a project's own dependency folder holds at its top: past it, the rest are not looked at. */
const MAX_ENTRIES = 20_000;

/**
 * Where a project's dependencies really live when they are links to elsewhere (`npm install <folder>`, `npm link`,
 * a linked `node_modules`): each link's target, widened to the `node_modules` folder that holds it, since Node
 * resolves a linked package's own dependencies from its real path. The validations' sandbox hides the host's temp
 * folders, so a project whose dependencies are linked from there needs these to stay readable (read-only).
 */
export function dependencyLinkTargets(root: string): string[] {
  const found = new Set<string>();
  let seen = 0;
  const add = (path: string) => {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      return;
    }
    found.add(enclosingModules(real) ?? real);
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
