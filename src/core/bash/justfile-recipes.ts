import { dependencyOrder } from "./dependency-order.ts";

/** A recipe line just would run, or a recipe's whole body when a `#!` line makes it a program. */
export interface JustRecipe {
  recipe: string;
  /** A shell line; or, for a `#!` recipe, the program's text. */
  text: string;
  /** The program a `#!` recipe runs (`python3`), null for shell lines. */
  interpreter: string | null;
}

interface Recipe {
  dependencies: string[];
  body: string[];
}

const MAX_RECIPES = 64;

/**
 * The lines `just WORDS` would run from a justfile's text: the recipes among `words` (the first recipe when none
 * is), dependencies first, `@` and `-` prefixes dropped, `{{name}}` replaced by the justfile's own string
 * variables. A recipe whose body starts with `#!` is one program. Imports, modules and conditionals are not followed.
 */
export function justfileRecipes(
  text: string,
  words: readonly string[],
): JustRecipe[] {
  const recipes = new Map<string, Recipe>();
  const aliases = new Map<string, string>();
  const variables = new Map<string, string>();
  let first: string | null = null;
  let current: Recipe | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (current && /^[ \t]/.test(line)) {
      current.body.push(line);
      continue;
    }
    if (current && line.trim() === "") {
      current.body.push("");
      continue;
    }
    current = null;
    const alias = /^alias\s+([A-Za-z_][\w-]*)\s*:=\s*([A-Za-z_][\w-]*)/.exec(
      line,
    );
    if (alias) {
      aliases.set(alias[1]!, alias[2]!);
      continue;
    }
    const variable =
      /^(?:export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(?:"([^"]*)"|'([^']*)')\s*$/.exec(
        line,
      );
    if (variable) {
      variables.set(variable[1]!, variable[2] ?? variable[3] ?? "");
      continue;
    }
    const header = /^@?([A-Za-z_][\w-]*)([^:]*?)\s*:(?!=)(.*)$/.exec(line);
    if (!header || /^(?:set|import|mod|export)\b/.test(line)) continue;
    const name = header[1]!;
    const dependencies = [
      ...header[3]!.matchAll(/(?:^|[\s(&])([A-Za-z_][\w-]*)/g),
    ].map((m) => m[1]!);
    current = { dependencies, body: [] };
    recipes.set(name, current);
    first ??= name;
  }
  const resolve = (word: string) => aliases.get(word) ?? word;
  const named = words.map(resolve).filter((word) => recipes.has(word));
  const goals =
    named.length > 0 ? named : words.length === 0 && first ? [first] : [];
  const out: JustRecipe[] = [];
  const order = dependencyOrder(
    goals,
    (name) => recipes.get(name)?.dependencies.map(resolve),
    MAX_RECIPES,
  );
  for (const name of order) {
    const recipe = recipes.get(name)!;
    const body = dedent(recipe.body).map((line) =>
      interpolate(line, variables),
    );
    const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(body[0] ?? "");
    if (shebang) {
      const program = shebang[1]!.split("/").pop() ?? "";
      const interpreter = program === "env" ? (shebang[2] ?? "sh") : program;
      out.push({
        recipe: name,
        text: body.join("\n"),
        interpreter: /^(?:ba|z|da|k)?sh$/.test(interpreter)
          ? null
          : interpreter,
      });
      continue;
    }
    for (const line of body) {
      const command = line.trim().replace(/^[@-]+/, "");
      if (command !== "" && !command.startsWith("#"))
        out.push({ recipe: name, text: command, interpreter: null });
    }
  }
  return out;
}

function dedent(lines: readonly string[]): string[] {
  const trimmed = [...lines];
  while (trimmed.length > 0 && trimmed.at(-1)!.trim() === "") trimmed.pop();
  const indent = Math.min(
    ...trimmed
      .filter((line) => line.trim() !== "")
      .map((line) => /^[ \t]*/.exec(line)![0].length),
  );
  return trimmed.map((line) =>
    line.slice(Number.isFinite(indent) ? indent : 0),
  );
}

function interpolate(
  line: string,
  variables: ReadonlyMap<string, string>,
): string {
  return line.replace(
    /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g,
    (whole, name: string) => variables.get(name) ?? whole,
  );
}
