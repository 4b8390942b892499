import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { Nodes } from "mdast";
import remarkParse from "remark-parse";
import ts from "typescript";
import { unified } from "unified";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/** One `playbook <command> [args]` a message or a page tells someone to run, and where it says so. */
interface Spelling {
  where: string;
  command: string;
  /** The words after the command, up to the end of the code span, line or shell list item. */
  words: string[];
  text: string;
}

/** What the built CLI declares: its commands, each with its options and the choices of its first argument. */
interface CommandTable {
  commands: Map<string, { options: Set<string>; choices: string[] | null }>;
}

/**
 * How the CLI is spelled in front of a command wherever it appears (prose included), none of which can be ordinary
 * prose: the npm setup's `npx --no playbook`, the plugin's `npx -y playbook-kit`, the runtime setup's
 * `npx playbook-kit@<version>` and `node .claude/playbook/runtime/dist/cli.mjs`, a source checkout's
 * `node "/abs/dist/cli.mjs"`, and the placeholders messages and templates fill in with one of those.
 */
const CLI_PREFIX = String.raw`(?:npx\s+--no\s+playbook|npx\s+(?:-y\s+)?playbook-kit(?:@[^\s\x60]+)?|node\s+"?[^\s\x60"]*cli\.mjs"?|\$\{[\w.]*\b(?:cli|CLI)\}|\{\{cli\}\})`;
const COMMAND = String.raw`([a-z][a-z-]*)(?=$|[\s;&|)\x60"'])`;
const PREFIXED = new RegExp(`${CLI_PREFIX}\\s+${COMMAND}`, "g");
/** A bare `playbook <command>`: only where a command line starts (a code span, a shell line, after `&&`). */
const BARE_START = new RegExp(`^(?:\\$\\s+)?playbook\\s+${COMMAND}`);
/** A shell list's separators: `&&`, `||`, `;` and a pipe with blanks around it (`approve|reject` is one word). */
const SEPARATOR = /\s*(?:&&|\|\||;|\s\|\s)\s*/;
const SHELL_BLOCKS = new Set(["sh", "bash", "shell", "console", "yaml", "yml"]);

/**
 * The words after a command, up to the end of its command line (a separator, the end of the code span or line):
 * quotes hold a word together (`--evidence "ran node --test; read x"` is one option and its value), and a comment
 * or `--` ends the options.
 */
function wordsAfter(rest: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | null = null;
  const endWord = () => {
    if (word !== "") words.push(word);
    word = "";
  };
  for (let i = 0; i < rest.length; i++) {
    const char = rest[i] ?? "";
    // A code span or a line ends the command, whatever quote a word of prose left open (`teammate's`).
    if (char === "`" || char === "\n") break;
    if (quote !== null) {
      if (char === quote) quote = null;
      word += char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      word += char;
      continue;
    }
    if (SEPARATOR_START.test(rest.slice(i))) break;
    if (/\s/.test(char)) endWord();
    else word += char;
  }
  endWord();
  const end = words.findIndex((w) => w.startsWith("#") || w === "--");
  return end === -1 ? words : words.slice(0, end);
}

/** Whether a shell list separator starts here: `&&`, `||`, `;`, or a pipe with blanks around it. */
const SEPARATOR_START = /^(?:&&|\|\||;|\s\|\s)/;

/**
 * Every spelling in `fragment`: prefixed ones anywhere; bare ones at the start of the fragment when it is a command
 * line (a code span, a line of a shell block), or of a shell list item in it; and the same in each code span it
 * quotes (a message quoted in a text block, a span inside a message string).
 */
