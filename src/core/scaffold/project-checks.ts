/**
 * The project's own checks as one shell command (the tests, then the linter), or "" when neither is known: what a
 * `consistency` validation runs.
 */
export function toChecksCommand(
  testCommand: string,
  lintCommand: string,
): string {
  return [testCommand, lintCommand].filter((c) => c.trim() !== "").join(" && ");
}

/**
 * A validation as a playbook writes it, `"automated - <command>"`, quoted as JSON quotes a string, which YAML reads
 * back as written: a command with a quote or a backslash in it stays one value.
 */
export function toQuotedValidation(command: string): string {
  return JSON.stringify(`automated - ${command}`);
}

/**
 * How the project's test runner runs the tests of one criterion, for pm's `technical` validations, or "" for a
 * runner this cannot narrow (a make target, a just recipe, a script of unknown shape).
 */
export function toTestExample(testCommand: string): string {
  const command = testCommand.trim();
  if (command === "python3 -m pytest")
    return "python3 -m pytest tests/test_login.py";
  if (command === "go test ./...") return "go test ./login -run TestLogin";
  if (command === "cargo test") return "cargo test login";
  if (/^(?:npx|pnpm exec|yarn|bunx) vitest run\b/.test(command))
    return `${command} test/login.test.ts`;
  if (command === "npm test") return "npm test -- test/login.test.js";
  if (/^(?:pnpm|yarn) test$|^bun run test$/.test(command))
    return `${command} test/login.test.js`;
  return "";
}
