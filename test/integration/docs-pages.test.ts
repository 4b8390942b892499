import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { Code, Nodes, Root } from "mdast";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { describe, expect, it } from "vitest";
import { runLint } from "../../src/app/lint/lint.ts";
import { GUARDS } from "../../src/core/guards/evaluate.ts";
import { stateDoc } from "../helpers/sample-docs.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const DOCS = join(ROOT, "docs");
const PAGES = readdirSync(DOCS)
  .filter((name) => name.endsWith(".md"))
  .sort();
const EXAMPLE_MARKER =
  "<!-- lint-checked example: test/integration/docs-pages.test.ts -->";

const read = (path: string) => readFileSync(path, "utf8");

/** A markdown page as remark reads it (the parser playbook itself uses). */
function parse(text: string): Root {
  return unified().use(remarkParse).parse(text);
}

/** The text a node shows: its text and inline code, without markup. */
function plainText(node: Nodes): string {
  if (node.type === "text" || node.type === "inlineCode") return node.value;
  return "children" in node
    ? (node.children as Nodes[]).map(plainText).join("")
    : "";
}

/** Every node of the tree, depth first. */
function nodes(node: Nodes): Nodes[] {
  return [
    node,
    ...("children" in node ? (node.children as Nodes[]).flatMap(nodes) : []),
  ];
}

/** Headings (not inside code blocks): their level, text, and offsets in the page. */
function headings(
  text: string,
): { level: number; text: string; start: number }[] {
  return nodes(parse(text)).flatMap((node) =>
    node.type === "heading"
      ? [
          {
            level: node.depth,
            text: plainText(node),
            start: node.position?.start.offset ?? 0,
          },
        ]
      : [],
  );
}

/** The anchors GitHub gives a document's headings: lowercase, punctuation dropped, spaces as hyphens, `-n` for repeats. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const heading of headings(text)) {
    const base = heading.text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Relative link targets of a page (links and definitions; code and comments are not links); web and mail links are left out. */
function relativeLinks(text: string): string[] {
  return nodes(parse(text))
    .flatMap((node) =>
      node.type === "link" || node.type === "definition" ? [node.url] : [],
    )
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** The anchors of each file read so far: decisions.md alone links its own headings hundreds of times. */
const anchorsByFile = new Map<string, Set<string>>();

function anchorsOf(file: string): Set<string> {
  let found = anchorsByFile.get(file);
  if (found === undefined) {
    found = anchors(read(file));
    anchorsByFile.set(file, found);
  }
  return found;
}

/** Why `target`, linked from `page`, does not resolve, or null when it does. */
function brokenLink(page: string, target: string): string | null {
  const [path = "", anchor] = target.split("#", 2);
  const file = path === "" ? page : resolve(dirname(page), decodeURI(path));
  const shown = `${relative(ROOT, page)} -> ${target}`;
  if (!existsSync(file)) return `${shown}: no such file`;
  if (anchor === undefined || anchor === "") return null;
  if (statSync(file).isDirectory() || !file.endsWith(".md"))
    return `${shown}: an anchor into a file that is not markdown`;
  return anchorsOf(file).has(decodeURIComponent(anchor))
    ? null
    : `${shown}: no heading with that anchor`;
}

describe("docs/troubleshooting.md", () => {
  const text = read(join(DOCS, "troubleshooting.md"));
  const sections = headings(text);

  it("reads the twelve guards from the registry", () => {
    expect(GUARDS.map((g) => g.number)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    ]);
  });

  it.each(GUARDS.map((g) => [g.number, g.id] as const))(
    "has a section for guard %i, `%s`, that says what to do",
    (number, id) => {
      const index = sections.findIndex(
        (s) => s.level === 3 && s.text === `${number}. ${id}`,
      );
      expect(index).toBeGreaterThanOrEqual(0);
      const next = sections.slice(index + 1).find((s) => s.level <= 3);
      const body = text.slice(sections[index]!.start, next?.start);
      expect(body).toContain("**Why.**");
      expect(body).toContain("**What to do.**");
    },
  );
});

