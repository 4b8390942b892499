import { describe, expect, it } from "vitest";
import { playbookArgs } from "../../../../src/core/guards/command-words.ts";

describe("playbookArgs: the spellings of a playbook CLI call", () => {
  it.each([
    [
      ["playbook", "verify", "p1.1"],
      ["verify", "p1.1"],
    ],
    [
      ["npx", "playbook", "verify", "p1.1"],
      ["verify", "p1.1"],
    ],
    [
      ["npx", "--no", "playbook", "review", "approve"],
      ["review", "approve"],
    ],
    [["npx", "--no-install", "playbook", "lint"], ["lint"]],
    [
      ["npx", "-y", "playbook-kit", "crit", "record", "p1", "PASS"],
      ["crit", "record", "p1", "PASS"],
    ],
    [["npx", "-p", "playbook-kit", "playbook", "status"], ["status"]],
    [["npx", "--package", "playbook-kit", "playbook", "status"], ["status"]],
    [["npx", "--package=playbook-kit", "playbook", "status"], ["status"]],
    [["npm", "exec", "--", "playbook", "post-loop"], ["post-loop"]],
    [["node_modules/.bin/playbook", "status"], ["status"]],
    [
      ["node", "node_modules/playbook-kit/dist/cli.mjs", "verify", "p1.1"],
      ["verify", "p1.1"],
    ],
    [["npx", "-p", "other", "tsc"], null],
    [["npx", "-p", "evil", "playbook", "review", "approve"], null],
    [["npx", "--package=evil@1", "playbook", "status"], null],
    [["npx", "-p", "playbook-kit@0.1.0", "playbook", "status"], ["status"]],
    [["npx", "eslint", "."], null],
  ])("%j -> %j", (argv, expected) => {
    expect(playbookArgs(argv)).toEqual(expected);
  });
});