function spellingsIn(
  fragment: string,
  commandLine: boolean,
  where: string,
): Spelling[] {
  const found: Spelling[] = [];
  const add = (command: string, rest: string, text: string) =>
    found.push({ where, command, words: wordsAfter(rest), text });
  for (const match of fragment.matchAll(PREFIXED)) {
    const end = (match.index ?? 0) + match[0].length;
    add(match[1] ?? "", fragment.slice(end), match[0]);
  }
  if (commandLine)
    for (const item of fragment.split(SEPARATOR).map((i) => i.trim())) {
      const match = BARE_START.exec(item);
      if (match) add(match[1] ?? "", item.slice(match[0].length), item);
    }
  for (const span of fragment.matchAll(/`([^`\n]+)`/g))
    found.push(
      ...spellingsIn(span[1] ?? "", true, where).filter(
        // A prefixed spelling inside a span was found above already.
        (s) => BARE_START.test(s.text.trim()),
      ),
    );
  return found;
}

/** Every node of a markdown tree, depth first. */
function nodes(node: Nodes): Nodes[] {
  return [
    node,
    ...("children" in node ? (node.children as Nodes[]).flatMap(nodes) : []),
  ];
}

/** The spellings of a markdown page or template: in its code spans, its code blocks and its prose. */
function spellingsInMarkdown(path: string): Spelling[] {
  const text = readFileSync(path, "utf8");
  const file = relative(ROOT, path);
  const tree = unified().use(remarkParse).parse(text);
  const found: Spelling[] = [];
  for (const node of nodes(tree)) {
    const line = node.position?.start.line ?? 0;
    if (node.type === "inlineCode")
      found.push(...spellingsIn(node.value, true, `${file}:${line}`));
    else if (node.type === "code") {
      const shell = SHELL_BLOCKS.has(node.lang ?? "");
      node.value.split("\n").forEach((content, index) => {
        const where = `${file}:${line + 1 + index}`;
        const trimmed = content.trim().replace(/^-\s+run:\s+/, "");
        found.push(
          ...spellingsIn(trimmed, shell || trimmed.startsWith("$ "), where),
        );
      });
    } else if (node.type === "text")
      found.push(...spellingsIn(node.value, false, `${file}:${line}`));
  }
  return found;
}

/**
 * The text of every string in a source file, as the program builds it: a template's `${expression}` parts stay as
 * written, so `${cli} verify` and `\`playbook verify ${id}\`` read as what they print. Comments are not strings.
 */
function stringsInSource(path: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(
    path,
    readFileSync(path, "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const found: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    let text: string | null = null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
      text = node.text;
    else if (ts.isTemplateExpression(node))
      text =
        node.head.text +
        node.templateSpans
          .map(
            (span) =>
              `\${${span.expression.getText(source)}}${span.literal.text}`,
          )
          .join("");
    if (text !== null) {
      found.push({
        text: codeSpansOf(text),
        line:
          source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
      });
      if (ts.isTemplateExpression(node)) {
        for (const span of node.templateSpans) visit(span.expression);
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * A string whose code spans are escaped (`\\\``) is code that writes messages (the hook loader's template): its plain
 * backticks delimit the code's own templates, its escaped ones the messages' code spans.
 */
function codeSpansOf(text: string): string {
  if (!text.includes("\\`")) return text;
  return text.replace(/(^|[^\\])`/g, "$1'").replace(/\\+`/g, "`");
}

function filesUnder(folder: string, ends: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return filesUnder(path, ends);
    return name.endsWith(ends) ? [path] : [];
  });
}

/** The pages a user reads: the README and docs/, without the decision log, which is history. */
const PAGES = [
  join(ROOT, "README.md"),
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md") && name !== "decisions.md")
    .map((name) => join(ROOT, "docs", name)),
];
/** What init renders into a project: the templates, frameworks, rules and the plan templates. */
const TEMPLATES = [
  ...filesUnder(join(ROOT, "templates"), ".hbs"),
  ...filesUnder(join(ROOT, "frameworks"), ".hbs"),
  ...filesUnder(join(ROOT, "rules"), ".hbs"),
  ...filesUnder(join(ROOT, "plan", "template"), ".md"),
];
const SOURCES = filesUnder(join(ROOT, "src"), ".ts");

function allSpellings(): Spelling[] {
  return [
    ...[...PAGES, ...TEMPLATES].flatMap(spellingsInMarkdown),
    ...SOURCES.flatMap((path) =>
      stringsInSource(path).flatMap(({ text, line }) =>
        spellingsIn(text, false, `${relative(ROOT, path)}:${line}`),
      ),
    ),
  ];
}

/** The command table as the built CLI declares it (`playbook --help`, `playbook <command> --help`). */
function readCommandTable(): CommandTable {
  const help = (args: string[]) => {
    const result = runCli(args);
    expect(result.status, result.stderr).toBe(0);
    // eslint-disable-next-line no-control-regex
    return result.stdout.replace(/\x1b\[[0-9;]*m/g, "");
  };
  const names =
    /USAGE playbook (\S+)/.exec(help(["--help"]))?.[1]?.split("|") ?? [];
  const commands: CommandTable["commands"] = new Map();
  for (const name of names) {
    const usage = help([name, "--help"]);
    const options = new Set(
      [...usage.matchAll(/^\s*(--[a-z][a-z0-9-]*)/gm)].map((m) => m[1] ?? ""),
    );
    // An ACTION argument is a choice of words (`approve|reject`, `record`); other arguments name a value.
    const action = /ARGUMENTS\n\s*ACTION=<([^>]+)>/.exec(usage)?.[1];
    commands.set(name, { options, choices: action ? action.split("|") : null });
  }
  return { commands };
}

/** Options every command understands before citty sees them (src/cli/main.ts). */
const GLOBAL_OPTIONS = new Set(["--help", "--version"]);

/** What is wrong with one spelling against the table, or null when the CLI has it. */
function problemOf(spelling: Spelling, table: CommandTable): string | null {
  const { command, words } = spelling;
  if (command === "help") {
    const topic = words[0];
    return topic && /^[a-z][a-z-]*$/.test(topic) && !table.commands.has(topic)
      ? `no command \`${topic}\` (in \`playbook help ${topic}\`)`
      : null;
  }
  const declared = table.commands.get(command);
  if (!declared) return `no command \`${command}\``;
  const unknown = words
    .map((w) => /^--[a-z][a-z0-9-]*/.exec(w)?.[0])
    .filter((o): o is string => o !== undefined)
    .filter((o) => !declared.options.has(o) && !GLOBAL_OPTIONS.has(o));
  if (unknown.length > 0)
    return `\`${command}\` has no option ${unknown.map((o) => `\`${o}\``).join(", ")}`;
  const action = words[0];
  if (declared.choices && action && /^[a-z][a-z|-]*$/.test(action)) {
    const wrong = action
      .split("|")
      .filter((a) => !declared.choices?.includes(a));
    if (wrong.length > 0)
      return `\`${command}\` has no action ${wrong.map((a) => `\`${a}\``).join(", ")} (expected ${declared.choices.join(", ")})`;
  }
  return null;
}

describe("every command a message or a page names exists", () => {
  let table: CommandTable;
  let spellings: Spelling[];
  beforeAll(() => {
    table = readCommandTable();
    spellings = allSpellings();
  });

  it("reads the command table and finds the spellings it checks", () => {
    expect([...table.commands.keys()]).toEqual(
      expect.arrayContaining(["verify", "init", "doctor", "review", "check"]),
    );
    expect(table.commands.get("check")?.options).toContain("--rerun");
    expect(table.commands.get("init")?.options).toContain("--cwd");
    expect(table.commands.get("review")?.choices).toEqual([
      "approve",
      "reject",
    ]);
    const where = (prefix: string) =>
      spellings.filter((s) => s.where.startsWith(prefix)).length;
    expect(where("README.md")).toBeGreaterThan(20);
    expect(where("docs/")).toBeGreaterThan(100);
    expect(where("templates/")).toBeGreaterThan(100);
    expect(where("src/")).toBeGreaterThan(50);
  });

  it.each([
    ["`npx --no playbook verify ${id}`", "verify", ["${id}"]],
    ["Run `playbook archive --resume`, then go on.", "archive", ["--resume"]],
    ["run `${cli} doctor` in a terminal", "doctor", []],
    [
      "`{{cli}} check --rerun --base origin/main`",
      "check",
      ["--rerun", "--base", "origin/main"],
    ],
    [
      "`npm i -D playbook-kit@latest && npx --no playbook upgrade`",
      "upgrade",
      [],
    ],
    ["`npx playbook-kit@0.1.0 install`", "install", []],
    [
      "`node .claude/playbook/runtime/dist/cli.mjs status --json`",
      "status",
      ["--json"],
    ],
    ["`playbook review approve|reject`", "review", ["approve|reject"]],
  ])("reads %s as `%s`", (text, command, words) => {
    expect(
      spellingsIn(text, false, "example").map((s) => [s.command, s.words]),
    ).toEqual([[command, words]]);
  });

  it.each([
    "the playbook is reviewed",
    "`playbook hook: no complete event on stdin`",
    "`plan/playbook-login.md`",
    "`node .claude/hooks/playbook.cjs PreToolUse`",
    "npm i -D playbook-kit",
  ])("reads no command in %s", (text) => {
    expect(spellingsIn(text, false, "example")).toEqual([]);
  });

  it("finds every command and option it names in the CLI", () => {
    const missing = spellings.flatMap((spelling) => {
      const problem = problemOf(spelling, table);
      return problem
        ? [`${spelling.where}: ${problem} in \`${spelling.text}\``]
        : [];
    });
    expect(missing, `Named but not in the CLI:\n${missing.join("\n")}`).toEqual(
      [],
    );
  });
});