describe("links in docs/", () => {
  it("finds the pages and the links it checks", () => {
    expect(PAGES).toContain("troubleshooting.md");
    const count = PAGES.reduce(
      (sum, page) => sum + relativeLinks(read(join(DOCS, page))).length,
      0,
    );
    expect(count).toBeGreaterThan(30);
  });

  it("reads anchors the way GitHub writes them", () => {
    expect(
      anchors(
        "# Title\n## The kill switch: PLAYBOOK_DISABLE=1\n## `state.md`\n## `state.md`\n```\n## not a heading\n```\n",
      ),
    ).toEqual(
      new Set([
        "title",
        "the-kill-switch-playbook_disable1",
        "statemd",
        "statemd-1",
      ]),
    );
    expect(
      relativeLinks("[a](b.md) `[c](d.md)` [e](https://x.y) [f](#g)"),
    ).toEqual(["b.md", "#g"]);
  });

  it.each(PAGES)("every relative link in docs/%s resolves", (page) => {
    const path = join(DOCS, page);
    const broken = relativeLinks(read(path))
      .map((target) => brokenLink(path, target))
      .filter((problem) => problem !== null);
    expect(broken).toEqual([]);
  });

  it("docs/README.md links every page in docs/", () => {
    const index = relativeLinks(read(join(DOCS, "README.md")));
    const missing = PAGES.filter(
      (page) => page !== "README.md" && !index.includes(page),
    );
    expect(missing).toEqual([]);
  });
});

describe("the example in docs/playbook-format.md", () => {
  const text = read(join(DOCS, "playbook-format.md"));

  /** The markdown code block right after the marker comment. */
  function example(): string {
    const blocks = parse(text).children;
    const marker = blocks.findIndex(
      (node) => node.type === "html" && node.value.trim() === EXAMPLE_MARKER,
    );
    expect(marker).toBeGreaterThanOrEqual(0);
    const block = blocks[marker + 1];
    expect(block?.type === "code" ? block.lang : block?.type).toBe("markdown");
    return `${(block as Code).value}\n`;
  }

  it("lints without a diagnostic as a playbook on its own", () => {
    const p = createTempProject({ "plan/playbook-example.md": example() });

    const report = runLint(p.dir, ["plan/playbook-example.md"]);

    expect(report.diagnostics).toEqual([]);
    expect(report.playbooks).toHaveLength(1);
    expect(report.playbooks[0]!.playbook.phases.length).toBeGreaterThan(0);
  });

  it("lints without a diagnostic as the active playbook of a workspace", () => {
    const body = example();
    const alone = createTempProject({ "plan/playbook-example.md": body });
    const branch = runLint(alone.dir, ["plan/playbook-example.md"]).playbooks[0]
      ?.playbook.meta.branch;
    expect(branch).toEqual(expect.any(String));
    const p = createTempProject({
      "state.md": stateDoc({
        active: "plan/playbook-example.md",
        branch: branch!,
        phase: "p1",
      }),
      "plan/playbook-example.md": body,
    });

    const report = runLint(p.dir);

    expect(report.files).toEqual(["state.md", "plan/playbook-example.md"]);
    expect(report.active?.file).toBe("plan/playbook-example.md");
    expect(report.diagnostics).toEqual([]);
  });
});

describe("the $schema of .claude/playbook.json", () => {
  it("is given the same everywhere, relative to .claude/ where the file lives, and the schema is there", () => {
    const sources = [
      ...PAGES.map((name) => join(DOCS, name)),
      join(ROOT, "README.md"),
      ...["en", "ja"].flatMap((lang) =>
        readdirSync(join(ROOT, "templates", lang, "agents")).map((name) =>
          join(ROOT, "templates", lang, "agents", name),
        ),
      ),
    ];
    const found = sources.flatMap((file) =>
      [...read(file).matchAll(/"\$schema":\s*"([^"]+)"/g)].map((m) => ({
        file: relative(ROOT, file),
        path: m[1] ?? "",
      })),
    );
    expect(found.length).toBeGreaterThan(1);
    for (const { file, path } of found) {
      expect({ file, path }).toEqual({
        file,
        path: "../node_modules/playbook-kit/schema/playbook.schema.json",
      });
      // In a project, node_modules/playbook-kit is this package: the path from .claude/ must reach its schema.
      expect(
        existsSync(
          resolve(
            ROOT,
            ".claude",
            path.replace("../node_modules/playbook-kit/", "../"),
          ),
        ),
      ).toBe(true);
    }
  });
});
