/**
 * A leading tilde as bash expands it: `~` is the home folder, `~+` the working directory. `~-` (the previous
 * folder), `~user` and the directory stack (`~2`, `~+1`) are known only at run time, so they read as a variable.
 */
export function expandTilde(
  path: string,
  cwd: string,
  homeDir: string | null,
): string {
  const tilde = /^~([^/]*)(\/.*)?$/.exec(path);
  if (!tilde) return path;
  const [, name = "", rest = ""] = tilde;
  if (name === "") return homeDir ? homeDir + rest : path;
  if (name === "+") return cwd + rest;
  return `$TILDE${rest}`;
}
