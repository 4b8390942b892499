/** `git -C dir -c k=v push ...` → `["push", ...]`, or null when `argv` is not git. */
export function gitArgs(argv: readonly string[]): string[] | null {
  if (baseName(argv[0] ?? "") !== "git") return null;
  let i = 1;
  const aliases = new Map<string, string>();
  while (i < argv.length) {
    const word = argv[i] ?? "";
    if (word === "-c") {
      // An alias set on the command line hides what runs: `git -c alias.x='checkout -- .' x`.
      const setting = /^alias\.([^=]+)=(.*)$/is.exec(argv[i + 1] ?? "");
      if (setting)
        aliases.set((setting[1] ?? "").toLowerCase(), setting[2] ?? "");
      i += 2;
    } else if (
      word === "-C" ||
      word === "--git-dir" ||
      word === "--work-tree" ||
      word === "--namespace" ||
      word === "--config-env"
    )
      i += 2;
    else if (word.startsWith("-")) i += 1;
    else break;
  }
  const rest = argv.slice(i);
  const alias = aliases.get((rest[0] ?? "").toLowerCase());
  if (alias === undefined) return rest;
  // A shell alias (`!sh -c ...`) runs anything: reported as such, so the guard can refuse what it cannot read.
  if (alias.trimStart().startsWith("!")) return ["!alias", ...rest.slice(1)];
  return [...alias.trim().split(/\s+/), ...rest.slice(1)];
}

/**
 * The arguments of a `playbook` CLI call (`playbook`, a path ending in `/playbook`, `npx [opts] playbook`,
 * `npm exec playbook --`, `node .../dist/cli.mjs`), or null.
 */
export function playbookArgs(argv: readonly string[]): string[] | null {
  const first = baseName(argv[0] ?? "");
  if (first === "playbook") return argv.slice(1);
  if (first === "npx" || first === "pnpx" || first === "bunx") {
    // `-p <package>` / `--package <package>` take a value; the command is the first word after the options. A
    // package other than playbook-kit could bring any `playbook` binary, so it is not playbook.
    let i = 1;
    const packages: string[] = [];
    while (i < argv.length && (argv[i] ?? "").startsWith("-")) {
      const word = argv[i] ?? "";
      if (word === "-p" || word === "--package") {
        packages.push(argv[i + 1] ?? "");
        i += 2;
      } else {
        if (word.startsWith("--package=")) packages.push(word.slice(10));
        i += 1;
      }
    }
    if (
      i < argv.length &&
      ["playbook", "playbook-kit"].includes(baseName(argv[i] ?? "")) &&
      packages.every((name) => /^playbook-kit(?:@[\w.^~<>=-]+)?$/.test(name))
    )
      return argv.slice(i + 1);
  }
  if ((first === "npm" || first === "pnpm") && argv[1] === "exec") {
    const i = argv.findIndex((w, n) => n > 1 && !w.startsWith("-"));
    if (i > 0 && ["playbook", "playbook-kit"].includes(argv[i] ?? ""))
      return argv.slice(i + 1).filter((w, n) => !(n === 0 && w === "--"));
  }
  if (first === "node" || first === "node.exe") {
    const script = argv.findIndex((w, n) => n > 0 && !w.startsWith("-"));
    const path = argv[script] ?? "";
    if (/(?:^|\/)(?:cli\.mjs|playbook)$/.test(path.replace(/\\/g, "/")))
      return argv.slice(script + 1);
  }
  return null;
}

export function baseName(word: string): string {
  const slash = Math.max(word.lastIndexOf("/"), word.lastIndexOf("\\"));
  return word.slice(slash + 1);
}

/** Whether short flags (`-rf`, `-R`) or a long one (`--recursive`) say `letter`/`long`. */
export function hasFlag(
  args: readonly string[],
  letters: string,
  long: readonly string[] = [],
): boolean {
  for (const arg of args) {
    if (arg === "--") return false;
    if (arg.startsWith("--")) {
      if (long.some((l) => arg === l || arg.startsWith(`${l}=`))) return true;
    } else if (arg.startsWith("-") && arg.length > 1) {
      if ([...letters].some((letter) => arg.slice(1).includes(letter)))
        return true;
    }
  }
  return false;
}
