/**
 * Entries of a `PATH` the agent could plant a program in: empty or relative ones (they resolve against the working
 * directory, the project), and folders inside the project or a temp folder, which the agent's sandbox may write. A
 * process outside the sandbox that finds `git`, `node` or `bwrap` there would run the agent's program.
 */
export function agentWritablePathEntries(
  pathValue: string,
  options: {
    projectDir: string;
    tempDirs: readonly string[];
    delimiter: string;
    isAbsolute: (path: string) => boolean;
  },
): string[] {
  const inside = (entry: string, dir: string) => {
    const clean = (p: string) => p.replace(/[\\/]+$/, "");
    const e = clean(entry);
    const d = clean(dir);
    return (
      d !== "" && (e === d || e.startsWith(`${d}/`) || e.startsWith(`${d}\\`))
    );
  };
  return pathValue
    .split(options.delimiter)
    .filter(
      (entry) =>
        entry === "" ||
        !options.isAbsolute(entry) ||
        inside(entry, options.projectDir) ||
        options.tempDirs.some((dir) => inside(entry, dir)),
    );
}

/** `PATH` without the entries `agentWritablePathEntries` finds. */
export function withoutAgentWritable(
  pathValue: string,
  dropped: readonly string[],
  delimiter: string,
): string {
  return pathValue
    .split(delimiter)
    .filter((entry) => !dropped.includes(entry))
    .join(delimiter);
}
