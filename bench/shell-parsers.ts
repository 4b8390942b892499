// Compares npm shell parsers for `analyzeBash`: correctness on test/fixtures/bash/corpus.json (each parser's AST is
// turned into the same neutral shape and run through the same analysis), cold start of a fresh `node` that loads
// the parser and parses one command (paired with `node -e 0`), warm parse time, and minified bundle size.
//
// The candidates are not dependencies of playbook. Install them outside the project, then point the script there:
//   npm i --no-save --prefix /tmp/shell-parsers unbash@6.0.4 sh-syntax@0.7.0 mvdan-sh@0.10.1 bash-parser@0.5.0 \
//     @ericcornelissen/bash-parser@0.5.3 web-tree-sitter@0.27.1 tree-sitter-bash@0.25.1 --ignore-scripts
//   SHELL_PARSERS_DIR=/tmp/shell-parsers npx tsx bench/shell-parsers.ts
// Without SHELL_PARSERS_DIR it looks in this project's node_modules and skips what is missing.
import { spawnSync } from "node:child_process";
import {
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { analyzeBashWith } from "../src/core/bash/analyze-bash.ts";
import { expandBraces } from "../src/core/bash/expand-braces.ts";
import { parseShell } from "../src/core/bash/parse-shell.ts";
import type {
  Assignment,
  ShellCommand,
  ShellParser,
  ShellRedirect,
  ShellWord,
} from "../src/core/bash/shell-syntax.ts";

const root = join(import.meta.dirname, "..");
const home = process.env["SHELL_PARSERS_DIR"] ?? root;
const requireFrom = createRequire(join(home, "package.json"));
const pairs = Number(process.env["SHELL_PARSERS_PAIRS"] ?? 30);
const TYPICAL = `git add -A && git commit -m "feat: parser" && npm test 2>&1 | tail -20`;

// `npm view <name>` on 2026-11-22. The registry here is a mirror: for old packages its `time` can be the
// mirror's import date rather than the publish date, so maintenance is judged from the projects too.
const REGISTRY: Record<string, { published: string; maintained: string }> = {
  unbash: {
    published: "2026-11-07",
    maintained: "yes (25 releases in 2026, 0 deps, typed)",
  },
  "sh-syntax": {
    published: "2026-09-24",
    maintained: "yes (mvdan/sh in WASM; async only)",
  },
  "web-tree-sitter": {
    published: "2026-10-08",
    maintained: "yes (+ tree-sitter-bash 0.25.1)",
  },
  "mvdan-sh": {
    published: "2024-11-23 (mirror)",
    maintained: "no: deprecated for sh-syntax (mvdan/sh#1145)",
  },
  "@ericcornelissen/bash-parser": {
    published: "2024-11-23 (mirror)",
    maintained: "no: fork archived, 17 deps",
  },
  "bash-parser": {
    published: "2024-12-04 (mirror)",
    maintained: "no: abandoned upstream, 21 deps",
  },
};

interface Corpus {
  command: string;
  error?: true;
  commands?: string[][];
  writes?: { path: string; op: string }[];
  inlineCode?: { interpreter: string; code: string }[];
}

interface Candidate {
  name: string;
  /** Package whose version is reported. */
  pkg: string;
  /** A sync parser for the corpus, or null when the package cannot give one. */
  parser: () => Promise<ShellParser | null>;
  /** Why there is no corpus score. */
  noCorpus?: string;
  /** Cold-start probe: `imports` loads the parser from `LIB`, `body` (async) parses `CMD`. */
  probe: { imports: string; body: string };
  /** WASM files loaded at run time, added to the bundle size; such probes run from node_modules. */
  wasm?: string[];
}

function resolve(pkg: string): string | null {
  try {
    return requireFrom.resolve(pkg);
  } catch {
    return null;
  }
}

function version(pkg: string): string {
  const entry = resolve(pkg);
  let dir = entry ? dirname(entry) : "";
  while (dir && dir !== dirname(dir)) {
    try {
      const manifest = JSON.parse(
        readFileSync(join(dir, "package.json"), "utf8"),
      ) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === pkg) return manifest.version ?? "?";
    } catch {
      // not the package root yet
    }
    dir = dirname(dir);
  }
  return "?";
}

async function load<T>(pkg: string): Promise<T> {
  const entry = resolve(pkg);
  if (!entry) throw new Error(`${pkg} is not installed`);
  return (await import(pathToFileURL(entry).href)) as T;
}

