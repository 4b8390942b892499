import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  setPhaseStatus,
  setReviewed,
  setTaskChecked,
  setValidated,
  setValidation,
} from "../../../../src/core/edit/playbook-writers.ts";
import { setStateField } from "../../../../src/core/edit/state-writers.ts";
import type { EditResult } from "../../../../src/core/edit/text-edit.ts";
import {
  PHASE_STATUSES,
  VALIDATION_NAMES,
  type Playbook,
} from "../../../../src/core/model/playbook.ts";
import {
  parseMarkdown,
  parseMarkdownWhole,
  parseMarkdownWithInlines,
} from "../../../../src/core/parse/markdown.ts";
import { plainText } from "../../../../src/core/parse/sections.ts";
import { parsePlaybook } from "../../../../src/core/parse/parse-playbook.ts";
import { parseState } from "../../../../src/core/parse/parse-state.ts";
import { validatePlaybook } from "../../../../src/core/validate/validate-playbook.ts";
import {
  SAMPLE_PLAYBOOK,
  SAMPLE_STATE,
  singleSplice,
  withoutSpans,
} from "../../../helpers/sample-docs.ts";
import { markdownish } from "../../../helpers/markdownish.ts";

describe("chunked markdown parsing", () => {
  // Counterexamples fast-check found (PROPERTY_RUNS=30000 runs more): a lone tag after a paragraph line is text (an
  // HTML block of kind 7 cannot interrupt a paragraph), so a fence after it is open and the heading below is code;
  // whether a paragraph is open depends on list items and setext underlines.
  it.each([
    ["$\n</pre>\n```yaml\n\n## meta"],
    ["text\n<span>\n~~~\n\n# heading"],
    ["<span>a</span> b\n```\n\n# heading"],
    ["***\n<custom>\n\n# heading"],
    ["para\n<div>\n# inside html\n\n# heading"],
    ["</pre>\n```\n\n# heading"],
    ["</pre>\n## meta"],
    ["$\n===\n</pre>\n## meta"],
    ["  - x\n    ### indented\n</pre>\n## meta"],
    ["- [x] **p1.2**:\n</pre>\n</pre>\n## meta"],
    // A fence opened inside a list item and never closed ends where the item does: at the heading, not at the end
    // of the text before it.
    ["- ```\n## meta"],
    ["- x\n    ```\n# h"],
    ["1. ```\n# h"],
    ["- ~~~\n\n# h"],
    // Cuts between the items of one list: it stays one list, loose if any part of it was.
    ["- a\n\n- b\n- c"],
    ["- a\n- b\n\n  more\n- c\n* d\n- e"],
    ["para\n- \n- x"],
    ["+ a\n  ```\n- b\n```\n# h"],
  ])("regression: %j", (text) => {
    expect(JSON.parse(JSON.stringify(parseMarkdown(text)))).toEqual(
      JSON.parse(JSON.stringify(parseMarkdownWhole(text))),
    );
  });

  it("gives exactly the tree of a whole-document parse", () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        expect(JSON.parse(JSON.stringify(parseMarkdown(text)))).toEqual(
          JSON.parse(JSON.stringify(parseMarkdownWhole(text))),
        );
      }),
      { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 400) },
    );
  });
});

/**
 * A tree as the readers see it: block nodes with their positions, a top-level heading's title as plain text, and no
 * inline nodes anywhere else (the readers take those values from the source).
 */
function blockView(node: unknown, topLevel: boolean): unknown {
  const n = node as {
    type: string;
    children?: unknown[];
    position?: unknown;
    checked?: unknown;
    value?: unknown;
    depth?: unknown;
    lang?: unknown;
  };
  const inline = new Set(["paragraph", "heading", "tableCell"]);
  if (n.type === "heading" && topLevel)
    return {
      type: n.type,
      depth: n.depth,
      title: plainText(n),
      at: n.position,
    };
  // A task item's paragraph starts after its box when its first inline is longer text (mdast-util-gfm-task-list-item
  // moves it), and at the box otherwise: the readers take the box from the item's line and accept both.
  if (inline.has(n.type)) {
    const at = n.position as { start: { line: number }; end: unknown };
    return { type: n.type, line: at.start.line, end: at.end };
  }
  return {
    type: n.type,
    at: n.position,
    checked: n.checked,
    depth: n.depth,
    lang: n.lang,
    value: n.children ? undefined : n.value,
    children: n.children?.map((c) => blockView(c, n.type === "root")),
  };
}

