import { describe, expect, it } from "vitest";
import {
  toChecksCommand,
  toQuotedValidation,
  toTestExample,
} from "../../../../src/core/scaffold/project-checks.ts";

describe("the project's checks as validations", () => {
  it.each([
    ["python3 -m pytest", "ruff check .", "python3 -m pytest && ruff check ."],
    ["go test ./...", "", "go test ./..."],
    ["", "make lint", "make lint"],
    ["", "", ""],
  ])("%j and %j -> %j", (test, lint, checks) => {
    expect(toChecksCommand(test, lint)).toBe(checks);
  });

  it.each([
    ["", '"automated - "'],
    ['pytest -k "not slow"', '"automated - pytest -k \\"not slow\\""'],
    ["grep -q 'a\\b' x", "\"automated - grep -q 'a\\\\b' x\""],
  ])("quotes %j as %s", (command, quoted) => {
    expect(toQuotedValidation(command)).toBe(quoted);
  });

  it.each([
    ["python3 -m pytest", "python3 -m pytest tests/test_login.py"],
    ["go test ./...", "go test ./login -run TestLogin"],
    ["cargo test", "cargo test login"],
    ["npx vitest run", "npx vitest run test/login.test.ts"],
    [
      "pnpm exec vitest run --coverage",
      "pnpm exec vitest run --coverage test/login.test.ts",
    ],
    ["npm test", "npm test -- test/login.test.js"],
    ["yarn test", "yarn test test/login.test.js"],
    ["make test", ""],
    ["just test", ""],
    ["./run-tests.sh", ""],
  ])("narrows %j to %j", (command, example) => {
    expect(toTestExample(command)).toBe(example);
  });
});
