import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openChunkCache } from "../../src/adapters/lint-cache.ts";
import { runLint } from "../../src/app/lint/lint.ts";
import { summarizeWithConfig } from "../../src/app/workspace/summarize-with-config.ts";
import { parsePlaybook } from "../../src/core/parse/parse-playbook.ts";
import { parseState } from "../../src/core/parse/parse-state.ts";
import { summarizeDocument } from "../../src/core/parse/summarize-document.ts";
import { validatePlaybook } from "../../src/core/validate/validate-playbook.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../helpers/sample-docs.ts";
import { markdownish } from "../helpers/markdownish.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-login-form.md";
const ENTRY = ".claude/playbook/cache/lint/plan__playbook-login-form.md.json";
const STATE_ENTRY = ".claude/playbook/cache/lint/state.md.json";
const FIXTURES = join(import.meta.dirname, "..", "fixtures", "playbooks");

function project() {
  return createTempProject({
    "state.md": SAMPLE_STATE,
    [PLAYBOOK]: SAMPLE_PLAYBOOK,
  });
}

const codes = (report: ReturnType<typeof runLint>) =>
  report.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`);

describe("the lint cache", () => {
  // The cache stores a playbook's parse as JSON: whatever JSON cannot carry would come back different.
  it.each(readdirSync(FIXTURES).filter((f) => f.endsWith(".md")))(
    "%s: the parse and diagnostics survive the round trip through JSON unchanged",
    (name) => {
      const text = readFileSync(join(FIXTURES, name), "utf8");
      const parsed = parsePlaybook(text, name);
      const result = {
        playbook: parsed.value,
        diagnostics: [
          ...parsed.diagnostics,
          ...validatePlaybook(parsed.value, name, {}),
        ],
      };
      expect(JSON.parse(JSON.stringify(result))).toStrictEqual(result);
    },
  );

  const STATES = join(import.meta.dirname, "..", "fixtures", "state");
  it.each(readdirSync(STATES).filter((f) => f.endsWith(".md")))(
    "state/%s: the parse survives the round trip through JSON unchanged",
    (name) => {
      const parsed = parseState(readFileSync(join(STATES, name), "utf8"), name);
      expect(JSON.parse(JSON.stringify(parsed))).toStrictEqual(parsed);
    },
  );

  it("any state.md's parse survives the round trip through JSON unchanged", () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        const parsed = parseState(text, "state.md");
        expect(JSON.parse(JSON.stringify(parsed))).toStrictEqual(parsed);
      }),
      { numRuns: 200 },
    );
  });

  it("never answers a changed state.md from the cache", () => {
    const p = project();
    const before = runLint(p.dir);
    expect(() => p.read(STATE_ENTRY)).not.toThrow();
    p.write(
      "state.md",
      SAMPLE_STATE.replace(/^branch: .*$/m, "branch: [broken"),
    );
    const after = runLint(p.dir);
    expect(after.state?.state.playbook.branch).not.toBe(
      before.state?.state.playbook.branch,
    );
    rmSync(p.path(".claude"), { recursive: true });
    expect(runLint(p.dir)).toStrictEqual(after);
  });

  it("answers an unchanged playbook from the cache with the same report", () => {
    const p = project();
    const first = runLint(p.dir);
    expect(() => p.read(ENTRY)).not.toThrow();
    const second = runLint(p.dir);
    expect(second).toStrictEqual(first);
  });

  it("never answers a changed playbook from the cache", () => {
    const p = project();
    const before = runLint(p.dir);
    p.write(
      PLAYBOOK,
      SAMPLE_PLAYBOOK.replace(/\*\*p1\.1\*\*/, "**p1.9.9.bad**"),
    );
    const after = runLint(p.dir);
    expect(codes(after)).not.toEqual(codes(before));
    expect(after.active?.playbook.phases[0]?.subtasks[0]?.id).toBe(
      "p1.9.9.bad",
    );
  });

  it("lints again when the lint options change", () => {
    const p = project();
    expect(codes(runLint(p.dir))).toEqual([]);
    p.write(
      ".claude/playbook.json",
      JSON.stringify({ lint: { bannedPhrases: ["exports"] } }),
    );
    expect(
      runLint(p.dir).diagnostics.map((d) => `${d.file} ${d.code}`),
    ).toContain(`${PLAYBOOK} criterion-vague`);
  });

  it("rebuilds a corrupt entry, and one stored for other text, instead of trusting it", () => {
    const p = project();
    const truth = runLint(p.dir);
    p.write(ENTRY, "{ not json");
    expect(runLint(p.dir)).toStrictEqual(truth);
    const [keyLine = "", resultLine = ""] = p.read(ENTRY).split("\n");
    const key = JSON.parse(keyLine) as { text: string };
    const result = JSON.parse(resultLine) as {
      playbook: { phases: { subtasks: { id: string }[] }[] };
    };
    result.playbook.phases[0]!.subtasks[0]!.id = "forged";
    // Trusted under its own key: the forgery the next entry must not pass.
    p.write(ENTRY, `${keyLine}\n${JSON.stringify(result)}`);
    expect(runLint(p.dir).active?.playbook.phases[0]?.subtasks[0]?.id).toBe(
      "forged",
    );
    key.text = "0".repeat(64);
    p.write(ENTRY, `${JSON.stringify(key)}\n${JSON.stringify(result)}`);
    expect(runLint(p.dir)).toStrictEqual(truth);
    p.write(ENTRY, `${keyLine}\nnull`);
    expect(runLint(p.dir)).toStrictEqual(truth);
    p.write(ENTRY, keyLine);
    expect(runLint(p.dir)).toStrictEqual(truth);
  });
});

const CHUNKS =
  ".claude/playbook/cache/chunks/plan__playbook-login-form.md.json";

/** How the parser keys a yaml block's reading in the chunk cache (core/parse/yaml-block-cache.ts). */
const isYamlKey = (text: string) => text.startsWith("\u0000yaml-block/");

/**
 * Parses the project's playbook through its chunk cache, as `runLint` does on a miss; counts the markdown chunks
 * and the yaml blocks parsed.
 */
function parseWithChunks(p: ReturnType<typeof project>) {
  const chunks = openChunkCache(p.dir, PLAYBOOK);
  let parsed = 0;
  let yamlParsed = 0;
  let yamlMissed = 0;
  const result = parsePlaybook(p.read(PLAYBOOK), PLAYBOOK, {
    get: (text) => {
      const stored = chunks.get(text);
      if (isYamlKey(text) && stored === undefined) yamlMissed += 1;
      return stored;
    },
    set: (text, value) => {
      if (isYamlKey(text)) yamlParsed += 1;
      else parsed += 1;
      chunks.set(text, value);
    },
  });
  chunks.save();
  return { result, parsed, yamlParsed, yamlMissed };
}

describe("the chunk cache", () => {
  it("after an edit, parses only the chunk the edit touched and reads as a fresh parse", () => {
    const p = project();
    const first = parseWithChunks(p);
    expect(first.parsed).toBeGreaterThan(3);
    expect(parseWithChunks(p).parsed).toBe(0);
    p.write(PLAYBOOK, SAMPLE_PLAYBOOK.replace("LoginForm", "LoginPanel"));
    const edited = parseWithChunks(p);
    expect(edited.parsed).toBe(1);
    expect(JSON.stringify(edited.result)).toBe(
      JSON.stringify(parsePlaybook(p.read(PLAYBOOK), PLAYBOOK)),
    );
  });

  it("keeps only the chunks of the last parse", () => {
    const p = project();
    parseWithChunks(p);
    const count = () => p.read(CHUNKS).trimEnd().split("\n").length - 1;
    const before = count();
    for (const name of ["A", "B", "C"]) {
      p.write(PLAYBOOK, SAMPLE_PLAYBOOK.replace("LoginForm", `Login${name}`));
      parseWithChunks(p);
    }
    expect(count()).toBe(before);
  });

  it("runLint fills it on a miss, and a lint after an edit reads as a fresh lint", () => {
    const p = project();
    runLint(p.dir);
    expect(() => p.read(CHUNKS)).not.toThrow();
    p.write(PLAYBOOK, SAMPLE_PLAYBOOK.replace("LoginForm", "LoginPanel"));
    const cached = runLint(p.dir);
    rmSync(p.path(".claude"), { recursive: true });
    expect(cached).toStrictEqual(runLint(p.dir));
  });

  it("the hook's summarizer fills it and gives the summary of a fresh parse", () => {
    const p = project();
    const summarize = summarizeWithConfig(p.dir);
    const text = p.read(PLAYBOOK);
    const first = summarize("playbook", text, PLAYBOOK);
    expect(() => p.read(CHUNKS)).not.toThrow();
    expect(summarize("playbook", text, PLAYBOOK)).toStrictEqual(first);
    expect(first).toStrictEqual(summarizeDocument("playbook", text, PLAYBOOK));
  });

  /** A chunk line's key part (`<length> <key> `) and its tree. */
  const splitLine = (line: string): [string, string] => {
    const space = line.indexOf(" ");
    const end = space + 1 + Number(line.slice(0, space)) + 1;
    return [line.slice(0, end), line.slice(end)];
  };
  /** Replaces the tree stored for every chunk with `forge(tree)`, under the same keys; or the parser build. */
  const forgeEach = (
    p: ReturnType<typeof project>,
    forge: (tree: unknown) => unknown,
    version?: string,
  ) => {
    const [head, ...lines] = p.read(CHUNKS).trimEnd().split("\n");
    const forged = lines.map((line) => {
      const [key, tree] = splitLine(line);
      return `${key}${JSON.stringify(forge(JSON.parse(tree)))}`;
    });
    const first =
      version === undefined ? head : JSON.stringify([version, "text-keys"]);
    p.write(CHUNKS, `${[first, ...forged].join("\n")}\n`);
  };
  const truth = () => JSON.stringify(parsePlaybook(SAMPLE_PLAYBOOK, PLAYBOOK));
  /** The stored tree with every task box flipped: well-formed, and read as the other box if it were trusted. */
  const flipped = (tree: unknown): unknown => {
    if (!Array.isArray(tree)) return tree;
    const node = (tree as unknown[]).map(flipped);
    if (node[0] === "listItem" && typeof node[4] === "boolean")
      node[4] = !node[4];
    return node;
  };

  it("would read a flipped tree as flipped boxes: the forgery the cases below must catch", () => {
    const p = project();
    parseWithChunks(p);
    forgeEach(p, flipped);
    expect(JSON.stringify(parseWithChunks(p).result)).not.toBe(truth());
  });

  it.each<[string, (p: ReturnType<typeof project>) => void]>([
    ["a file that is not ours", (p) => p.write(CHUNKS, "{ not json")],
    ["an empty file", (p) => p.write(CHUNKS, "")],
    ["a file cut short", (p) => p.write(CHUNKS, p.read(CHUNKS).slice(0, -40))],
    [
      "lines that are not a key and a tree",
      (p) =>
        p.write(
          CHUNKS,
          p
            .read(CHUNKS)
            .replace(/\n(\d+) /, "\nzz ")
            .replace(/\n(\d+) /, (_, n: string) => `\n${Number(n) + 1} `)
            .replace(/\n(\d+) /, (_, n: string) => `\n${Number(n) - 1} `),
        ),
    ],
    [
      "lines of the format before, keyed by a hash of the text",
      (p) =>
        p.write(
          CHUNKS,
          p
            .read(CHUNKS)
            .split("\n")
            .map((line, i) =>
              i === 0 || line === ""
                ? line
                : `${"0".repeat(64)} ${splitLine(line)[1]}`,
            )
            .join("\n"),
        ),
    ],
    [
      "an entry of another parser build",
      (p) => forgeEach(p, flipped, "0.0.0+another"),
    ],
    ["empty trees", (p) => forgeEach(p, () => [])],
    ["trees that are not trees", (p) => forgeEach(p, () => ({ a: 1 }))],
    [
      "trees with a prototype key for a type",
      (p) => forgeEach(p, () => [["constructor", 0, 1]]),
    ],
    [
      "trees with offsets past the chunk",
      (p) => forgeEach(p, () => [["thematicBreak", 0, 1e9]]),
    ],
    [
      "trees whose texts are not the chunk's",
      (p) =>
        forgeEach(p, (tree) =>
          JSON.parse(
            JSON.stringify(flipped(tree)).replace(
              /"text",(\d+),(\d+),"[^"]/g,
              '"text",$1,$2,"#',
            ),
          ),
        ),
    ],
  ])(
    "ignores %s: the parse reads as a fresh one and does not throw",
    (_, spoil) => {
      const p = project();
      parseWithChunks(p);
      spoil(p);
      const again = parseWithChunks(p);
      expect(JSON.stringify(again.result)).toBe(truth());
      expect(again.parsed + again.yamlParsed).toBeGreaterThan(0);
      // The spoilt file is replaced by a good one.
      const third = parseWithChunks(p);
      expect([third.parsed, third.yamlParsed]).toEqual([0, 0]);
    },
  );

  it("keeps the meta and goal blocks' readings: a parse after an edit elsewhere runs no yaml parse and reads as a fresh one", () => {
    const p = project();
    expect(parseWithChunks(p).yamlParsed).toBe(2);
    p.write(
      PLAYBOOK,
      SAMPLE_PLAYBOOK.replace("## context\n", "## context\nWhen: now.\n"),
    );
    const edited = parseWithChunks(p);
    expect(edited).toMatchObject({ parsed: 1, yamlParsed: 0 });
    expect(JSON.stringify(edited.result)).toBe(
      JSON.stringify(parsePlaybook(p.read(PLAYBOOK), PLAYBOOK)),
    );
    p.write(
      PLAYBOOK,
      p.read(PLAYBOOK).replace("reviewed: false", "reviewed: true"),
    );
    const reviewed = parseWithChunks(p);
    expect(reviewed.yamlParsed).toBe(1);
    expect(reviewed.result.value.meta.reviewed).toBe(true);
  });

  /** Replaces every stored yaml reading with `forge(reading)`, under the same keys. */
  const forgeYaml = (
    p: ReturnType<typeof project>,
    forge: (reading: unknown[]) => unknown,
  ) => {
    const [head, ...lines] = p.read(CHUNKS).trimEnd().split("\n");
    const forged = lines.map((line) => {
      const [key, stored] = splitLine(line);
      const text = JSON.parse(key.slice(key.indexOf(" ") + 1, -1)) as string;
      return isYamlKey(text)
        ? `${key}${JSON.stringify(forge(JSON.parse(stored) as unknown[]))}`
        : line;
    });
    p.write(CHUNKS, `${[head, ...forged].join("\n")}\n`);
  };

  it.each<[string, (reading: unknown[]) => unknown]>([
    ["of another format", (r) => ["yaml-block/0", ...r.slice(1)]],
    ["cut short", (r) => r.slice(0, 4)],
    [
      "with a range past the block",
      (r) => [...r.slice(0, 2), { project: [0, 1e6] }, ...r.slice(3)],
    ],
    [
      "with a range that ends before it starts",
      (r) => [...r.slice(0, 3), { project: [5, 2] }, r[4]],
    ],
    [
      "with a value that is not a mapping of ranges",
      (r) => [...r.slice(0, 4), []],
    ],
    [
      "with a __proto__ key",
      (r) => [
        r[0],
        JSON.parse('{"__proto__": {"reviewed": true}}') as unknown,
        ...r.slice(2),
      ],
    ],
  ])("ignores a yaml reading %s: the block is parsed again", (_, forge) => {
    const p = project();
    parseWithChunks(p);
    forgeYaml(p, forge);
    const again = parseWithChunks(p);
    expect(again.yamlParsed).toBe(2);
    expect(JSON.stringify(again.result)).toBe(truth());
  });

  it.each([
    ["a value YAML reads as NaN", "limit: .nan"],
    ["an infinite number", "limit: -.inf"],
    ["negative zero", "limit: -0"],
  ])(
    "does not keep a reading JSON cannot hold (%s): every parse reads it fresh",
    (_, line) => {
      const p = project();
      const text = SAMPLE_PLAYBOOK.replace(
        "reviewed: false",
        `reviewed: false\n${line}`,
      );
      p.write(PLAYBOOK, text);
      expect(parseWithChunks(p)).toMatchObject({
        yamlParsed: 1,
        yamlMissed: 2,
      });
      const again = parseWithChunks(p);
      // The goal block comes from the cache; meta is parsed again every time.
      expect(again).toMatchObject({ yamlParsed: 0, yamlMissed: 1 });
      expect(again.result).toStrictEqual(parsePlaybook(text, PLAYBOOK));
    },
  );

  it("does not throw when its folder cannot be written or its file is a folder", () => {
    const p = project();
    p.write(".claude/playbook/cache/chunks", "a file where the folder goes");
    expect(JSON.stringify(parseWithChunks(p).result)).toBe(truth());
    const q = project();
    mkdirSync(q.path(CHUNKS), { recursive: true });
    expect(JSON.stringify(parseWithChunks(q).result)).toBe(truth());
    expect(statSync(q.path(CHUNKS)).isDirectory()).toBe(true);
  });
});
