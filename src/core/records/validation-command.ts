/**
 * The shell command an automated or hybrid validation runs: the content of its first backtick code span when it
 * has one (`hybrid - \`npx playwright test\` + the message is red`); else, for a hybrid, the text before ` + `
 * (`hybrid - npx playwright test login + the message is red`, as the playbook format writes it); else the whole text.
 */
export function commandOf(text: string, kind: string = "automated"): string {
  const span = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/.exec(text);
  const code = span?.[2]?.trim() ?? "";
  if (code !== "") return code;
  const plus = kind === "hybrid" ? text.indexOf(" + ") : -1;
  return (plus === -1 ? text : text.slice(0, plus)).trim();
}
