import { parseEntry } from "../../src/adapters/summary-entry-file.ts";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { describe, expect, it } from "vitest";
import {
  readSummaryCached,
  type Summarize,
} from "../../src/adapters/parse-cache.ts";
import { readWorkspaceSummary } from "../../src/app/workspace/read-workspace-summary.ts";
import { summarizeWithConfig } from "../../src/app/workspace/summarize-with-config.ts";
import {
  PARSER_VERSION,
  type CacheEntry,
} from "../../src/core/cache/summary.ts";
import { summarizeDocument } from "../../src/core/parse/summarize-document.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../helpers/sample-docs.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-login-form.md";
const PLAYBOOK_CACHE =
  ".claude/playbook/cache/plan__playbook-login-form.md.json";
const STATE_CACHE = ".claude/playbook/cache/state.md.json";

/** The real parser, recording which files it was asked to parse. */
function countingParser(inner: Summarize = summarizeDocument): {
  summarize: Summarize;
  parsed: string[];
} {
  const parsed: string[] = [];
  const summarize: Summarize = (kind, text, file) => {
    parsed.push(file);
    return inner(kind, text, file);
  };
  return { summarize, parsed };
}

function project() {
  return createTempProject({
    "state.md": SAMPLE_STATE,
    [PLAYBOOK]: SAMPLE_PLAYBOOK,
  });
}

/** An entry as the hook reads it (its subtasks parsed on first use), and plain JSON to a reader that wants all. */
function readEntry(p: ReturnType<typeof project>, rel: string): CacheEntry {
  const text = p.read(rel);
  expect(JSON.parse(text)).toBeTypeOf("object");
  return parseEntry(Buffer.from(text)) as CacheEntry;
}

