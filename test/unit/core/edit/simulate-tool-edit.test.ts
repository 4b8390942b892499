import { describe, expect, it } from "vitest";
import { simulateToolEdit } from "../../../../src/core/edit/simulate-tool-edit.ts";

describe("simulateToolEdit", () => {
  it.each([
    [
      "Edit once",
      "Edit",
      { old_string: "[ ]", new_string: "[x]" },
      "a [ ] b",
      "a [x] b",
    ],
    [
      "Edit replace_all",
      "Edit",
      { old_string: "[ ]", new_string: "[x]", replace_all: true },
      "[ ] [ ]",
      "[x] [x]",
    ],
    ["Write", "Write", { content: "new" }, "old", "new"],
    ["Write of a new file", "Write", { content: "new" }, null, "new"],
    [
      "Edit creating a file with empty old_string",
      "Edit",
      { old_string: "", new_string: "x" },
      null,
      "x",
    ],
    [
      "MultiEdit in order",
      "MultiEdit",
      {
        edits: [
          { old_string: "a", new_string: "b" },
          { old_string: "b c", new_string: "d" },
        ],
      },
      "a c",
      "d",
    ],
    [
      "CRLF file edited with LF text keeps its CRLF",
      "Edit",
      { old_string: "a\nb", new_string: "a\nc" },
      "x\r\na\r\nb",
      "x\r\na\r\nc",
    ],
    [
      "typographic quotes elsewhere in the file stay as they are",
      "Edit",
      { old_string: "a\nb", new_string: "a\nc" },
      "\u201Cq\u201D\r\na\r\nb",
      "\u201Cq\u201D\r\na\r\nc",
    ],
    [
      "typographic quotes",
      "Edit",
      { old_string: "say \u201Chi\u201D", new_string: 'say "yo"' },
      'say "hi"',
      'say "yo"',
    ],
  ])("%s", (_name, tool, input, before, after) => {
    expect(simulateToolEdit(tool, input, before)).toEqual({
      kind: "content",
      text: after,
    });
  });

  it.each([
    ["old_string missing", { old_string: "zzz", new_string: "y" }, "abc"],
    ["old_string not unique", { old_string: "a", new_string: "y" }, "a a"],
    ["missing file", { old_string: "a", new_string: "y" }, null],
  ])("reports that the tool itself will fail: %s", (_name, input, before) => {
    expect(simulateToolEdit("Edit", input, before).kind).toBe("no-change");
  });

  it("does not guess at inputs it does not understand", () => {
    expect(simulateToolEdit("Edit", { old_string: 1 }, "x").kind).toBe(
      "unknown",
    );
    expect(simulateToolEdit("Write", {}, "x").kind).toBe("unknown");
    expect(simulateToolEdit("MultiEdit", { edits: "x" }, "x").kind).toBe(
      "unknown",
    );
  });
});
