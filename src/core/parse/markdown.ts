import type { Heading, List, Root, RootContent } from "mdast";
import { gfmTaskListItemFromMarkdown } from "mdast-util-gfm-task-list-item";
import { gfmTaskListItem } from "micromark-extension-gfm-task-list-item";
import remarkFrontmatter from "remark-frontmatter";
import remarkParse from "remark-parse";
import { unified, type Processor } from "unified";
import { decodeChunk, encodeChunk, type ChunkCache } from "./chunk-tree.ts";

let blocks: ReturnType<typeof createProcessor> | undefined;
let inlines: ReturnType<typeof createProcessor> | undefined;

/**
 * micromark's inline constructs: emphasis, code spans, links, escapes, entities and inline HTML. The readers take
 * every value from the source by position and only read block nodes, so the text of paragraphs is left as one text
 * node, which saves a fifth of a parse; heading titles are the one place inline markup is read (see
 * `restoreHeadingInlines`). The task-list check on `[` is GFM's own construct and stays.
 */
const INLINE_CONSTRUCTS = [
  "attention",
  "autolink",
  "characterEscape",
  "characterReference",
  "codeText",
  "hardBreakEscape",
  "htmlText",
  "labelEnd",
  "labelStartImage",
  "labelStartLink",
];

function createProcessor(withInlines: boolean) {
  return unified()
    .use(remarkParse)
    .use(remarkTaskLists, { withInlines })
    .use(remarkFrontmatter, ["yaml"]);
}

/**
 * GFM task list items (`- [ ]`, `- [x]`, `- [X]`), the one GFM construct playbooks use. These are the packages
 * remark-gfm is built from; its tables, autolink literals, footnotes and strikethrough cost ~30% of parse time
 * on a playbook and nothing here reads them.
 */
// The option is an object: unified reads `use(plugin, false)` as "turn the plugin off".
function remarkTaskLists(
  this: Processor,
  { withInlines }: { withInlines: boolean },
): void {
  const data = this.data() as {
    micromarkExtensions?: unknown[];
    fromMarkdownExtensions?: unknown[];
  };
  (data.micromarkExtensions ??= []).push(
    gfmTaskListItem(),
    ...(withInlines ? [] : [{ disable: { null: INLINE_CONSTRUCTS } }]),
  );
  (data.fromMarkdownExtensions ??= []).push(gfmTaskListItemFromMarkdown());
}

/**
 * Parses markdown into mdast with positions. micromark's cost grows with the size of the whole document times the
 * number of list items (1,000 subtasks took 4 s in one piece), so the body is cut before every column-0 ATX
 * heading, where every open container ends anyway, and before every column-0 bullet item right under a line of
 * text, where every container but the list ends; the pieces are parsed on their own and joined with their positions
 * shifted back, a list cut between its items made one again. Cuts never fall inside frontmatter, fenced code or an
 * HTML comment. With a `cache`, a chunk whose text was parsed before is read from it instead: after an edit, only
 * the chunk of the edited subtask is parsed (a heading's chunk held 20 subtasks and cost 60-70 ms cold).
 */
export function parseMarkdown(body: string, cache?: ChunkCache): Root {
  blocks ??= createProcessor(false);
  const parser = blocks;
  const chunks = splitIntoChunks(body);
  // micromark drops a leading BOM, which would shift every later chunk: such a body is parsed whole.
  if (chunks.length === 1 || body.charCodeAt(0) === 0xfeff)
    return restoreHeadingInlines(parser.parse(body), body);
  const children: RootContent[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i] as Chunk;
    let end = chunk.end;
    let text = body.slice(chunk.offset, end);
    let nodes = parseChunk(parser, text, cache);
    // A block still open at the cut (a fence opened inside a list item, which the scan does not follow) ends where
    // its container does, not at the end of the chunk: the cut was too early, so the next chunk is parsed with it.
    while (i + 1 < chunks.length && endsOpen(nodes, text)) {
      i += 1;
      end = (chunks[i] as Chunk).end;
      text = body.slice(chunk.offset, end);
      nodes = parseChunk(parser, text, cache);
    }
    for (const child of nodes)
      shiftPositions(child, chunk.line - 1, chunk.offset);
    const first = nodes[0];
    const previous = children.at(-1);
    if (
      chunk.list &&
      first?.type === "list" &&
      previous?.type === "list" &&
      continuesList(body, previous, first)
    ) {
      // The same list, cut between two of its items: its items join it, as one parse of both chunks has them.
      previous.children.push(...first.children);
      previous.spread = previous.spread === true || first.spread === true;
      if (previous.position && first.position)
        previous.position.end = first.position.end;
      nodes.shift();
    }
    for (const child of nodes) children.push(child);
  }
  const end = pointAtEnd(body);
  return restoreHeadingInlines(
    {
      type: "root",
      children,
      position: { start: { line: 1, column: 1, offset: 0 }, end },
    },
    body,
  );
}