describe("readSummaryCached", () => {
  it("parses on the first read and stores the entry under the path with / replaced by __", () => {
    const p = project();
    const { summarize, parsed } = countingParser();

    const read = readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize);

    expect(read.status).toBe("miss");
    expect(parsed).toEqual([PLAYBOOK]);
    const expected = summarizeDocument("playbook", SAMPLE_PLAYBOOK, PLAYBOOK);
    expect(read).toEqual({ status: "miss", summary: expected });
    const stats = statSync(p.path(PLAYBOOK));
    expect(readEntry(p, PLAYBOOK_CACHE)).toEqual({
      path: PLAYBOOK,
      kind: "playbook",
      mtimeMs: stats.mtimeMs,
      ctimeMs: stats.ctimeMs,
      size: stats.size,
      config: "none",
      version: PARSER_VERSION,
      summary: expected,
    });
  });

  it("answers the second read from the cache without parsing", () => {
    const p = project();
    const { summarize, parsed } = countingParser();
    const first = readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize);

    const second = readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize);

    expect(second.status).toBe("hit");
    expect(parsed).toEqual([PLAYBOOK]);
    expect(second.status !== "missing" && second.summary).toEqual(
      first.status !== "missing" && first.summary,
    );
  });

  it("reads an entry again when it was rewritten since this process read it", () => {
    const p = project();
    const { summarize } = countingParser();
    readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize);
    const entry = readEntry(p, PLAYBOOK_CACHE);
    const summary = entry.summary as { meta: { project: string } };
    summary.meta.project = "rewritten by another hook call";
    p.write(PLAYBOOK_CACHE, JSON.stringify(entry));

    const again = readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize);

    expect(again.status).toBe("hit");
    expect(
      again.status !== "missing" &&
        (again.summary as { meta: { project: string } }).meta.project,
    ).toBe("rewritten by another hook call");
  });

  it("parses again after the file changes", () => {
    const p = project();
    const { summarize, parsed } = countingParser();
    readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize);
    const changed = SAMPLE_PLAYBOOK.replace(
      "- [ ] **ft1**",
      "- [x] **ft1**",
    ).concat("- [ ] **ft2**: the README shows the login form\n");
    p.write(PLAYBOOK, changed);

    const read = readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize);

    expect(read).toEqual({
      status: "miss",
      summary: summarizeDocument("playbook", changed, PLAYBOOK),
    });
    expect(parsed).toEqual([PLAYBOOK, PLAYBOOK]);
    expect(readEntry(p, PLAYBOOK_CACHE).summary).toMatchObject({
      finalTasks: [
        { id: "ft1", checked: true },
        { id: "ft2", checked: false },
      ],
    });
  });

  it("parses again when only the modification time changes", () => {
    const p = project();
    const { summarize, parsed } = countingParser();
    readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize);
    const mtime = statSync(p.path(PLAYBOOK)).mtime;
    utimesSync(p.path(PLAYBOOK), mtime, new Date(mtime.getTime() - 60_000));

    const read = readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize);

    expect(read.status).toBe("miss");
    expect(parsed).toEqual([PLAYBOOK, PLAYBOOK]);
    expect(readEntry(p, PLAYBOOK_CACHE).mtimeMs).toBe(
      statSync(p.path(PLAYBOOK)).mtimeMs,
    );
  });

  type Corrupt = (entry: CacheEntry) => string;
  const poisoned = (entry: CacheEntry, change: Record<string, unknown>) =>
    JSON.stringify({
      ...entry,
      summary: {
        ...entry.summary,
        goal: { summary: "POISONED", doneWhen: [] },
      },
      ...change,
    });

  it.each<[string, Corrupt]>([
    ["garbage", () => "\u0000\u0001 not json at all"],
    ["truncated JSON", (entry) => JSON.stringify(entry).slice(0, 200)],
    ["an empty file", () => ""],
    ["JSON null", () => "null"],
    ["a JSON array", () => "[]"],
    ["a JSON string", () => '"summary"'],
    ["an empty object", () => "{}"],
    ["another parser version", (e) => poisoned(e, { version: "0.0.0+old" })],
    ["another path", (e) => poisoned(e, { path: "plan/playbook-other.md" })],
    ["another kind", (e) => poisoned(e, { kind: "state" })],
    ["another size", (e) => poisoned(e, { size: e.size + 1 })],
    ["another mtime", (e) => poisoned(e, { mtimeMs: e.mtimeMs - 1 })],
    ["another ctime", (e) => poisoned(e, { ctimeMs: e.ctimeMs + 1 })],
    ["another lint configuration", (e) => poisoned(e, { config: "1:1:1" })],
    ["a string mtime", (e) => poisoned(e, { mtimeMs: String(e.mtimeMs) })],
    ["no summary", (e) => JSON.stringify({ ...e, summary: undefined })],
    ["a null summary", (e) => JSON.stringify({ ...e, summary: null })],
    [
      "a summary of another kind",
      (e) => poisoned(e, { summary: { ...e.summary, kind: "state" } }),
    ],
  ])("rebuilds a cache entry holding %s", (_name, corrupt) => {
    const p = project();
    const { summarize, parsed } = countingParser();
    readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize);
    p.write(PLAYBOOK_CACHE, corrupt(readEntry(p, PLAYBOOK_CACHE)));

    const read = readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize);

    expect(read).toEqual({
      status: "miss",
      summary: summarizeDocument("playbook", SAMPLE_PLAYBOOK, PLAYBOOK),
    });
    expect(parsed).toEqual([PLAYBOOK, PLAYBOOK]);
    expect(
      readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize).status,
    ).toBe("hit");
  });

  it.each<[string, (p: ReturnType<typeof project>) => void]>([
    ["is absent", () => undefined],
    ["is a directory", (p) => mkdirSync(p.path("plan/playbook-gone.md"))],
  ])("returns missing when the document %s", (_name, arrange) => {
    const p = project();
    arrange(p);
    const { summarize, parsed } = countingParser();

    const read = readSummaryCached(
      p.dir,
      "plan/playbook-gone.md",
      "playbook",
      summarize,
    );

    expect(read).toEqual({ status: "missing" });
    expect(parsed).toEqual([]);
    expect(
      existsSync(p.path(".claude/playbook/cache/plan__playbook-gone.md.json")),
    ).toBe(false);
  });

  it("still answers correctly when the cache directory cannot be created", () => {
    // A file where the cache directory belongs stops every user, root included (chmod does not stop root).
    const p = project();
    mkdirSync(p.path(".claude/playbook"), { recursive: true });
    writeFileSync(p.path(".claude/playbook/cache"), "not a directory");
    const { summarize, parsed } = countingParser();
    const expected = summarizeDocument("playbook", SAMPLE_PLAYBOOK, PLAYBOOK);

    const first = readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize);
    const second = readSummaryCached(p.dir, PLAYBOOK, "playbook", summarize);

    expect(first).toEqual({ status: "miss", summary: expected });
    expect(second).toEqual({ status: "miss", summary: expected });
    expect(parsed).toEqual([PLAYBOOK, PLAYBOOK]);
    expect(p.read(".claude/playbook/cache")).toBe("not a directory");
  });
});

