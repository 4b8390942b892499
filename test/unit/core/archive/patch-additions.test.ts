import { describe, expect, it } from "vitest";
import { additionsOfPatch } from "../../../../src/core/archive/patch-additions.ts";

// Shaped like `git -c core.quotePath=false log -p --format=%H --no-renames -U0` prints them (without the commit lines).
const ADDED = [
  "diff --git a/.env b/.env",
  "new file mode 100644",
  "index 0000000..1111111",
  "--- /dev/null",
  "+++ b/.env",
  "@@ -0,0 +1,2 @@",
  "+API_KEY=abc",
  "++++ a line that starts with three pluses",
].join("\n");
const CHANGED = [
  "diff --git a/src/config.ts b/src/config.ts",
  "index 1111111..2222222 100644",
  "--- a/src/config.ts",
  "+++ b/src/config.ts",
  "@@ -1 +1 @@",
  "-export const key = 'old';",
  "+export const key = 'new';",
].join("\n");
const DELETED = [
  "diff --git a/.env b/.env",
  "deleted file mode 100644",
  "index 1111111..0000000",
  "--- a/.env",
  "+++ /dev/null",
  "@@ -1 +0,0 @@",
  "-API_KEY=abc",
].join("\n");
const EMPTY = [
  "diff --git a/id_rsa b/id_rsa",
  "new file mode 100600",
  "index 0000000..e69de29",
].join("\n");
const BINARY = [
  "diff --git a/keys/store.p12 b/keys/store.p12",
  "new file mode 100644",
  "index 0000000..3333333",
  "Binary files /dev/null and b/keys/store.p12 differ",
].join("\n");
const QUOTED = [
  'diff --git "a/dir/tab\\there" "b/dir/tab\\there"',
  "new file mode 100644",
  "index 0000000..4444444",
  "--- /dev/null",
  '+++ "b/dir/tab\\there"',
  "@@ -0,0 +1 @@",
  "+x",
  'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"',
  "new file mode 100644",
  "--- /dev/null",
  '+++ "b/caf\\303\\251.txt"',
  "@@ -0,0 +1 @@",
  "+y",
].join("\n");

describe("additionsOfPatch", () => {
  it.each([
    [
      "a new file: its lines, a content line of pluses included",
      ADDED,
      [
        {
          path: ".env",
          content: "API_KEY=abc\n+++ a line that starts with three pluses",
        },
      ],
    ],
    [
      "a changed file: only the lines added",
      CHANGED,
      [{ path: "src/config.ts", content: "export const key = 'new';" }],
    ],
    ["a file only deleted: nothing", DELETED, []],
    [
      "an empty new file: listed by name",
      EMPTY,
      [{ path: "id_rsa", content: "" }],
    ],
    [
      "a binary file: listed, no content",
      BINARY,
      [{ path: "keys/store.p12", content: null }],
    ],
    [
      "quoted paths",
      QUOTED,
      [
        { path: "dir/tab\there", content: "x" },
        { path: "café.txt", content: "y" },
      ],
    ],
    [
      "added, then deleted by a later commit: still listed",
      `${ADDED}\n${DELETED}`,
      [
        {
          path: ".env",
          content: "API_KEY=abc\n+++ a line that starts with three pluses",
        },
      ],
    ],
    ["nothing", "", []],
  ])("%s", (_name, patch, expected) => {
    expect(
      additionsOfPatch(patch).map(({ path, content }) => ({ path, content })),
    ).toEqual(expected);
  });

  it("joins what several commits add to one file, each line with its number in the file and its commit", () => {
    const first = "1".repeat(40);
    const second = "2".repeat(40);
    const later =
      CHANGED.replace("'new'", "'newer'").replace(
        "@@ -1 +1 @@",
        "@@ -7,0 +8,2 @@",
      ) + "\n+// and one more";
    expect(
      additionsOfPatch(`${first}\n\n${CHANGED}\n${second}\n\n${later}`),
    ).toEqual([
      {
        path: "src/config.ts",
        content:
          "export const key = 'new';\nexport const key = 'newer';\n// and one more",
        origins: [
          { line: 1, commit: first },
          { line: 8, commit: second },
          { line: 9, commit: second },
        ],
      },
    ]);
  });

  it("numbers a new file's lines from 1, and lines of hunks further down from their header", () => {
    const hunks = [
      "diff --git a/src/x.ts b/src/x.ts",
      "index 1111111..2222222 100644",
      "--- a/src/x.ts",
      "+++ b/src/x.ts",
      "@@ -3 +3 @@",
      "-old",
      "+new",
      "@@ -40,0 +41,2 @@ function f() {",
      "+a",
      "+b",
    ].join("\n");
    expect(
      additionsOfPatch(`${ADDED}\n${hunks}`).map((f) => [
        f.path,
        f.origins.map((o) => o.line),
      ]),
    ).toEqual([
      [".env", [1, 2]],
      ["src/x.ts", [3, 41, 42]],
    ]);
  });
});