/**
 * One chunk's nodes, positions relative to the chunk. A chunk's tree depends on its text alone (the cuts fall where
 * every container ends), so a tree stored for the same text is the tree a parse would give; one that does not
 * decode is parsed again.
 */
function parseChunk(
  parser: NonNullable<typeof blocks>,
  text: string,
  cache: ChunkCache | undefined,
): RootContent[] {
  if (cache === undefined) return parser.parse(text).children;
  const stored = cache.get(text);
  const cached = stored === undefined ? null : decodeChunk(stored, text);
  if (cached !== null) return cached;
  const nodes = parser.parse(text).children;
  // Encoded now: the caller shifts the positions in place.
  const encoded = encodeChunk(nodes, text);
  if (encoded !== null) cache.set(text, encoded);
  return nodes;
}

/**
 * Whether the bullet list `next`, which starts a chunk cut right under a line of `previous`, continues it: both
 * unordered with the same bullet. A blank line never precedes such a cut, so joining them adds no looseness; whether
 * either was loose already comes from its own items.
 */
function continuesList(body: string, previous: List, next: List): boolean {
  if (previous.ordered === true || next.ordered === true) return false;
  const bulletAt = (list: List): string => {
    let at = list.position?.start.offset ?? -1;
    while (body.charCodeAt(at) === 32 || body.charCodeAt(at) === 9) at += 1;
    return body.charAt(at);
  };
  return bulletAt(previous) === bulletAt(next);
}

/**
 * Whether the chunk's last block runs to its very end, over the line ending: what an unclosed fence does. Every block
 * a chunk closes ends before the line ending, so this only says that the block is still open at the cut.
 */
function endsOpen(nodes: readonly RootContent[], text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return (
    (last === 10 || last === 13) &&
    nodes.at(-1)?.position?.end.offset === text.length
  );
}

/** The same parse without cutting the body: the reference the chunked parse must always equal. */
export function parseMarkdownWhole(body: string): Root {
  blocks ??= createProcessor(false);
  return restoreHeadingInlines(blocks.parse(body), body);
}

/** micromark with every inline construct: the reference for the heading titles `parseMarkdown` restores. */
export function parseMarkdownWithInlines(body: string): Root {
  inlines ??= createProcessor(true);
  return inlines.parse(body);
}

/**
 * Whether a title may hold an inline construct, so that a parse with every construct could read it otherwise: a
 * backslash escape, or a construct's opening mark with the mark that closes it (two `*`, `_` or backticks, `&` and
 * `;`, `<` and `>`, `[` and `]`, which an image's `![` needs too). `## final_tasks`, in every playbook, holds none.
 */
function mayHoldInlines(title: string): boolean {
  const has = (mark: string) => title.includes(mark);
  const twice = (mark: string) => {
    const first = title.indexOf(mark);
    return first !== -1 && title.indexOf(mark, first + 1) !== -1;
  };
  return (
    has("\\") ||
    twice("*") ||
    twice("_") ||
    twice("`") ||
    (has("&") && has(";")) ||
    (has("<") && has(">")) ||
    (has("[") && has("]"))
  );
}

/**
 * The top-level headings' titles as a parse with every inline construct reads them (`p1: Use \`x\`` reads
 * `p1: Use x`): each such heading is parsed again on its own, which costs little, since a document has few.
 */
function restoreHeadingInlines(root: Root, body: string): Root {
  // micromark drops a leading BOM and counts its offsets without it.
  const counted = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  const children: RootContent[] = [];
  for (const node of root.children) {
    const start = node.position?.start;
    const end = node.position?.end;
    const text =
      start?.offset === undefined || end?.offset === undefined
        ? ""
        : counted.slice(start.offset, end.offset);
    if (node.type !== "heading" || !start || !mayHoldInlines(text)) {
      children.push(node);
      continue;
    }
    const again = parseMarkdownWithInlines(text).children;
    const heading = again[0];
    // A title that does not read the same on its own (one that starts with a BOM, which micromark drops): the
    // document is parsed again with every construct, which is exact and rare.
    if (
      text.charCodeAt(0) === 0xfeff ||
      again.length !== 1 ||
      heading?.type !== "heading"
    )
      return parseMarkdownWithInlines(body);
    for (const child of heading.children) {
      shiftPositions(child, start.line - 1, start.offset ?? 0);
      shiftColumns(child, start.line, start.column - 1);
    }
    children.push({ ...node, children: heading.children } satisfies Heading);
  }
  root.children = children;
  return root;
}