describe("readWorkspaceSummary", () => {
  it("parses state.md and the active playbook once, then answers from the cache", () => {
    const p = project();
    const { summarize, parsed } = countingParser();

    const first = readWorkspaceSummary(p.dir, summarize);
    const second = readWorkspaceSummary(p.dir, summarize);

    expect(first).toMatchObject({ cacheHits: 0, cacheMisses: 2 });
    expect(second).toMatchObject({ cacheHits: 2, cacheMisses: 0 });
    expect(parsed).toEqual(["state.md", PLAYBOOK]);
    expect(second.state).toEqual(first.state);
    expect(second.active).toEqual({
      path: PLAYBOOK,
      summary: summarizeDocument("playbook", SAMPLE_PLAYBOOK, PLAYBOOK),
    });
    expect(existsSync(p.path(STATE_CACHE))).toBe(true);
    expect(existsSync(p.path(PLAYBOOK_CACHE))).toBe(true);
  });

  it("follows a change of the active playbook in state.md", () => {
    const p = project();
    const { summarize } = countingParser();
    readWorkspaceSummary(p.dir, summarize);
    p.write(
      "plan/playbook-signup.md",
      SAMPLE_PLAYBOOK.replace("login-form", "signup"),
    );
    p.write(
      "state.md",
      SAMPLE_STATE.replace(PLAYBOOK, "./plan/playbook-signup.md"),
    );

    const read = readWorkspaceSummary(p.dir, summarize);

    expect(read.active?.path).toBe("plan/playbook-signup.md");
    expect(read.active?.summary).toMatchObject({ meta: { project: "signup" } });
  });

  it("returns no state and reads nothing more when state.md is missing", () => {
    const p = createTempProject({ [PLAYBOOK]: SAMPLE_PLAYBOOK });
    const { summarize, parsed } = countingParser();

    expect(readWorkspaceSummary(p.dir, summarize)).toEqual({
      state: null,
      active: null,
      cacheHits: 0,
      cacheMisses: 0,
    });
    expect(parsed).toEqual([]);
  });

  it.each<[string, (outside: string) => string]>([
    ["an absolute path", (outside) => outside],
    ["a path leaving the repository", () => "../outside.md"],
    ["a path leaving plan/ with ..", () => "plan/../../outside.md"],
    ["a path outside plan/", () => "notes/playbook-x.md"],
    [
      "a backslash path leaving the repository",
      () => "plan\\..\\..\\outside.md",
    ],
  ])("never follows an active playbook at %s", (_name, active) => {
    const root = createTempProject({
      "outside.md": SAMPLE_PLAYBOOK,
      "repo/notes/playbook-x.md": SAMPLE_PLAYBOOK,
      [`repo/${PLAYBOOK}`]: SAMPLE_PLAYBOOK,
    });
    root.write(
      "repo/state.md",
      SAMPLE_STATE.replace(
        `active: ${PLAYBOOK}`,
        `active: '${active(root.path("outside.md"))}'`,
      ),
    );
    const { summarize, parsed } = countingParser();

    const read = readWorkspaceSummary(root.path("repo"), summarize);

    expect(read.state?.playbook.active).toBe(active(root.path("outside.md")));
    expect(read.active).toBeNull();
    expect(parsed).toEqual(["state.md"]);
    expect(readdirSync(root.path("repo/.claude/playbook/cache"))).toEqual([
      "state.md.json",
    ]);
  });
});

describe("the lint configuration and the cache", () => {
  it("summarizes with .claude/playbook.json and rebuilds when it changes", () => {
    const p = project();
    p.write(
      ".claude/playbook.json",
      JSON.stringify({ lint: { bannedPhrases: ["exports"] } }),
    );
    const { summarize, parsed } = countingParser(summarizeWithConfig(p.dir));

    const configured = readWorkspaceSummary(p.dir, summarize);
    const again = readWorkspaceSummary(p.dir, summarize);
    p.write(
      ".claude/playbook.json",
      JSON.stringify({ lint: { bannedPhrases: ["zzz-never"] } }),
    );
    const changed = readWorkspaceSummary(
      p.dir,
      countingParser(summarizeWithConfig(p.dir)).summarize,
    );

    expect(configured.active?.summary.diagnostics.map((d) => d.code)).toEqual([
      "criterion-vague",
    ]);
    expect(again.cacheHits).toBe(2);
    expect(parsed).toEqual(["state.md", PLAYBOOK]);
    expect(changed.cacheMisses).toBe(2);
    expect(changed.active?.summary.diagnostics).toEqual([]);
  });
});
