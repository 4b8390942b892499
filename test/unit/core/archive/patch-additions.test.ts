import { describe, expect, it } from "vitest";
import { additionsOfPatch } from "../../../../src/core/archive/patch-additions.ts";

// Shaped like `git -c core.quotePath=false log -p --format= --no-renames -U0` prints them.
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
    expect(additionsOfPatch(patch)).toEqual(expected);
  });

  it("joins what several commits add to one file", () => {
    expect(
      additionsOfPatch(`${CHANGED}\n${CHANGED.replace("'new'", "'newer'")}`),
    ).toEqual([
      {
        path: "src/config.ts",
        content: "export const key = 'new';\nexport const key = 'newer';",
      },
    ]);
  });
});
