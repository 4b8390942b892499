import type { Root, RootContent } from "mdast";
import { gfmTaskListItemFromMarkdown } from "mdast-util-gfm-task-list-item";
import { gfmTaskListItem } from "micromark-extension-gfm-task-list-item";
import remarkFrontmatter from "remark-frontmatter";
import remarkParse from "remark-parse";
import { unified, type Processor } from "unified";

let processor: ReturnType<typeof createProcessor> | undefined;

function createProcessor() {
  return unified()
    .use(remarkParse)
    .use(remarkTaskLists)
    .use(remarkFrontmatter, ["yaml"]);
}

/**
 * GFM task list items (`- [ ]`, `- [x]`, `- [X]`), the one GFM construct playbooks use. These are the packages
 * remark-gfm is built from; its tables, autolink literals, footnotes and strikethrough cost ~30% of parse time
 * on a playbook and nothing here reads them.
 */
function remarkTaskLists(this: Processor): void {
  const data = this.data() as {
    micromarkExtensions?: unknown[];
    fromMarkdownExtensions?: unknown[];
  };
  (data.micromarkExtensions ??= []).push(gfmTaskListItem());
  (data.fromMarkdownExtensions ??= []).push(gfmTaskListItemFromMarkdown());
}

/**
 * Parses markdown into mdast with positions. micromark's cost grows with the size of the whole document times the
 * number of list items (1,000 subtasks took 4 s in one piece), so the body is cut before every column-0 ATX
 * heading, where every open container ends anyway, and the pieces are parsed on their own and joined with their
 * positions shifted back. Cuts never fall inside frontmatter, fenced code or an HTML comment.
 */
export function parseMarkdown(body: string): Root {
  processor ??= createProcessor();
  const parser = processor;
  const chunks = splitAtHeadings(body);
  // micromark drops a leading BOM, which would shift every later chunk: such a body is parsed whole.
  if (chunks.length === 1 || body.charCodeAt(0) === 0xfeff)
    return parser.parse(body);
  const children: RootContent[] = [];
  for (const chunk of chunks) {
    const tree = parser.parse(body.slice(chunk.offset, chunk.end));
    for (const child of tree.children) {
      shiftPositions(child, chunk.line - 1, chunk.offset);
      children.push(child);
    }
  }
  const end = pointAtEnd(body);
  return {
    type: "root",
    children,
    position: { start: { line: 1, column: 1, offset: 0 }, end },
  };
}

/** The same parse without cutting the body: the reference the chunked parse must always equal. */
export function parseMarkdownWhole(body: string): Root {
  processor ??= createProcessor();
  return processor.parse(body);
}

interface Chunk {
  offset: number;
  end: number;
  line: number;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^#{1,6}(?:[ \t]|$)/;

/**
 * Where an HTML block that starts on `text` ends (CommonMark's seven kinds): a pattern on a later (or the same)
 * line, or the next blank line. Inside one, a `#` line is HTML, not a heading, so no cut may fall there.
 */
function htmlBlockEnd(text: string): RegExp | "blank" | null {
  if (!/^ {0,3}</.test(text)) return null;
  const rest = text.replace(/^ +/, "");
  if (/^<(pre|script|style|textarea)(\s|>|$)/i.test(rest))
    return /<\/(pre|script|style|textarea)>/i;
  if (rest.startsWith("<!--")) return /-->/;
  if (rest.startsWith("<?")) return /\?>/;
  if (rest.startsWith("<![CDATA[")) return /\]\]>/;
  if (/^<![A-Za-z]/.test(rest)) return />/;
  if (/^<\/?[A-Za-z][A-Za-z0-9-]*(\s|\/?>|$)/.test(rest)) return "blank";
  return null;
}

function splitAtHeadings(body: string): Chunk[] {
  const chunks: Chunk[] = [];
  let chunkStart = 0;
  let chunkLine = 1;
  let fence: string | null = null;
  let html: RegExp | "blank" | null = null;
  let offset = 0;
  let line = 1;
  let inFrontmatter = body.startsWith("---\n") || body.startsWith("---\r\n");
  while (offset < body.length) {
    let next = body.indexOf("\n", offset);
    if (next === -1) next = body.length;
    else next += 1;
    const text = body.slice(offset, next).replace(/\r?\n$/, "");
    if (inFrontmatter) {
      if (line > 1 && /^(---|\.\.\.)\s*$/.test(text)) inFrontmatter = false;
    } else if (fence !== null) {
      const close = FENCE_OPEN.exec(text)?.[1];
      if (
        close !== undefined &&
        close[0] === fence[0] &&
        close.length >= fence.length &&
        text.replace(/^[ \t]+|[ \t]+$/g, "") === close
      ) {
        fence = null;
      }
    } else if (html !== null) {
      if (html === "blank" ? /^[ \t]*$/.test(text) : html.test(text))
        html = null;
    } else {
      const open = FENCE_OPEN.exec(text);
      const htmlEnd = htmlBlockEnd(text);
      if (open) {
        fence = open[1] ?? "```";
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
        chunks.push({ offset: chunkStart, end: offset, line: chunkLine });
        chunkStart = offset;
        chunkLine = line;
      }
    }
    offset = next;
    line += 1;
  }
  chunks.push({ offset: chunkStart, end: body.length, line: chunkLine });
  return chunks;
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
  for (const child of node.children ?? [])
    shiftPositions(child as Positioned, lines, offset);
}

function pointAtEnd(body: string): {
  line: number;
  column: number;
  offset: number;
} {
  let line = 1;
  let lastBreak = -1;
  for (let i = 0; i < body.length; i++) {
    if (body.charCodeAt(i) === 10) {
      line += 1;
      lastBreak = i;
    }
  }
  return { line, column: body.length - lastBreak, offset: body.length };
}
