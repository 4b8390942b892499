import { FRESH_TEMP } from "./fresh-temp-call.ts";
import { expandFreshTemp } from "./expand-fresh-temp.ts";

/** Leading spellings of a folder the hook knows, as bash expands them (only when a `/` or the end follows). */
const SPELLINGS: readonly [RegExp, "cwd" | "home" | "previous" | "project"][] =
  [
    [
      /^(?:\$PWD|\$\{PWD\}|\$\(\s*pwd(?:\s+-[LP])?\s*\)|`\s*pwd(?:\s+-[LP])?\s*`)(?=\/|$)/,
      "cwd",
    ],
    [/^(?:\$HOME|\$\{HOME\})(?=\/|$)/, "home"],
    [/^(?:\$OLDPWD|\$\{OLDPWD\})(?=\/|$)/, "previous"],
    [
      /^(?:\$CLAUDE_PROJECT_DIR|\$\{CLAUDE_PROJECT_DIR\}|\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\)|`\s*git\s+rev-parse\s+--show-toplevel\s*`)(?=\/|$)/,
      "project",
    ],
  ];

/**
 * A leading tilde as bash expands it: `~` is the home folder, `~+` the working directory. `~-` (the previous
 * folder), `~user` and the directory stack (`~2`, `~+1`) are known only at run time, so they read as a variable.
 * The variables and commands that spell the same folders count as the path they spell: `$PWD`, `${PWD}`, `$(pwd)`
 * and `` `pwd` `` are the working directory, `$HOME` the home folder, `$OLDPWD` the previous folder, and
 * `$CLAUDE_PROJECT_DIR` or `$(git rev-parse --show-toplevel)` the project (when `projectDir` is given). A path the
 * analysis filled in from `d=$(mktemp ...)` lies in `tmpDir` (see {@link expandFreshTemp}).
 */
export function expandTilde(
  path: string,
  cwd: string,
  homeDir: string | null,
  projectDir?: string,
  tmpDir: string | null = null,
): string {
  if (path.includes(FRESH_TEMP)) return expandFreshTemp(path, tmpDir);
  for (const [spelling, folder] of SPELLINGS) {
    const found = spelling.exec(path);
    if (!found) continue;
    const rest = path.slice(found[0].length);
    if (folder === "cwd") return cwd + rest;
    if (folder === "home") return homeDir ? homeDir + rest : path;
    if (folder === "previous") return `$TILDE${rest}`;
    if (projectDir !== undefined) return projectDir + rest;
  }
  const tilde = /^~([^/]*)(\/.*)?$/.exec(path);
  if (!tilde) return path;
  const [, name = "", rest = ""] = tilde;
  if (name === "") return homeDir ? homeDir + rest : path;
  if (name === "+") return cwd + rest;
  return `$TILDE${rest}`;
}