interface Chunk {
  offset: number;
  end: number;
  line: number;
  /** Cut before a bullet item right under a line of text: the item may continue the list the chunk before ends with. */
  list: boolean;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^#{1,6}(?:[ \t]|$)/;

/** CommonMark's HTML block kind 6: block-level tag names, which start a block even inside a paragraph. */
const BLOCK_TAGS = new Set(
  (
    "address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl " +
    "dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend " +
    "li link main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td " +
    "tfoot th thead title tr track ul"
  ).split(" "),
);
const ATTRIBUTE = String.raw`(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>\x60]+|'[^']*'|"[^"]*"))?)`;
/** Kind 7: one complete open or closing tag, alone on its line. */
const LONE_TAG = new RegExp(
  String.raw`^(?:<[A-Za-z][A-Za-z0-9-]*${ATTRIBUTE}*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)\s*$`,
);

/**
 * Where an HTML block that starts on `text` ends (CommonMark's seven kinds): a pattern on a later (or the same)
 * line, or the next blank line. Inside one, a `#` line is HTML, not a heading, so no cut may fall there. Kind 7
 * cannot interrupt a paragraph, so a lone tag after a non-blank line is `ambiguous`.
 */
function htmlBlockEnd(
  text: string,
  afterBlank: boolean,
): RegExp | "blank" | "ambiguous" | null {
  if (!/^ {0,3}</.test(text)) return null;
  const rest = text.replace(/^ +/, "");
  if (/^<(pre|script|style|textarea)(\s|>|$)/i.test(rest))
    return /<\/(pre|script|style|textarea)>/i;
  if (rest.startsWith("<!--")) return /-->/;
  if (rest.startsWith("<?")) return /\?>/;
  if (rest.startsWith("<![CDATA[")) return /\]\]>/;
  if (/^<![A-Za-z]/.test(rest)) return />/;
  const tag = /^<\/?([A-Za-z][A-Za-z0-9-]*)(?:\s|\/?>|$)/.exec(rest)?.[1];
  if (tag !== undefined && BLOCK_TAGS.has(tag.toLowerCase())) return "blank";
  // micromark also takes a lone closing `</pre>` as kind 7. After a blank line it starts a block; after any other
  // line it does unless that line left a paragraph open, which depends on containers.
  if (LONE_TAG.test(rest)) return afterBlank ? "blank" : "ambiguous";
  return null;
}

function splitIntoChunks(body: string): Chunk[] {
  const chunks: Chunk[] = [];
  let chunkStart = 0;
  let chunkLine = 1;
  let chunkList = false;
  let fence: string | null = null;
  let html: RegExp | "blank" | null = null;
  let previousBlank = true;
  // A lone tag after a non-blank line is HTML or paragraph text depending on containers this scan does not
  // follow. Both readings end at the next blank line; until then no cut, and if a fence or an HTML block could
  // open meanwhile, the two readings may never meet again: no more cuts at all.
  let ambiguous = false;
  let poisoned = false;
  let offset = 0;
  let line = 1;
  let inFrontmatter = body.startsWith("---\n") || body.startsWith("---\r\n");
  while (offset < body.length && !poisoned) {
    let next = body.indexOf("\n", offset);
    if (next === -1) next = body.length;
    else next += 1;
    let lineEnd = next;
    if (body.charCodeAt(lineEnd - 1) === 10) {
      lineEnd -= 1;
      if (body.charCodeAt(lineEnd - 1) === 13) lineEnd -= 1;
    }
    const text = body.slice(offset, lineEnd);
    const blank = isBlank(text);
    // Fences, HTML blocks and headings all start with one of these: most lines need no pattern at all.
    const lead = leadingMark(text);
    if (inFrontmatter) {
      if (line > 1 && /^(---|\.\.\.)\s*$/.test(text)) inFrontmatter = false;
    } else if (fence !== null) {
      const close =
        lead === fence.charCodeAt(0) ? FENCE_OPEN.exec(text)?.[1] : undefined;
      if (
        close !== undefined &&
        close[0] === fence[0] &&
        close.length >= fence.length &&
        text.replace(/^[ \t]+|[ \t]+$/g, "") === close
      ) {
        fence = null;
      }
    } else if (html !== null) {
      if (html === "blank" ? blank : html.test(text)) html = null;
    } else if (ambiguous) {
      if (blank) ambiguous = false;
      else if (
        (lead === BACKTICK || lead === TILDE || lead === LESS_THAN) &&
        (FENCE_OPEN.test(text) || isHtmlStart(text))
      )
        poisoned = true;
    } else if (lead === NONE && !text.includes("<!--")) {
      // Plain text: nothing opens, nothing is cut.
    } else {
      const open = FENCE_OPEN.exec(text);
      const htmlEnd = htmlBlockEnd(text, previousBlank);
      if (open) {
        fence = open[1] ?? "```";
      } else if (htmlEnd === "ambiguous") {
        ambiguous = true;
      } else if (htmlEnd !== null) {
        // A block that ends on its own first line (`<!-- note -->`) does not stay open.
        const closesHere =
          htmlEnd !== "blank" &&
          htmlEnd.test(text.slice(text.indexOf("<") + 2));
        if (!closesHere) html = htmlEnd;
      } else if (
        text.includes("<!--") &&
        !text.slice(text.lastIndexOf("<!--")).includes("-->")
      ) {
        // A comment opened mid-line: not an HTML block, but cutting inside it is never needed.
        html = /-->/;
      } else if (HEADING.test(text) && offset > chunkStart) {
        cut(offset, line, false);
      } else if (
        (lead === DASH || lead === STAR || lead === PLUS) &&
        !previousBlank &&
        offset > chunkStart &&
        BULLET_ITEM.test(text)
      ) {
        cut(offset, line, true);
      }
    }
    previousBlank = blank;
    offset = next;
    line += 1;
  }
  chunks.push({
    offset: chunkStart,
    end: body.length,
    line: chunkLine,
    list: chunkList,
  });
  return chunks;

  /** Ends the current chunk before `at` and starts the next there (a list item's chunk joins its list again). */
  function cut(at: number, atLine: number, list: boolean): void {
    chunks.push({
      offset: chunkStart,
      end: at,
      line: chunkLine,
      list: chunkList,
    });
    chunkStart = at;
    chunkLine = atLine;
    chunkList = list;
  }
}