describe("markdown without inline constructs", () => {
  it.each([
    ["### p1: Use `StorageV2` & *not* \\*v1\\*\n- [ ] **p1.1**: x"],
    ["## [meta](#m) &amp; more\n\ntext *a* `b`\n"],
    ["Title with <b>tag</b>\n===\n\n- [x] **p2.1** `[ ]` inside"],
    ["   ## indented _title_\n"],
    ["- item\n\n  ## nested `heading`\n"],
    ["## final_tasks\n- [ ] **f1**: x\n"],
    ["## one *star, one _line, one `tick & < [ !\n"],
    ["## a_b_c *d* &amp; `e` <f> ![g] \\_h\n"],
    ["## &#x41;; <http://x.y> [l] __s__\n"],
  ])("reads blocks and top-level titles as the full parse does: %j", (text) => {
    expect(blockView(parseMarkdown(text), false)).toEqual(
      blockView(parseMarkdownWithInlines(text), false),
    );
  });

  it("reads every generated document's blocks and titles as the full parse does", () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        expect(blockView(parseMarkdown(text), false)).toEqual(
          blockView(parseMarkdownWithInlines(text), false),
        );
      }),
      { numRuns: Number(process.env["PROPERTY_RUNS"] ?? 400) },
    );
  });
});

describe("parsers never throw", () => {
  it("on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (text) => {
        parseState(text, "state.md");
        const parsed = parsePlaybook(text, "p.md");
        validatePlaybook(parsed.value, "p.md");
      }),
      { numRuns: 300 },
    );
  });

  it("on markdown-like documents, and every diagnostic points inside the file", () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        const lines = text.split("\n").length;
        const state = parseState(text, "state.md");
        const parsed = parsePlaybook(text, "p.md");
        for (const d of [
          ...state.diagnostics,
          ...parsed.diagnostics,
          ...validatePlaybook(parsed.value, "p.md"),
        ]) {
          expect(d.line).toBeGreaterThanOrEqual(1);
          expect(d.line).toBeLessThanOrEqual(lines);
          expect(d.column).toBeGreaterThanOrEqual(1);
          expect(d.message).toMatch(/^Unexpected /);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("lint is deterministic", () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        const once = parsePlaybook(text, "p.md");
        const twice = parsePlaybook(text, "p.md");
        expect(JSON.stringify(twice)).toBe(JSON.stringify(once));
        expect(validatePlaybook(twice.value, "p.md")).toEqual(
          validatePlaybook(once.value, "p.md"),
        );
      }),
      { numRuns: 100 },
    );
  });
});

const base = parsePlaybook(SAMPLE_PLAYBOOK, "p.md").value;
const subtaskIds = base.phases.flatMap((p) => p.subtasks.map((s) => s.id));
const phaseIds = base.phases.map((p) => p.id);

interface Op {
  name: string;
  edit: (text: string) => EditResult;
  expect: (ast: Playbook) => void;
}

const findSubtask = (ast: Playbook, id: string) =>
  ast.phases.flatMap((p) => p.subtasks).find((s) => s.id === id)!;

