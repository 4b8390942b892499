import type {
  Command,
  DoubleQuotedChild,
  Redirected,
  Redirection,
  SyntaxNode,
  Word,
  WordPart,
} from "unbash";
import type { KnownUse, LineBindings } from "./shell-bindings.ts";

/** The value each known use takes in one way a command can run. */
export type BindingChoice = ReadonlyMap<SyntaxNode, string>;

export const NO_CHOICE: BindingChoice = new Map();

/** Beyond this many combinations a command keeps its variables as written. */
const MAX_CHOICES = 64;

/**
 * The ways a command's known variables can be filled in, one choice per combination of their bindings' values
 * (`cp "$f" "$f.bak"` in a loop over two words runs two ways, not four). Only the command's own words count:
 * a `$(...)` inside is a command of its own.
 */
export function bindingChoices(
  node: Command | Redirected,
  bindings: LineBindings,
): BindingChoice[] {
  if (bindings.size === 0) return [NO_CHOICE];
  const uses = new Map<object, [SyntaxNode, KnownUse][]>();
  const collect = (part: WordPart | DoubleQuotedChild) => {
    if (part.type === "DoubleQuoted" || part.type === "LocaleString") {
      part.parts.forEach(collect);
      return;
    }
    const known = bindings.get(part);
    if (!known) return;
    const same = uses.get(known.binding) ?? [];
    same.push([part, known]);
    uses.set(known.binding, same);
  };
  for (const word of wordsOf(node)) (word.parts ?? []).forEach(collect);
  let choices = [new Map<SyntaxNode, string>()];
  for (const group of uses.values()) {
    // A command runs where one binding either has failed or not: its uses share the widest set of values.
    const values = [...new Set(group.flatMap(([, known]) => known.values))];
    if (choices.length * values.length > MAX_CHOICES) return [NO_CHOICE];
    choices = choices.flatMap((choice) =>
      values.map((value) => {
        const next = new Map(choice);
        for (const [part] of group) next.set(part, value);
        return next;
      }),
    );
  }
  return choices;
}

function wordsOf(node: Command | Redirected): Word[] {
  const words: Word[] = [];
  const redirects: readonly Redirection[] = node.redirects;
  if (node.type === "Command") {
    for (const item of node.prefix)
      if (item.type === "Assignment" && item.value.type === "Word")
        words.push(item.value);
    if (node.name) words.push(node.name);
    for (const arg of node.args)
      if (arg.type === "Word") words.push(arg);
      else if (arg.value.type === "Word") words.push(arg.value);
  }
  for (const redirect of redirects)
    if (redirect.type !== "HereDoc" && redirect.target)
      words.push(redirect.target);
  return words;
}
