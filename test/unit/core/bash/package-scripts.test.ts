import { describe, expect, it } from "vitest";
import { packageScriptRun } from "../../../../src/core/bash/package-scripts.ts";

describe("packageScriptRun", () => {
  it.each([
    ["npm run build", null, ["prebuild", "build", "postbuild"]],
    [
      "npm run-script build -- --watch",
      null,
      ["prebuild", "build", "postbuild"],
    ],
    ["npm test", null, ["pretest", "test", "posttest"]],
    ["npm t", null, ["pretest", "test", "posttest"]],
    ["npm --prefix web run build", "web", ["prebuild", "build", "postbuild"]],
    ["npm run --prefix=web build", "web", ["prebuild", "build", "postbuild"]],
    ["yarn build", null, ["prebuild", "build", "postbuild"]],
    ["yarn --cwd web run build", "web", ["prebuild", "build", "postbuild"]],
    ["pnpm -C web lint", "web", ["prelint", "lint", "postlint"]],
    ["bun run dev", null, ["predev", "dev", "postdev"]],
  ])("%s → %s %j", (line, dir, names) => {
    expect(packageScriptRun(line.split(" "))).toEqual({ dir, names });
  });

  it("npm install, npm ci and a bare yarn run the lifecycle scripts", () => {
    for (const line of [
      "npm install",
      "npm ci",
      "npm i lodash",
      "yarn",
      "pnpm install",
    ])
      expect(packageScriptRun(line.split(" "))?.names).toEqual(
        expect.arrayContaining([
          "preinstall",
          "install",
          "postinstall",
          "prepare",
        ]),
      );
  });

  it.each([
    ["npm view react"],
    ["npm run"],
    ["yarn why react"],
    ["pnpm why react"],
    ["bun test"],
    ["npx vitest run"],
    ["node script.js"],
  ])("%s runs no package script", (line) => {
    expect(packageScriptRun(line.split(" "))).toBeNull();
  });
});
