import type { ArgsDef } from "citty";

/**
 * The first string option in `args` given without a value: last on the line, empty (`--cwd=`), or followed by
 * something that starts with `-`. citty would take `--cwd --json` as the directory `--json` and a bare `--cwd` as
 * the current directory; both hide a mistake. `what` names the value for the message (the option's `valueHint`).
 */
export function findMissingValue(
  args: readonly string[],
  defs: ArgsDef,
): { option: string; what: string } | null {
  const valued = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    if (def.type !== "string" && def.type !== "enum") continue;
    const what = def.valueHint ?? "value";
    valued.set(name, what);
    const aliases = "alias" in def ? def.alias : undefined;
    for (const alias of typeof aliases === "string"
      ? [aliases]
      : (aliases ?? []))
      valued.set(alias, what);
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--") break;
    if (!arg.startsWith("-")) continue;
    const [flag = arg, ...rest] = arg.split("=");
    const what = valued.get(flag.replace(/^--?/, ""));
    if (what === undefined) continue;
    const value = rest.length > 0 ? rest.join("=") : args[i + 1];
    if (value === undefined || value === "" || value.startsWith("-"))
      return { option: flag, what };
    if (rest.length === 0) i++;
  }
  return null;
}
