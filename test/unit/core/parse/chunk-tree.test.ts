import fc from "fast-check";
import type { RootContent } from "mdast";
import { describe, expect, it } from "vitest";
import {
  decodeChunk,
  encodeChunk,
  type ChunkCache,
} from "../../../../src/core/parse/chunk-tree.ts";
import { parseMarkdown } from "../../../../src/core/parse/markdown.ts";
import { parsePlaybook } from "../../../../src/core/parse/parse-playbook.ts";
import { fragment } from "../../../helpers/markdownish.ts";
import { renderLargePlaybook } from "../../../helpers/large-playbook.ts";
import { readFixture } from "../../../helpers/read-fixture.ts";

const RUNS = Number(process.env["PROPERTY_RUNS"] ?? 300);

/** An in-memory cache that counts what it is asked, as the runtime folder's file would answer. */
function memoryCache() {
  const stored = new Map<string, unknown>();
  const counts = { hits: 0, misses: 0, sets: 0 };
  const cache: ChunkCache = {
    get(text) {
      const value = stored.get(text);
      if (value === undefined) counts.misses += 1;
      else counts.hits += 1;
      // What a file gives back: a copy, never the object that was stored.
      return value === undefined ? undefined : structuredClone(value);
    },
    set(text, value) {
      counts.sets += 1;
      stored.set(text, structuredClone(value));
    },
  };
  return { cache, counts, stored };
}

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** Markdown-like documents whose lines end in any way micromark knows, a lone `\r` included. */
const documents = fc
  .array(fc.tuple(fragment, fc.constantFrom("\n", "\r\n", "\r")), {
    maxLength: 60,
  })
  .map((lines) => lines.map(([line, eol]) => line + eol).join(""));

