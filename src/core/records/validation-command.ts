/**
 * The shell command an automated or hybrid validation runs: the content of its first backtick code span when it
 * has one (`hybrid - \`npx playwright test\` + the message is red`), else the whole text.
 */
export function commandOf(text: string): string {
  const span = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/.exec(text);
  const code = span?.[2]?.trim() ?? "";
  return code !== "" ? code : text.trim();
}