const op: fc.Arbitrary<Op> = fc.oneof(
  fc
    .tuple(fc.constantFrom(...subtaskIds, "ft1"), fc.boolean())
    .map(([id, checked]) => ({
      name: `check ${id}=${checked}`,
      edit: (t: string) => setTaskChecked(t, id, checked),
      expect: (ast: Playbook) => {
        const task =
          id === "ft1"
            ? ast.finalTasks.find((f) => f.id === id)!
            : findSubtask(ast, id);
        task.checked = checked;
      },
    })),
  fc
    .tuple(
      fc.constantFrom(...subtaskIds),
      fc.constantFrom(...VALIDATION_NAMES),
      fc.constantFrom("PASS", "FAIL", null),
    )
    .map(([id, name, result]) => ({
      name: `validation ${id}.${name}=${result}`,
      edit: (t: string) => setValidation(t, id, name, { result }),
      expect: (ast: Playbook) => {
        findSubtask(ast, id).validations[name]!.result = result;
      },
    })),
  fc
    .tuple(fc.constantFrom(...phaseIds), fc.constantFrom(...PHASE_STATUSES))
    .map(([id, status]) => ({
      name: `status ${id}=${status}`,
      edit: (t: string) => setPhaseStatus(t, id, status),
      expect: (ast: Playbook) => {
        const phase = ast.phases.find((p) => p.id === id)!;
        phase.status = status;
        phase.labels["status"]!.value = status;
      },
    })),
  fc.boolean().map((reviewed) => ({
    name: `reviewed=${reviewed}`,
    edit: (t: string) => setReviewed(t, reviewed),
    expect: (ast: Playbook) => {
      ast.meta.reviewed = reviewed;
    },
  })),
  fc
    .tuple(
      fc.constantFrom(...subtaskIds),
      fc.date({
        min: new Date("2020-01-01"),
        max: new Date("2030-01-01"),
        noInvalidDate: true,
      }),
    )
    .map(([id, date]) => ({
      name: `validated ${id}`,
      edit: (t: string) => setValidated(t, id, date.toISOString()),
      expect: (ast: Playbook) => {
        findSubtask(ast, id).validated = date.toISOString();
      },
    })),
);

describe("surgical writes", () => {
  it("re-parse to the expected AST and change one small region only", () => {
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (ops, crlf) => {
          let text = crlf
            ? SAMPLE_PLAYBOOK.replace(/\n/g, "\r\n")
            : SAMPLE_PLAYBOOK;
          const expected = structuredClone(parsePlaybook(text, "p.md").value);
          for (const step of ops) {
            const result = step.edit(text);
            if (!result.ok) throw new Error(`${step.name}: ${result.reason}`);
            const splice = singleSplice(text, result.text);
            expect(splice.removed.length + splice.inserted.length).toBeLessThan(
              80,
            );
            if (crlf)
              expect(result.text.replace(/\r\n/g, "").includes("\n")).toBe(
                false,
              );
            text = result.text;
            step.expect(expected);
          }
          const reparsed = parsePlaybook(text, "p.md");
          expect(reparsed.diagnostics).toEqual([]);
          expect(withoutSpans(reparsed.value)).toEqual(withoutSpans(expected));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("state fields read back any string exactly; the change stays on the field's line", () => {
    const keys = [
      ["playbook", "branch", "branch"],
      ["playbook", "last_archived", "lastArchived"],
      ["goal", "milestone", "milestone"],
      ["session", "last_end", "lastEnd"],
    ] as const;
    const before = parseState(SAMPLE_STATE, "state.md").value;
    fc.assert(
      fc.property(
        fc.constantFrom(...keys),
        fc.string({ unit: "binary", minLength: 1, maxLength: 40 }),
        ([section, key, field], value) => {
          fc.pre(value.trim() !== "");
          const result = setStateField(SAMPLE_STATE, section, key, value);
          if (!result.ok) throw new Error(result.reason);
          const after = parseState(result.text, "state.md");
          expect(after.diagnostics).toEqual([]);
          const expected = structuredClone(before) as unknown as Record<
            string,
            Record<string, unknown>
          >;
          expected[section]![field] = value;
          expect(withoutSpans(after.value)).toEqual(withoutSpans(expected));
          const splice = singleSplice(SAMPLE_STATE, result.text);
          const line = SAMPLE_STATE.slice(0, splice.at).split("\n").length;
          expect(SAMPLE_STATE.split("\n")[line - 1]).toMatch(
            new RegExp(`^${key}:`),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
