import type { Code } from "mdast";
import type { Diagnostic, Span } from "../model/diagnostic.ts";
import { diagnosticAt } from "../model/diagnostic.ts";
import type { YamlSection } from "../model/state.ts";
import type { ChunkCache } from "./chunk-tree.ts";
import type { Section } from "./sections.ts";
import { pointAt, spanFromNode, spanOf, type Source } from "./source.ts";
import { locateFencedContent, parseYamlBlock } from "./yaml-block.ts";

export interface ReadYamlSection {
  section: YamlSection;
  /** The block's top-level mapping; empty when the block is missing, empty or broken. */
  data: Record<string, unknown>;
}

/**
 * Reads the first fenced yaml block of a `## name` section. `formatDoc` names the template that shows the
 * expected block, for the next step in messages.
 */
export function readYamlSection(
  source: Source,
  section: Section,
  formatDoc: string,
  diagnostics: Diagnostic[],
  cache?: ChunkCache,
): ReadYamlSection {
  const headingSpan = spanFromNode(source, section.heading);
  const span = spanOf(
    source,
    headingSpan.start.offset,
    section.endOffset + source.bomLength,
  );
  const where = `\`## ${section.name}\``;
  const blocks = section.nodes.filter(
    (node): node is Code =>
      node.type === "code" && /^ya?ml$/i.test(node.lang ?? ""),
  );
  const first = blocks[0];
  if (first === undefined) {
    diagnostics.push(
      diagnosticAt(
        source.file,
        headingSpan.start,
        "yaml-block-missing",
        "error",
        `Unexpected ${where} section without a \`\`\`yaml block, expected one fenced yaml block under the heading. Add the block ${formatDoc} shows.`,
      ),
    );
    return {
      section: {
        name: section.name,
        span,
        block: null,
        parsed: false,
        fields: {},
        keys: {},
        items: {},
      },
      data: {},
    };
  }
  for (const extra of blocks.slice(1)) {
    diagnostics.push(
      diagnosticAt(
        source.file,
        spanFromNode(source, extra).start,
        "yaml-block-extra",
        "warning",
        `Unexpected second yaml block in ${where}, expected exactly one; only the first is read. Merge the two blocks.`,
      ),
    );
  }
  return readYamlContent(
    source,
    section.name,
    span,
    spanFromNode(source, first),
    where,
    formatDoc,
    diagnostics,
    cache,
  );
}

/**
 * Reads YAML between fences (a fenced block or frontmatter) whose node covers `nodeSpan`, inside `span`; `cache` keeps
 * the reading of a clean block (`parseYamlBlock`).
 */
export function readYamlContent(
  source: Source,
  name: string,
  span: Span,
  nodeSpan: Span,
  where: string,
  formatDoc: string,
  diagnostics: Diagnostic[],
  cache?: ChunkCache,
): ReadYamlSection {
  const { contentStart, contentEnd } = locateFencedContent(
    source,
    nodeSpan.start.offset,
    nodeSpan.end.offset,
    where,
    diagnostics,
  );
  const block = parseYamlBlock(
    source,
    contentStart,
    contentEnd,
    where,
    formatDoc,
    diagnostics,
    cache,
  );
  const section: YamlSection = {
    name,
    span,
    block: block.block,
    parsed: false,
    fields: block.fields,
    keys: block.keys,
    items: block.items,
  };
  if (block.data === undefined) return { section, data: {} };
  if (block.data === null)
    return { section: { ...section, parsed: true }, data: {} };
  if (typeof block.data !== "object" || Array.isArray(block.data)) {
    diagnostics.push(
      diagnosticAt(
        source.file,
        pointAt(source, contentStart),
        "yaml-not-mapping",
        "error",
        `Unexpected ${Array.isArray(block.data) ? "list" : "plain value"} in the ${where} block, expected \`key: value\` lines. Rewrite the block as a mapping.`,
      ),
    );
    return { section, data: {} };
  }
  return {
    section: { ...section, parsed: true },
    data: block.data as Record<string, unknown>,
  };
}
