import type { Heading, Root, RootContent } from "mdast";

export interface Section {
  /** Heading text, lower-cased and trimmed: `## Final Tasks` gives `final tasks`. */
  name: string;
  heading: Heading;
  nodes: RootContent[];
  /** Offset (in the parser's body) where the section ends: the next heading of the same or higher level. */
  endOffset: number;
}

/** Splits `nodes` at headings of `depth` (and stops at shallower ones). Nodes before the first heading are skipped. */
export function splitSections(
  nodes: readonly RootContent[],
  depth: number,
  endOffset: number,
): Section[] {
  const sections: Section[] = [];
  let current: Section | undefined;
  for (const node of nodes) {
    if (
      node.type === "heading" &&
      node.depth <= depth &&
      !isSetextHeading(node)
    ) {
      if (current) current.endOffset = node.position?.start.offset ?? endOffset;
      current = undefined;
      if (node.depth === depth) {
        current = {
          name: normaliseName(plainText(node)),
          heading: node,
          nodes: [],
          endOffset,
        };
        sections.push(current);
      }
      continue;
    }
    current?.nodes.push(node);
  }
  return sections;
}

export function rootEnd(root: Root): number {
  return root.position?.end.offset ?? 0;
}

function normaliseName(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, " ");
}

/** The plain text of a node: the concatenated values of its descendants. */
export function plainText(node: unknown): string {
  if (typeof node !== "object" || node === null) return "";
  const value = (node as { value?: unknown }).value;
  if (typeof value === "string") return value;
  const children = (node as { children?: unknown }).children;
  if (!Array.isArray(children)) return "";
  return children.map(plainText).join("");
}

/**
 * A heading written as a line with `---` or `===` under it. Playbooks use `#` headings only, so this is almost
 * always a label or a sentence directly above a `---` separator; it never starts a section.
 */
export function isSetextHeading(node: Heading): boolean {
  return (node.position?.start.line ?? 0) !== (node.position?.end.line ?? 0);
}

/** Warns about every top-level setext heading: the line above `---` is not what the user meant it to be. */
export function findSetextHeadings(root: Root): Heading[] {
  return root.children.filter(
    (node): node is Heading => node.type === "heading" && isSetextHeading(node),
  );
}
