import { dependencyOrder } from "./dependency-order.ts";

/** A recipe line make would hand to the shell, with the target it belongs to. */
export interface MakeRecipe {
  target: string;
  line: string;
}

interface Rule {
  prerequisites: string[];
  recipe: string[];
}

/** How many rules are followed through prerequisites, so a cycle or a huge tree cannot stall the hook. */
const MAX_RULES = 64;

/**
 * The recipe lines `make TARGETS` would run from a Makefile's text (the first ordinary target when none is named),
 * prerequisites first, as shell command lines: `@`, `-` and `+` prefixes dropped, `$$` as `$`, backslash-continued
 * lines joined. Make's own variables stay as written (`$(X)` reads as a command substitution, which names no file).
 * Includes, pattern rules and conditionals are not followed: a recipe that needs them is not found.
 */
export function makefileRecipes(
  text: string,
  targets: readonly string[],
): MakeRecipe[] {
  const rules = new Map<string, Rule>();
  let first: string | null = null;
  let current: Rule[] = [];
  const lines = text.replace(/\\\r?\n/g, " ").split(/\r?\n/);
  const variables = new Map<string, string>();
  for (const line of lines) {
    const assignment =
      /^(?:export\s+|override\s+)?([A-Za-z_][\w.-]*)\s*(:{1,3}=|\?=|\+=|!=|=)\s*(.*)$/.exec(
        line,
      );
    if (assignment && !line.startsWith("\t")) {
      const name = assignment[1]!;
      const op = assignment[2]!;
      const value = assignment[3]!;
      const before = variables.get(name);
      if (op === "+=")
        variables.set(name, before ? `${before} ${value}` : value);
      else if (op !== "?=" || before === undefined)
        variables.set(name, op === "!=" ? "" : value);
      current = [];
      continue;
    }
    if (line.startsWith("\t")) {
      for (const rule of current) rule.recipe.push(line.slice(1));
      continue;
    }
    const rule = /^([^\s:#=][^:=#]*?)\s*::?(?!=)([^;#]*)(?:;(.*))?$/.exec(line);
    if (!rule) {
      if (line.trim() !== "" && !line.trimStart().startsWith("#")) current = [];
      continue;
    }
    const names = rule[1]!.split(/\s+/).filter(Boolean);
    const prerequisites = rule[2]!
      .split("|")
      .join(" ")
      .split(/\s+/)
      .filter(Boolean);
    current = names.map((name) => {
      const entry = rules.get(name) ?? { prerequisites: [], recipe: [] };
      entry.prerequisites.push(...prerequisites);
      rules.set(name, entry);
      if (first === null && !name.startsWith(".") && !name.includes("%"))
        first = name;
      return entry;
    });
    if (rule[3] !== undefined && rule[3].trim() !== "")
      for (const entry of current) entry.recipe.push(rule[3]);
  }
  const goals = targets.length > 0 ? targets : first === null ? [] : [first];
  const out: MakeRecipe[] = [];
  const order = dependencyOrder(
    goals,
    (name) => rules.get(name)?.prerequisites,
    MAX_RULES,
  );
  for (const target of order)
    for (const line of rules.get(target)?.recipe ?? []) {
      const command = expand(line, variables)
        .trim()
        .replace(/^[@+-]+/, "")
        .replace(/\$\$/g, "$");
      if (command !== "") out.push({ target, line: command });
    }
  return out;
}

/**
 * `$(NAME)` and `${NAME}` replaced by the Makefile's own value for NAME, a few levels deep (values may name other
 * variables); unknown names and `$$` stay as written.
 */
function expand(line: string, variables: ReadonlyMap<string, string>): string {
  let text = line;
  for (let depth = 0; depth < 8; depth++) {
    const next = text.replace(
      /(?<!\$)\$(?:\(([A-Za-z_][\w.-]*)\)|\{([A-Za-z_][\w.-]*)\})/g,
      (whole, paren?: string, brace?: string) =>
        variables.get(paren ?? brace ?? "") ?? whole,
    );
    if (next === text) break;
    text = next;
  }
  return text;
}