/**
 * A bare `npx playbook` fetches and runs an unrelated npm package of that name when playbook-kit is not installed;
 * `npx --no playbook` never fetches. Text that warns against the bare spelling may show it.
 */
const BARE_NPX = /\bnpx\s+(?:-y\s+|--yes\s+)?playbook(?![\w-])/g;
const WARNS = /\b(?:never|unrelated|avoid|do not|don't)\b/i;

function bareNpxIn(text: string, where: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(BARE_NPX)) {
    const at = match.index ?? 0;
    const start =
      Math.max(text.lastIndexOf(". ", at), text.lastIndexOf("\n\n", at)) + 1;
    const ends = [text.indexOf(". ", at), text.indexOf("\n\n", at)].filter(
      (i) => i >= 0,
    );
    const sentence = text.slice(
      start,
      ends.length > 0 ? Math.min(...ends) : text.length,
    );
    const line = text.slice(0, at).split("\n").length;
    if (!WARNS.test(sentence))
      found.push(
        `${where}:${line}: ${sentence.trim().replace(/\s+/g, " ").slice(0, 200)}`,
      );
  }
  return found;
}

describe("no page, template or message suggests a bare `npx playbook`", () => {
  it.each([
    ["run `npx playbook check --rerun`", 1],
    ["run `npx -y playbook doctor`", 1],
    ["run `npx --no playbook check`", 0],
    ["`npx playbook-kit@0.1.0 init`", 0],
    ["Never run a bare `npx playbook`: an unrelated package has that name.", 0],
  ])("%s: %i", (text, count) => {
    expect(bareNpxIn(text, "example")).toHaveLength(count);
  });

  it("finds none", () => {
    const found = [
      ...[...PAGES, ...TEMPLATES].flatMap((path) =>
        bareNpxIn(readFileSync(path, "utf8"), relative(ROOT, path)),
      ),
      ...SOURCES.flatMap((path) =>
        stringsInSource(path).flatMap(({ text, line }) =>
          bareNpxIn(text, `${relative(ROOT, path)}:${line}`),
        ),
      ),
    ];
    expect(found, `A bare npx playbook:\n${found.join("\n")}`).toEqual([]);
  });
});