/** A bullet list item with text on its line, at the start of the line; `-` alone could underline a heading. */
const BULLET_ITEM = /^[-*+][ \t]+\S/;
const DASH = 0x2d;
const STAR = 0x2a;
const PLUS = 0x2b;
const BACKTICK = 0x60;
const TILDE = 0x7e;
const LESS_THAN = 0x3c;
const HASH = 0x23;
const NONE = -1;

/**
 * The character after up to three spaces when it may open a fence (`` ` `` or `~`), an HTML block (`<`) or, at the
 * start of the line, a heading (`#`) or a bullet item (`-`, `*`, `+`); else NONE.
 */
function leadingMark(text: string): number {
  let at = 0;
  while (at < 3 && text.charCodeAt(at) === 32) at += 1;
  const code = text.charCodeAt(at);
  if (code === BACKTICK || code === TILDE || code === LESS_THAN) return code;
  if (at > 0) return NONE;
  return code === HASH || code === DASH || code === STAR || code === PLUS
    ? code
    : NONE;
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 32 && code !== 9) return false;
  }
  return true;
}

interface Positioned {
  position?:
    | {
        start: { line: number; offset?: number | undefined };
        end: { line: number; offset?: number | undefined };
      }
    | undefined;
  children?: unknown[];
}

function shiftPositions(node: Positioned, lines: number, offset: number): void {
  if (node.position) {
    node.position.start.line += lines;
    node.position.end.line += lines;
    if (node.position.start.offset !== undefined)
      node.position.start.offset += offset;
    if (node.position.end.offset !== undefined)
      node.position.end.offset += offset;
  }
  const children = node.children;
  if (children === undefined) return;
  for (let i = 0; i < children.length; i++)
    shiftPositions(children[i] as Positioned, lines, offset);
}

/** Moves the points on `line` (the first line of a re-parsed heading) right by `columns`. */
function shiftColumns(node: Positioned, line: number, columns: number): void {
  if (columns === 0) return;
  if (node.position) {
    const { start, end } = node.position as {
      start: { line: number; column: number };
      end: { line: number; column: number };
    };
    if (start.line === line) start.column += columns;
    if (end.line === line) end.column += columns;
  }
  for (const child of node.children ?? [])
    shiftColumns(child as Positioned, line, columns);
}

function pointAtEnd(body: string): {
  line: number;
  column: number;
  offset: number;
} {
  let line = 1;
  let lastBreak = -1;
  for (
    let at = body.indexOf("\n");
    at !== -1;
    at = body.indexOf("\n", at + 1)
  ) {
    line += 1;
    lastBreak = at;
  }
  return { line, column: body.length - lastBreak, offset: body.length };
}

/** Whether `text` would open a fenced code or HTML block of a kind that does not end at a blank line. */
function isHtmlStart(text: string): boolean {
  const end = htmlBlockEnd(text, true);
  return end !== null && end !== "blank" && end !== "ambiguous";
}
