import fc from "fast-check";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { describe, expect, it } from "vitest";
import {
  cut,
  fitMarkdown,
  markdownCode,
  markdownText,
} from "../../../../src/core/records/markdown-text.ts";

interface Node {
  type: string;
  value?: string;
  children?: Node[];
}

/** The markdown's nodes, depth first, as CommonMark reads it. */
function nodesOf(markdown: string): Node[] {
  const all: Node[] = [];
  const walk = (node: Node) => {
    all.push(node);
    node.children?.forEach(walk);
  };
  walk(unified().use(remarkParse).parse(markdown));
  return all;
}

/** What a reader sees of a one-paragraph markdown text. */
function shown(markdown: string): string {
  return nodesOf(markdown)
    .filter((n) => n.type === "text" || n.type === "inlineCode")
    .map((n) => n.value)
    .join("");
}

/**
 * A GFM table line's cells, as GitHub splits them: at every `|` not right after a backslash (cmark-gfm's rule, which
 * also holds inside code spans).
 */
function cellsOf(line: string): string[] {
  return line
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "")
    .split(/(?<!\\)\|/);
}

/** The characters the generator below may produce that are shown as U+FFFD. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f\u202e]/g;

/** Text made mostly of what markdown, GFM tables and HTML give a meaning to. */
const tricky = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      ..."|`<>&\\*_[]()!#@~-+=:;/ \n\r\t\u0000\u007f\u202e".split(""),
      "<!--",
      "-->",
      "<details>",
      "</details>",
      "<img src=x>",
      "<http://x.test>",
      "[a](b)",
      "&lt;",
      "&#124;",
      "```",
      "http://x.test/",
    ),
    fc.constantFrom(..."abcxyz019".split("")),
  ),
  maxLength: 40,
});

describe("markdownText", () => {
  it.each([
    ["a | b", "a \\| b"],
    ["line one\nline two\r\nthree", "line one line two three"],
    ["`code`", "\\`code\\`"],
    [
      "<details><summary>x</summary>",
      "&lt;details&gt;&lt;summary&gt;x&lt;/summary&gt;",
    ],
    ["<!-- hidden", "&lt;\\!-- hidden"],
    [
      "[link](https://x.test) ![img](https://x.test/a.png)",
      "\\[link\\](https://x.test) \\!\\[img\\](https://x.test/a.png)",
    ],
    ["ping @octocat", "ping @\u200boctocat"],
    ["&#124; &lt;", "&amp;\\#124; &amp;lt;"],
    ["right\u202eto left", "right\ufffdto left"],
  ])("%j -> %j", (text, expected) => {
    expect(markdownText(text)).toBe(expected);
  });

  it("shows any text as written, on one line, with no HTML and no link or image of its own", () => {
    fc.assert(
      fc.property(tricky, (text) => {
        const markdown = `x ${markdownText(text, 1000)}`;
        const nodes = nodesOf(markdown);
        expect(nodes.map((n) => n.type)).not.toContain("html");
        expect(nodes.map((n) => n.type)).not.toContain("link");
        expect(nodes.map((n) => n.type)).not.toContain("image");
        expect(nodes.map((n) => n.type)).not.toContain("inlineCode");
        expect(markdown).not.toMatch(/[\r\n]/);
        const expected = `x ${text.replace(/\r\n|[\r\n\t]/g, " ")}`
          .replace(/@(?=[A-Za-z0-9])/g, "@\u200b")
          .replace(INVISIBLE, "\ufffd");
        expect(shown(markdown).trimEnd()).toBe(expected.trimEnd());
      }),
      { numRuns: 500 },
    );
  });

  it("cuts long text with an ellipsis, never inside a surrogate pair", () => {
    expect(markdownText("a".repeat(10), 5)).toBe("aaaa…");
    expect(cut(`abc😀def`, 5)).toBe("abc…");
  });
});

describe("markdownCode", () => {
  it.each([
    ["npm test", "`npm test`"],
    ["echo `date`", "`` echo `date` ``"],
    ["`start", "`` `start ``"],
    ["a | b", "`a \\| b`"],
    ["two\nlines", "`two lines`"],
  ])("%j -> %j", (text, expected) => {
    expect(markdownCode(text)).toBe(expected);
  });

  it("keeps any command one code span that shows it as written", () => {
    fc.assert(
      fc.property(tricky, (text) => {
        fc.pre(!/[\r\n\t|]/.test(text) && text.trim() !== "");
        const code = nodesOf(`x ${markdownCode(text, 1000)}`).filter(
          (n) => n.type === "inlineCode",
        );
        expect(code).toHaveLength(1);
        // CommonMark strips one space each side of a span that has both; a backtick at an end is padded for that.
        const shownAs = text.replace(INVISIBLE, "\ufffd");
        const padded = shownAs.startsWith("`") || shownAs.endsWith("`");
        const stripped =
          !padded && shownAs.startsWith(" ") && shownAs.endsWith(" ")
            ? shownAs.slice(1, -1)
            : shownAs;
        expect(code[0]?.value).toBe(stripped);
      }),
      { numRuns: 500 },
    );
  });
});

describe("a table line with agent text", () => {
  it("keeps its cells whatever the text holds", () => {
    fc.assert(
      fc.property(tricky, tricky, (a, b) => {
        const line = `| ${markdownText(a)} | ${markdownCode(b)} | end |`;
        expect(cellsOf(line)).toHaveLength(3);
        expect(cellsOf(line)[2]?.trim()).toBe("end");
      }),
      { numRuns: 500 },
    );
  });
});

describe("fitMarkdown", () => {
  const pieces = [
    { text: "head" },
    { text: "| p1.1 |", subtask: "p1.1" },
    { text: "| p1.2 |", subtask: "p1.2" },
    { text: "| p1.3 |", subtask: "p1.3" },
  ];
  const note = (hidden: number) => `cut: ${hidden} more`;

  it("leaves what fits as it is", () => {
    expect(fitMarkdown(pieces, 100, (t) => t.length, note)).toBe(
      "head\n| p1.1 |\n| p1.2 |\n| p1.3 |",
    );
  });

  it("cuts after the last whole piece that fits, with the note in its own paragraph, within the limit", () => {
    const fitted = fitMarkdown(pieces, 30, (t) => t.length, note);
    expect(fitted).toBe("head\n| p1.1 |\n\ncut: 2 more");
    expect(fitted.length).toBeLessThanOrEqual(30);
  });
});
