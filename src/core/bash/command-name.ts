/** The program a command word runs, without its folder: `/usr/bin/rm` and `rm` are both `rm`. */
export function commandName(word: string | undefined): string {
  if (word === undefined) return "";
  const slash = word.lastIndexOf("/");
  return slash === -1 ? word : word.slice(slash + 1);
}

/** The last path segment, as `ln -s ../x` names the link it creates. */
export function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1) || trimmed;
}

/** `name` inside folder `dir`, as the shell would spell it: `dest/` and `a.md` give `dest/a.md`. */
export function inFolder(dir: string, name: string): string {
  const trimmed = dir.replace(/\/+$/, "");
  return trimmed === "" && dir.startsWith("/")
    ? `/${name}`
    : `${trimmed || "."}/${name}`;
}
