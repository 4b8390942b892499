import type { Code } from "mdast";
import type { Diagnostic, Span } from "../model/diagnostic.ts";
import { diagnosticAt } from "../model/diagnostic.ts";
import type { YamlSection } from "../model/state.ts";
import type { Section } from "./sections.ts";
import { pointAt, spanFromNode, spanOf, type Source } from "./source.ts";
import { locateFencedContent, parseYamlBlock } from "./yaml-block.ts";

export interface ReadYamlSection {
  section: YamlSection;
  /** The block's top-level mapping; empty when the block is missing, empty or broken. */
  data: Record<string, unknown>;
}

/** Reads the first fenced yaml block of a `## name` section of `file`. */
export function readYamlSection(
  source: Source,
  section: Section,
  diagnostics: Diagnostic[],
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
        `Unexpected ${where} section without a \`\`\`yaml block, expected one fenced yaml block under the heading. Add the block shown in plan/template/playbook-format.md.`,
      ),
    );
    return {
      section: { name: section.name, span, block: null, fields: {} },
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
  const nodeSpan = spanFromNode(source, first);
  return readYamlContent(source, section.name, nodeSpan, where, diagnostics);
}

/** Reads YAML between fences (a fenced block or frontmatter) whose whole node covers `nodeSpan`. */
export function readYamlContent(
  source: Source,
  name: string,
  nodeSpan: Span,
  where: string,
  diagnostics: Diagnostic[],
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
    diagnostics,
  );
  const section: YamlSection = {
    name,
    span: nodeSpan,
    block: block.block,
    fields: block.fields,
  };
  if (block.data === undefined || block.data === null)
    return { section, data: {} };
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
  return { section, data: block.data as Record<string, unknown> };
}
