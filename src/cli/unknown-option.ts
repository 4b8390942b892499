import type { ArgsDef } from "citty";

/**
 * The first option in `args` that `defs` does not declare, with the declared ones for the message. citty ignores
 * unknown options; a mistyped `--jsn` silently printing text instead of JSON is worse than an error.
 */
export function findUnknownOption(
  args: readonly string[],
  defs: ArgsDef,
): { option: string; known: string[] } | null {
  const names = new Set(["help", "h"]);
  const known: string[] = [];
  for (const [name, def] of Object.entries(defs)) {
    if (def.type === "positional") continue;
    names.add(name);
    known.push(`--${name}`);
    if (def.type === "boolean") names.add(`no-${name}`);
    const aliases = "alias" in def ? def.alias : undefined;
    for (const alias of typeof aliases === "string"
      ? [aliases]
      : (aliases ?? []))
      names.add(alias);
  }
  for (const arg of args) {
    if (arg === "--") break;
    if (!arg.startsWith("-") || arg === "-") continue;
    const name = arg.replace(/^--?/, "").split("=")[0] ?? "";
    if (!names.has(name)) return { option: arg.split("=")[0] ?? arg, known };
  }
  return null;
}