// ---------- shared word helpers for adapters ----------

const dyn = (value: string): ShellWord => ({ value, dynamic: true });
const lit = (value: string): ShellWord => ({ value, dynamic: false });

function unescapeUnquoted(text: string): string {
  return text.replace(/\\\n/g, "").replace(/\\(.)/gs, "$1");
}

function unescapeDouble(text: string): string {
  return text.replace(/\\\n/g, "").replace(/\\([$`"\\])/g, "$1");
}

function decodeAnsiC(body: string): string {
  const map: Record<string, string> = {
    n: "\n",
    t: "\t",
    r: "\r",
    e: "\x1b",
    a: "\x07",
    b: "\b",
    f: "\f",
    v: "\v",
  };
  return body.replace(/\\(.)/gs, (_, c: string) => map[c] ?? c);
}

function braceWords(word: ShellWord): ShellWord[] {
  if (word.dynamic || !word.value.includes("{")) return [word];
  return (expandBraces(word.value) ?? [word.value]).map(lit);
}

function pseudo(
  redirects: ShellRedirect[],
  text: string,
  depth: number,
  env: Assignment[] = [],
): ShellCommand {
  return { env, words: [], redirects, text, depth };
}

// ---------- tree-sitter-bash via web-tree-sitter ----------

interface TsNode {
  type: string;
  text: string;
  isNamed: boolean;
  isError: boolean;
  isMissing: boolean;
  hasError: boolean;
  childCount: number;
  startPosition: { row: number; column: number };
  child(i: number): TsNode | null;
  childForFieldName(name: string): TsNode | null;
  fieldNameForChild(i: number): string | null;
  parent: TsNode | null;
}

function children(node: TsNode): TsNode[] {
  const out: TsNode[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const c = node.child(i);
    if (c) out.push(c);
  }
  return out;
}

function tsWord(node: TsNode): ShellWord {
  switch (node.type) {
    case "word":
      return {
        value: unescapeUnquoted(node.text),
        dynamic: /(^|[^\\])[*?[]/.test(node.text),
      };
    case "number":
      return lit(node.text);
    case "raw_string":
      return lit(node.text.slice(1, -1));
    case "ansi_c_string":
      return lit(decodeAnsiC(node.text.slice(2, -1)));
    case "string": {
      let value = "";
      let dynamic = false;
      for (const c of children(node)) {
        if (c.type === '"') continue;
        if (c.type === "string_content") value += unescapeDouble(c.text);
        else {
          value += c.text;
          dynamic = true;
        }
      }
      return { value, dynamic };
    }
    case "concatenation": {
      const parts = children(node);
      if (parts.every((p) => p.type === "word"))
        return tsWord({ ...node, type: "word", text: node.text });
      const words = parts.map(tsWord);
      return {
        value: words.map((w) => w.value).join(""),
        dynamic: words.some((w) => w.dynamic),
      };
    }
    default:
      return dyn(node.text);
  }
}

function tsRedirects(node: TsNode): ShellRedirect[] {
  if (node.type === "herestring_redirect") {
    const target = children(node).find((c) => c.isNamed);
    return [
      {
        op: "<<<",
        fd: null,
        target: target ? tsWord(target) : null,
        hereDoc: null,
      },
    ];
  }
  if (node.type === "heredoc_redirect") {
    const kids = children(node);
    const start = kids.find((c) => c.type === "heredoc_start")?.text ?? "";
    const body = kids.find((c) => c.type === "heredoc_body")?.text ?? "";
    const op = kids.find((c) => !c.isNamed)?.type ?? "<<";
    const here: ShellRedirect = {
      op,
      fd: null,
      target: null,
      hereDoc: {
        delimiter: start.replace(/['"\\]/g, ""),
        body,
        quoted: /['"\\]/.test(start),
      },
    };
    return [
      here,
      ...kids.filter((c) => c.type === "file_redirect").flatMap(tsRedirects),
    ];
  }
  if (node.type !== "file_redirect") return [];
  const fd = node.childForFieldName("descriptor");
  const destination = node.childForFieldName("destination");
  const op = children(node).find((c) => !c.isNamed)?.type ?? ">";
  return [
    {
      op,
      fd: fd ? Number(fd.text) : null,
      target: destination ? tsWord(destination) : null,
      hereDoc: null,
    },
  ];
}

const REDIRECT_TYPES = new Set([
  "file_redirect",
  "heredoc_redirect",
  "herestring_redirect",
]);

function tsCommand(
  node: TsNode,
  depth: number,
  extra: ShellRedirect[],
): ShellCommand {
  const env: Assignment[] = [];
  const words: ShellWord[] = [];
  const redirects: ShellRedirect[] = [];
  for (const c of children(node)) {
    if (c.type === "variable_assignment" && node.type !== "command")
      words.push(tsWord(c));
    else if (c.type === "variable_assignment") {
      const value = c.childForFieldName("value");
      env.push({
        name: c.childForFieldName("name")?.text ?? "",
        value: value ? tsWord(value) : lit(""),
      });
    } else if (c.type === "command_name") {
      const first = children(c)[0];
      if (first) words.push(...braceWords(tsWord(first)));
    } else if (REDIRECT_TYPES.has(c.type)) redirects.push(...tsRedirects(c));
    else if (c.isNamed) words.push(...braceWords(tsWord(c)));
  }
  if (node.type === "declaration_command" || node.type === "unset_command")
    words.unshift(lit(children(node)[0]?.text ?? ""));
  return {
    env,
    words,
    redirects: [...redirects, ...extra],
    text: node.text,
    depth,
  };
}

function tsWalk(node: TsNode, depth: number, out: ShellCommand[]): void {
  const recurse = (n: TsNode, d = depth) => {
    for (const c of children(n)) tsWalk(c, d, out);
  };
  switch (node.type) {
    case "redirected_statement": {
      const body = node.childForFieldName("body");
      const redirects = children(node)
        .filter((c) => REDIRECT_TYPES.has(c.type))
        .flatMap(tsRedirects);
      if (
        body &&
        (body.type === "command" || body.type === "declaration_command")
      ) {
        out.push(tsCommand(body, depth, redirects));
        recurse(body);
      } else {
        out.push(pseudo(redirects, node.text, depth));
        if (body) tsWalk(body, depth, out);
      }
      for (const c of children(node))
        if (REDIRECT_TYPES.has(c.type)) tsWalk(c, depth, out);
      return;
    }
    case "command":
    case "declaration_command":
    case "unset_command":
      out.push(tsCommand(node, depth, []));
      recurse(node);
      return;
    case "variable_assignment":
      if (
        node.parent?.type !== "command" &&
        node.parent?.type !== "declaration_command"
      ) {
        const value = node.childForFieldName("value");
        out.push(
          pseudo([], node.text, depth, [
            {
              name: node.childForFieldName("name")?.text ?? "",
              value: value ? tsWord(value) : lit(""),
            },
          ]),
        );
      }
      recurse(node);
      return;
    case "command_substitution":
    case "process_substitution":
      recurse(node, depth + 1);
      return;
    default:
      recurse(node);
  }
}

function firstError(node: TsNode): TsNode | null {
  if (node.isError || node.isMissing) return node;
  for (const c of children(node)) {
    const found = c.hasError || c.isMissing ? firstError(c) : null;
    if (found) return found;
  }
  return null;
}

async function treeSitter(): Promise<ShellParser | null> {
  interface TreeSitterModule {
    Parser: { init(): Promise<void>; new (): TsParser };
    Language: { load(path: string): Promise<unknown> };
  }
  interface TsParser {
    setLanguage(lang: unknown): void;
    parse(source: string): { rootNode: TsNode; delete(): void } | null;
  }
  const { Parser, Language } = await load<TreeSitterModule>("web-tree-sitter");
  await Parser.init();
  const wasm = requireFrom.resolve("tree-sitter-bash/tree-sitter-bash.wasm");
  const parser = new Parser();
  parser.setLanguage(await Language.load(wasm));
  return (source) => {
    const tree = parser.parse(source);
    if (!tree) return { ok: false, error: "no tree" };
    try {
      const rootNode = tree.rootNode;
      if (rootNode.hasError) {
        const bad = firstError(rootNode) ?? rootNode;
        return {
          ok: false,
          error: `syntax error (line ${bad.startPosition.row + 1}, column ${bad.startPosition.column + 1})`,
        };
      }
      const commands: ShellCommand[] = [];
      tsWalk(rootNode, 0, commands);
      return { ok: true, commands };
    } finally {
      tree.delete();
    }
  };
}

// ---------- bash-parser and its fork ----------

interface BpNode {
  type: string;
  text?: string;
  expansion?: { type: string; commandAST?: BpNode }[];
  op?: { text: string };
  file?: BpNode;
  numberIo?: { text: string };
  [key: string]: unknown;
}

function bpWord(node: BpNode): ShellWord {
  const text = node.text ?? "";
  if (!node.expansion?.length)
    return { value: text, dynamic: /(^|[^\\])[*?[]/.test(text) };
  return dyn(text.replace(/(^|[^\\])["']/g, "$1"));
}

function bpRedirect(node: BpNode): ShellRedirect {
  return {
    op: node.op?.text ?? ">",
    fd: node.numberIo ? Number(node.numberIo.text) : null,
    target: node.file ? bpWord(node.file) : null,
    hereDoc: null,
  };
}

function bpWalk(node: unknown, depth: number, out: ShellCommand[]): void {
  if (Array.isArray(node)) {
    for (const n of node) bpWalk(n, depth, out);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const n = node as BpNode;
  if (n.type === "Command") {
    const items = [
      ...((n["prefix"] as BpNode[] | undefined) ?? []),
      ...((n["suffix"] as BpNode[] | undefined) ?? []),
    ];
    const name = n["name"] as BpNode | undefined;
    const env = ((n["prefix"] as BpNode[] | undefined) ?? [])
      .filter((p) => p.type === "AssignmentWord")
      .map((p) => {
        const [k = "", ...v] = (p.text ?? "").split("=");
        return { name: k, value: { ...bpWord(p), value: v.join("=") } };
      });
    const words = [
      ...(name ? [name] : []),
      ...items.filter((i) => i.type === "Word"),
    ].flatMap((w) => braceWords(bpWord(w)));
    out.push({
      env,
      words,
      redirects: items.filter((i) => i.type === "Redirect").map(bpRedirect),
      text: [name?.text, ...items.map((i) => i.text)].filter(Boolean).join(" "),
      depth,
    });
  } else if (
    Array.isArray(n["redirections"]) &&
    (n["redirections"] as BpNode[]).length > 0
  ) {
    out.push(
      pseudo((n["redirections"] as BpNode[]).map(bpRedirect), n.type, depth),
    );
  }
  for (const [key, value] of Object.entries(n)) {
    if (key === "expansion") {
      for (const e of value as { commandAST?: BpNode }[])
        if (e.commandAST) bpWalk(e.commandAST, depth + 1, out);
    } else if (key !== "redirections" || n.type !== "Command")
      bpWalk(value, depth, out);
  }
}

async function bashParser(pkg: string): Promise<ShellParser | null> {
  const mod = await load<{ default: (s: string) => BpNode }>(pkg);
  return (source) => {
    try {
      const commands: ShellCommand[] = [];
      bpWalk(mod.default(source), 0, commands);
      return { ok: true, commands };
    } catch (e) {
      return {
        ok: false,
        error: e instanceof Error ? e.message.split("\n")[0]! : String(e),
      };
    }
  };
}

// ---------- mvdan-sh (GopherJS) ----------

interface MvNode {
  Pos(): { Offset(): number };
  End(): { Offset(): number };
  [key: string]: unknown;
}

interface MvSyntax {
  NewParser(): { Parse(src: string, name: string): MvNode };
  NodeType(n: MvNode): string;
  Walk(n: MvNode, f: (n: MvNode | null) => boolean): void;
}

async function mvdanSh(): Promise<ShellParser | null> {
  const { default: sh } = await load<{ default: { syntax: MvSyntax } }>(
    "mvdan-sh",
  );
  const syntax = sh.syntax;
  const ops = new Map<number, string>();
  for (const op of [
    ">",
    ">>",
    "<",
    "<>",
    ">&",
    "<&",
    ">|",
    "&>",
    "&>>",
    "<<",
    "<<-",
    "<<<",
  ]) {
    const src =
      op.startsWith("<<") && op !== "<<<" ? `x ${op}E\nE\n` : `x ${op} y`;
    syntax.Walk(syntax.NewParser().Parse(src, ""), (n) => {
      if (n && syntax.NodeType(n) === "Stmt")
        for (const r of n["Redirs"] as MvNode[]) ops.set(r["Op"] as number, op);
      return true;
    });
  }
  return (source) => {
    const bytes = Buffer.from(source);
    const slice = (n: MvNode) =>
      bytes.subarray(n.Pos().Offset(), n.End().Offset()).toString();
    const part = (p: MvNode): ShellWord => {
      switch (syntax.NodeType(p)) {
        case "Lit": {
          const raw = p["Value"] as string;
          return {
            value: unescapeUnquoted(raw),
            dynamic: /(^|[^\\])[*?[]/.test(raw),
          };
        }
        case "SglQuoted":
          return lit(
            (p["Dollar"] as boolean)
              ? decodeAnsiC(p["Value"] as string)
              : (p["Value"] as string),
          );
        case "DblQuoted": {
          const inner = (p["Parts"] as MvNode[]).map((q) =>
            syntax.NodeType(q) === "Lit"
              ? lit(unescapeDouble(q["Value"] as string))
              : dyn(slice(q)),
          );
          return {
            value: inner.map((w) => w.value).join(""),
            dynamic: inner.some((w) => w.dynamic),
          };
        }
        default:
          return dyn(slice(p));
      }
    };
    const word = (w: MvNode | null): ShellWord => {
      if (!w) return lit("");
      const parts = (w["Parts"] as MvNode[]).map(part);
      return {
        value: parts.map((p) => p.value).join(""),
        dynamic: parts.some((p) => p.dynamic),
      };
    };
    const redirect = (r: MvNode): ShellRedirect => {
      const op = ops.get(r["Op"] as number) ?? "?";
      const n = r["N"] as MvNode | null;
      const fd = n ? Number(n["Value"]) : null;
      const hdoc = r["Hdoc"] as MvNode | null;
      if (op.startsWith("<<") && op !== "<<<") {
        const delim = r["Word"] as MvNode;
        const quoted = (delim["Parts"] as MvNode[]).some(
          (p) => syntax.NodeType(p) !== "Lit",
        );
        return {
          op,
          fd,
          target: null,
          hereDoc: {
            delimiter: word(delim).value,
            body: hdoc ? hereDocBody(hdoc) : "",
            quoted,
          },
        };
      }
      return { op, fd, target: word(r["Word"] as MvNode), hereDoc: null };
    };
    // The here-document word ends after the closing delimiter; its parts do not.
    const hereDocBody = (hdoc: MvNode) =>
      (hdoc["Parts"] as MvNode[])
        .map((p) =>
          syntax.NodeType(p) === "Lit" ? (p["Value"] as string) : slice(p),
        )
        .join("");
    const commands: ShellCommand[] = [];
    const visit = (node: MvNode, depth: number) =>
      syntax.Walk(node, (n) => {
        if (!n) return true;
        const type = syntax.NodeType(n);
        if (type === "Stmt") {
          const cmd = n["Cmd"] as MvNode | null;
          const redirects = (n["Redirs"] as MvNode[]).map(redirect);
          if (cmd && syntax.NodeType(cmd) === "CallExpr") {
            const env = (cmd["Assigns"] as MvNode[]).map((a) => ({
              name: (a["Name"] as MvNode)["Value"] as string,
              value: word(a["Value"] as MvNode | null),
            }));
            const words = (cmd["Args"] as MvNode[]).flatMap((w) =>
              braceWords(word(w)),
            );
            commands.push({ env, words, redirects, text: slice(n), depth });
          } else if (redirects.length > 0)
            commands.push(pseudo(redirects, slice(n), depth));
        }
        if (type === "CmdSubst" || type === "ProcSubst") {
          for (const s of n["Stmts"] as MvNode[]) visit(s, depth + 1);
          return false;
        }
        return true;
      });
    try {
      visit(syntax.NewParser().Parse(source, ""), 0);
      return { ok: true, commands };
    } catch (e) {
      const err = e as { Error?: () => string; message?: string };
      return { ok: false, error: err.Error?.() ?? err.message ?? String(e) };
    }
  };
}

// ---------- candidates ----------

const CANDIDATES: Candidate[] = [
  {
    name: "unbash",
    pkg: "unbash",
    parser: () => Promise.resolve(parseShell),
    probe: { imports: `import { parse } from LIB;`, body: `parse(CMD);` },
  },
  {
    name: "sh-syntax",
    pkg: "sh-syntax",
    parser: () => Promise.resolve(null),
    noCorpus:
      "async only, and its JSON AST drops command words (CallExpr has only Pos/End)",
    probe: { imports: `import { parse } from LIB;`, body: `await parse(CMD);` },
    wasm: ["sh-syntax/main.wasm"],
  },
  {
    name: "web-tree-sitter + tree-sitter-bash",
    pkg: "web-tree-sitter",
    parser: treeSitter,
    probe: {
      imports: `import { Parser, Language } from LIB;`,
      body: `await Parser.init(); const p = new Parser(); p.setLanguage(await Language.load(WASM)); p.parse(CMD).delete();`,
    },
    wasm: [
      "web-tree-sitter/web-tree-sitter.wasm",
      "tree-sitter-bash/tree-sitter-bash.wasm",
    ],
  },
  {
    name: "mvdan-sh",
    pkg: "mvdan-sh",
    parser: mvdanSh,
    probe: {
      imports: `import sh from LIB;`,
      body: `sh.syntax.NewParser().Parse(CMD, "");`,
    },
  },
  {
    name: "@ericcornelissen/bash-parser",
    pkg: "@ericcornelissen/bash-parser",
    parser: () => bashParser("@ericcornelissen/bash-parser"),
    probe: { imports: `import parse from LIB;`, body: `parse(CMD);` },
  },
  {
    name: "bash-parser",
    pkg: "bash-parser",
    parser: () => bashParser("bash-parser"),
    probe: { imports: `import parse from LIB;`, body: `parse(CMD);` },
  },
];

// ---------- corpus ----------

const corpus = JSON.parse(
  readFileSync(join(root, "test", "fixtures", "bash", "corpus.json"), "utf8"),
) as Corpus[];

const sorted = (items: unknown[]) => items.map((i) => JSON.stringify(i)).sort();

/** Whether the parser's analysis matches the entry: same commands, writes and inline code, in any order. */
function passes(parser: ShellParser, entry: Corpus): boolean {
  const analysis = analyzeBashWith(parser, entry.command);
  if (entry.error) return analysis.error !== null;
  if (analysis.error !== null) return false;
  const same = (a: unknown[], b: unknown[]) =>
    JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
  return (
    same(
      analysis.commands.map((c) => c.argv),
      entry.commands ?? [],
    ) &&
    same(
      analysis.writes.map(({ path, op }) => ({ path, op })),
      entry.writes ?? [],
    ) &&
    same(
      analysis.inlineCode.map(({ interpreter, code }) => ({
        interpreter,
        code,
      })),
      entry.inlineCode ?? [],
    )
  );
}

function warmMicros(parser: ShellParser): number {
  for (let i = 0; i < 200; i++) parser(TYPICAL);
  const start = performance.now();
  for (let i = 0; i < 2000; i++) parser(TYPICAL);
  return ((performance.now() - start) / 2000) * 1000;
}

// ---------- cold start and size ----------

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const childEnv: NodeJS.ProcessEnv = { ...process.env };
delete childEnv["NODE_EXTRA_CA_CERTS"];

function timeNode(args: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, {
    env: childEnv,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0)
    throw new Error(`node ${args.join(" ")}: ${String(result.stderr)}`);
  return ms;
}

/** Median wall time of `node file` and of `node -e 0`, run alternately. */
function cold(file: string): { ms: number; baseline: number } {
  for (let i = 0; i < 2; i++) timeNode([file]);
  const ms: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < pairs; i++) {
    base.push(timeNode(["-e", "0"]));
    ms.push(timeNode([file]));
  }
  return { ms: median(ms), baseline: median(base) };
}

async function bundle(entry: string, outfile: string): Promise<number> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    minify: true,
    logLevel: "silent",
  });
  return statSync(outfile).size;
}

interface Row {
  name: string;
  version: string;
  published: string;
  maintained: string;
  corpus: string;
  warm: string;
  coldMs: number;
  baseline: number;
  bundledKb: string;
}

async function measure(
  candidate: Candidate,
  work: string,
): Promise<Row | null> {
  const entry = resolve(candidate.pkg);
  if (!entry) {
    process.stdout.write(
      `skip ${candidate.name}: not installed under ${home}\n`,
    );
    return null;
  }
  const info = REGISTRY[candidate.pkg] ?? { published: "?", maintained: "?" };
  let corpusScore = candidate.noCorpus ? `n/a: ${candidate.noCorpus}` : "";
  let warm = "n/a";
  const parser = await candidate.parser();
  if (parser) {
    const failed = corpus.filter((e) => !passes(parser, e));
    corpusScore = `${corpus.length - failed.length}/${corpus.length}`;
    warm = warmMicros(parser).toFixed(0);
    for (const f of failed) {
      process.stdout.write(
        `  ${candidate.name} fails: ${JSON.stringify(f.command).slice(0, 90)}\n`,
      );
      if (process.env["SHELL_PARSERS_VERBOSE"]) {
        const got = analyzeBashWith(parser, f.command);
        const brief = {
          error: got.error,
          commands: got.commands.map((c) => c.argv),
          writes: got.writes.map((w) => [w.op, w.path]),
        };
        process.stdout.write(
          `    got ${JSON.stringify(brief)}\n    want ${JSON.stringify({ commands: f.commands, writes: f.writes })}\n`,
        );
      }
    }
  }
  const wasmFiles = (candidate.wasm ?? []).map((w) => requireFrom.resolve(w));
  const program =
    `${candidate.probe.imports}\n(async () => { ${candidate.probe.body} })();\n`
      .replace("LIB", JSON.stringify(entry))
      .replace("CMD", JSON.stringify(TYPICAL))
      .replace("WASM", JSON.stringify(wasmFiles.at(-1) ?? ""));
  const slug = candidate.name.replace(/[^a-z0-9]+/gi, "-");
  const source = join(work, `${slug}.mjs`);
  writeFileSync(source, program);
  const bundled = join(work, `${slug}.cjs`);
  let size: string;
  let runnable = source;
  try {
    const bytes = await bundle(source, bundled);
    const wasmBytes = wasmFiles.reduce((sum, f) => sum + statSync(f).size, 0);
    size =
      wasmBytes > 0
        ? `${(bytes / 1024).toFixed(0)} + ${(wasmBytes / 1024).toFixed(0)} wasm`
        : (bytes / 1024).toFixed(0);
    if (wasmBytes === 0) runnable = bundled;
  } catch (e) {
    size = `bundle failed: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`;
  }
  const timing = cold(runnable);
  process.stdout.write(
    `${candidate.name}: corpus ${corpusScore}, cold ${timing.ms.toFixed(1)} ms vs node -e 0 ${timing.baseline.toFixed(1)} ms (${runnable === bundled ? "bundled" : "from node_modules"})\n`,
  );
  return {
    name: candidate.name,
    version: version(candidate.pkg),
    ...info,
    corpus: corpusScore,
    warm,
    coldMs: timing.ms,
    baseline: timing.baseline,
    bundledKb: size,
  };
}

async function analyzerRow(work: string): Promise<Row> {
  const source = join(work, "analyze-bash.mjs");
  writeFileSync(
    source,
    `import { analyzeBash } from ${JSON.stringify(join(root, "src", "core", "bash", "analyze-bash.ts"))};\nanalyzeBash(${JSON.stringify(TYPICAL)});\n`,
  );
  const bundled = join(work, "analyze-bash.cjs");
  const bytes = await bundle(source, bundled);
  const timing = cold(bundled);
  return {
    name: "playbook analyzeBash (unbash + analysis)",
    version: "-",
    published: "-",
    maintained: "-",
    corpus: `${corpus.filter((e) => passes(parseShell, e)).length}/${corpus.length}`,
    warm: warmMicros((s) => {
      analyzeBashWith(parseShell, s);
      return { ok: true, commands: [] };
    }).toFixed(0),
    coldMs: timing.ms,
    baseline: timing.baseline,
    bundledKb: (bytes / 1024).toFixed(0),
  };
}

const work = mkdtempSync(join(tmpdir(), "shell-parsers-"));
try {
  const rows: Row[] = [];
  for (const candidate of CANDIDATES) {
    const row = await measure(candidate, work);
    if (row) rows.push(row);
  }
  rows.push(await analyzerRow(work));
  const lines = [
    `Node ${process.version}, ${pairs} pairs, NODE_EXTRA_CA_CERTS unset; typical command: \`${TYPICAL}\``,
    "",
    "| parser | version | last publish | maintained | corpus pass | warm parse (µs) | cold load+parse (ms) | `node -e 0` (ms) | extra (ms) | bundled KB (min, cjs) |",
    "| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- |",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.version} | ${r.published} | ${r.maintained} | ${r.corpus} | ${r.warm} | ${r.coldMs.toFixed(1)} | ${r.baseline.toFixed(1)} | ${(r.coldMs - r.baseline).toFixed(1)} | ${r.bundledKb} |`,
    ),
  ];
  process.stdout.write(`\n${lines.join("\n")}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
