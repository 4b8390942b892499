import { describe, expect, it } from "vitest";
import {
  describeSecretFinding,
  MASK,
  sortSecretFindings,
  toSecretFinding,
  type ScannedFile,
} from "../../../../src/core/archive/secrets.ts";
import {
  AWS_SECRET_NAME,
  FAKE_AWS_SECRET,
  FAKE_GITHUB_TOKEN,
} from "../../../helpers/fake-secrets.ts";

/** A hit on `value` where it first occurs in `file`'s text. */
function hitOn(
  file: ScannedFile,
  value: string,
  rule = "@secretlint/secretlint-rule-github",
) {
  const at = (file.content ?? "").indexOf(value);
  return {
    rule,
    kind: "GITHUB_TOKEN",
    range: [at, at + value.length] as const,
  };
}

describe("toSecretFinding and describeSecretFinding", () => {
  it.each([
    ["on the first line", `token: ${FAKE_GITHUB_TOKEN}\n`, 1, 8, "token: "],
    [
      "on the third line",
      `a\nb\n  const t = "${FAKE_GITHUB_TOKEN}";\n`,
      3,
      14,
      'const t = "',
    ],
    [
      "after code that is no key name",
      `f(x) + g(y, "${FAKE_GITHUB_TOKEN}")`,
      1,
      14,
      "",
    ],
  ])(
    "a hit %s: its line and column, and the key name before it",
    (_, content, line, column, before) => {
      const file = { path: "src/a.ts", content };
      const finding = toSecretFinding(file, hitOn(file, FAKE_GITHUB_TOKEN));
      expect(finding).toEqual({
        path: "src/a.ts",
        line,
        column,
        rule: "github",
        kind: "GITHUB_TOKEN",
        commit: null,
        before,
      });
    },
  );

  it("a hit in a branch's additions is placed by the line's origin: its line in the commit that added it", () => {
    const file: ScannedFile = {
      path: "src/config.ts",
      content: `first added\nexport const t = "${FAKE_GITHUB_TOKEN}";`,
      origins: [
        { line: 3, commit: "1".repeat(40) },
        { line: 17, commit: "2".repeat(40) },
      ],
    };
    const finding = toSecretFinding(file, hitOn(file, FAKE_GITHUB_TOKEN));
    expect([finding.line, finding.commit]).toEqual([17, "2".repeat(40)]);
    expect(describeSecretFinding(finding)).toBe(
      `src/config.ts:17:19 export const t = "${MASK} (rule github, GITHUB_TOKEN, added by 2222222)`,
    );
  });

  it("never shows the value, nor what follows it, only the key name and a mask of fixed length", () => {
    const content = `${AWS_SECRET_NAME}=${FAKE_AWS_SECRET} # and more`;
    const file = { path: "config.env", content };
    const at = content.indexOf(FAKE_AWS_SECRET);
    const text = describeSecretFinding(
      toSecretFinding(file, {
        rule: "@secretlint/secretlint-rule-aws",
        kind: "AWSSecretAccessKey",
        range: [at, at + 40],
      }),
    );
    expect(text).toBe(
      `config.env:1:${at + 1} ${AWS_SECRET_NAME}=${MASK} (rule aws, AWSSecretAccessKey)`,
    );
    expect(text).not.toContain(FAKE_AWS_SECRET.slice(0, 8));
    expect(text).not.toContain("and more");
  });

  it("keeps no text before the value when it could hold another value (two assignments on the line)", () => {
    const content = `PASSWORD=hunter2 TOKEN=${FAKE_GITHUB_TOKEN}`;
    const file = { path: "run.sh", content };
    const text = describeSecretFinding(
      toSecretFinding(file, hitOn(file, FAKE_GITHUB_TOKEN)),
    );
    expect(text).not.toContain("hunter2");
    expect(text).toBe(`run.sh:1:24 ${MASK} (rule github, GITHUB_TOKEN)`);
  });

  it("sorts findings by file and line, and drops the same finding reported twice", () => {
    const a = {
      path: "b.ts",
      line: 2,
      column: 1,
      rule: "x",
      kind: null,
      commit: null,
      before: "",
    };
    const b = { ...a, path: "a.ts", line: 9 };
    const c = { ...a, path: "a.ts", line: 3 };
    expect(sortSecretFindings([a, b, c, a])).toEqual([c, b, a]);
  });
});