describe("the chunk cache in the chunked parse", () => {
  it("gives the tree of a parse without it, from an empty cache and from a full one", () => {
    fc.assert(
      fc.property(documents, (text) => {
        const fresh = plain(parseMarkdown(text));
        const { cache, counts } = memoryCache();
        expect(plain(parseMarkdown(text, cache))).toEqual(fresh);
        const stored = counts.sets;
        expect(plain(parseMarkdown(text, cache))).toEqual(fresh);
        // Every chunk stored the first time is read back the second: no shape is left out of the cache.
        expect(counts.sets).toBe(stored);
        expect(stored).toBe(counts.misses);
      }),
      { numRuns: RUNS },
    );
  });

  it("stores every chunk of the 1,000-subtask fixture and reads them all back", () => {
    const text = readFixture("playbooks/large-1000-subtasks.md");
    const { cache, counts } = memoryCache();
    const first = parsePlaybook(text, "p.md", cache);
    expect(counts.sets).toBeGreaterThan(100);
    expect(counts.sets).toBe(counts.misses);
    const sets = counts.sets;
    const again = parsePlaybook(text, "p.md", cache);
    expect(counts.sets).toBe(sets);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(JSON.stringify(again)).toBe(
      JSON.stringify(parsePlaybook(text, "p.md")),
    );
  });

  it("after random edits of a generated playbook, reads exactly as a fresh parse", () => {
    const edit = fc.record({
      at: fc.nat(),
      length: fc.nat({ max: 40 }),
      insert: fc.oneof(
        fragment,
        fragment.map((line) => `\n${line}\n`),
        fc.constantFrom("x", "\n", "\n\n", "- [ ] **p9.9**: new\n", "```\n"),
      ),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(edit, { minLength: 1, maxLength: 5 }),
        (phases, perPhase, edits) => {
          let text = renderLargePlaybook(phases, perPhase);
          const { cache } = memoryCache();
          parsePlaybook(text, "p.md", cache);
          for (const { at, length, insert } of edits) {
            const start = at % (text.length + 1);
            text = text.slice(0, start) + insert + text.slice(start + length);
            const cached = parsePlaybook(text, "p.md", cache);
            expect(JSON.stringify(cached)).toBe(
              JSON.stringify(parsePlaybook(text, "p.md")),
            );
          }
        },
      ),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it("after editing one subtask of the 1,000-subtask fixture, parses that subtask's chunk only", () => {
    const text = readFixture("playbooks/large-1000-subtasks.md");
    const { cache, counts } = memoryCache();
    parsePlaybook(text, "p.md", cache);
    const edited = text.replace(
      "**p25.7**: `src/module-25/part-7.ts`",
      "**p25.7**: `src/module-25/part-7b.ts`",
    );
    expect(edited).not.toBe(text);
    const before = counts.sets;
    const parsed = parsePlaybook(edited, "p.md", cache);
    expect(counts.sets - before).toBe(1);
    expect(JSON.stringify(parsed)).toBe(
      JSON.stringify(parsePlaybook(edited, "p.md")),
    );
  });
});

/** The stored form of the chunks of `text` (one cut per heading), as the parse hands them to the cache. */
function storedChunks(text: string): Map<string, unknown> {
  const { cache, stored } = memoryCache();
  parseMarkdown(text, cache);
  return stored;
}

const SAMPLE = "## phases\n### p1: A\n- [ ] **p1.1**: one\n  - executor: x\n";

describe("decodeChunk", () => {
  it("never throws, whatever it is given", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (stored, text) => {
        decodeChunk(stored, text);
      }),
      { numRuns: RUNS },
    );
  });

  it("reads what encodeChunk wrote, with lines and columns from the text", () => {
    for (const [text, stored] of storedChunks(SAMPLE)) {
      const nodes = decodeChunk(stored, text);
      expect(nodes).not.toBeNull();
      expect(encodeChunk(nodes!, text)).toEqual(stored);
    }
  });

  const [chunkText, chunkStored] = [...storedChunks(SAMPLE)].at(-1)!;
  const node = (chunkStored as unknown[][])[0]!;

  it.each<[string, unknown]>([
    ["not a list", { type: "heading" }],
    ["a node that is not a list", [{ type: "heading" }]],
    ["an unknown type", [["emphasis", 0, 1, []]]],
    ["a prototype key for a type", [["constructor", 0, 1]]],
    ["`__proto__` for a type", [["__proto__", 0, 1]]],
    ["a negative offset", [["thematicBreak", -1, 1]]],
    ["an offset past the text", [["thematicBreak", 0, 10_000]]],
    ["a start after the end", [["thematicBreak", 5, 4]]],
    ["an offset that is not whole", [["thematicBreak", 0.5, 4]]],
    ["an offset as a string", [["thematicBreak", "0", 4]]],
    ["a field of the wrong type", [["heading", 0, 4, "2", []]]],
    ["a heading depth out of range", [["heading", 0, 4, 7, []]]],
    ["a missing field", [["listItem", 0, 4, false, []]]],
    ["an extra field", [["thematicBreak", 0, 4, true]]],
    ["children that are not a list", [["paragraph", 0, 4, "text"]]],
    ["a broken child", [["paragraph", 0, 4, [["text", 0, 4]]]]],
    ["a text that is not the text at its offsets", [["text", 0, 3, "zzz"]]],
    ["the chunk's tree with a forged node", [node, ["yaml", 0, 1, 42]]],
  ])("rejects %s", (_, stored) => {
    expect(decodeChunk(stored, chunkText)).toBeNull();
  });

  it("accepts the chunk's own tree, which reads back as stored", () => {
    const nodes = decodeChunk(chunkStored, chunkText);
    expect(nodes).not.toBeNull();
    expect(encodeChunk(nodes!, chunkText)).toEqual(chunkStored);
  });
});

describe("encodeChunk", () => {
  const [text, stored] = [...storedChunks(SAMPLE)].at(-1)!;
  const nodes = () => decodeChunk(stored, text)!;

  it("does not store a node of an unknown shape", () => {
    const tree = nodes();
    (tree[0] as { data?: unknown }).data = { hName: "x" };
    expect(encodeChunk(tree, text)).toBeNull();
  });

  it("does not store a point whose column is not the one its offset gives", () => {
    const tree = nodes();
    tree[0]!.position!.start.column += 1;
    expect(encodeChunk(tree, text)).toBeNull();
  });

  it("does not store a node type the parse never makes", () => {
    const tree: RootContent[] = [
      {
        type: "inlineCode",
        value: "x",
        position: {
          start: { line: 1, column: 1, offset: 0 },
          end: { line: 1, column: 2, offset: 1 },
        },
      },
    ];
    expect(encodeChunk(tree, "x")).toBeNull();
  });
});
