import { describe, expect, it } from "vitest";
import { commandOf } from "../../../../src/core/records/validation-command.ts";

describe("commandOf", () => {
  it.each([
    ["npx tsc --noEmit", "npx tsc --noEmit"],
    ["  npm test  ", "npm test"],
    [
      "`npx playwright test login` + the message is red",
      "npx playwright test login",
    ],
    ["run `npm test` then `npm run lint`", "npm test"],
    ["``echo `date` `` and look", "echo `date`"],
    ["empty span `` then text", "empty span `` then text"],
    ["unclosed `npm test", "unclosed `npm test"],
    ['node -e "process.exit(0)"', 'node -e "process.exit(0)"'],
    ["", ""],
  ])("%j -> %j", (text, expected) => {
    expect(commandOf(text)).toBe(expected);
  });

  it("takes a hybrid's command from before ` + `, as the playbook format writes it", () => {
    expect(
      commandOf("npx playwright test login + the message is red", "hybrid"),
    ).toBe("npx playwright test login");
    expect(commandOf("npm test + a+b looks right", "hybrid")).toBe("npm test");
    expect(commandOf("echo 1 + 1", "automated")).toBe("echo 1 + 1");
  });
});
