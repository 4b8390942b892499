import type { RootContent } from "mdast";

/**
 * Where the chunked parse keeps the trees of chunks it parsed before, such as a file in the runtime folder. `get`
 * returns what `set` was given for the same chunk text; whatever comes back is checked before it is used, and
 * anything that does not read as a tree of exactly that text is parsed again.
 */
export interface ChunkCache {
  get(text: string): unknown;
  set(text: string, stored: unknown): void;
}

type Field = "string" | "string?" | "boolean" | "boolean?" | "int?" | "depth";

/**
 * Every node the parse without inline constructs makes, with its fields in the order mdast-util-from-markdown
 * creates them, and whether it has children. A node of any other shape is not stored, and a stored node of any other
 * shape is not read.
 */
const SHAPES: Readonly<
  Record<string, { fields: readonly [string, Field][]; parent: boolean }>
> = {
  blockquote: { fields: [], parent: true },
  break: { fields: [], parent: false },
  code: {
    fields: [
      ["lang", "string?"],
      ["meta", "string?"],
      ["value", "string"],
    ],
    parent: false,
  },
  definition: {
    fields: [
      ["identifier", "string"],
      ["label", "string?"],
      ["title", "string?"],
      ["url", "string"],
    ],
    parent: false,
  },
  heading: { fields: [["depth", "depth"]], parent: true },
  html: { fields: [["value", "string"]], parent: false },
  list: {
    fields: [
      ["ordered", "boolean"],
      ["start", "int?"],
      ["spread", "boolean"],
    ],
    parent: true,
  },
  listItem: {
    fields: [
      ["spread", "boolean"],
      ["checked", "boolean?"],
    ],
    parent: true,
  },
  paragraph: { fields: [], parent: true },
  text: { fields: [["value", "string"]], parent: false },
  thematicBreak: { fields: [], parent: false },
  yaml: { fields: [["value", "string"]], parent: false },
};

/** A stored node: `[type, start offset, end offset, ...fields, children?]`, offsets within the chunk's text. */
type StoredNode = unknown[];

/**
 * The chunk's tree in a compact form for a cache: line and column are left out, since they follow from the offset
 * and the text. Returns null for a tree that would not come back exactly (a node of an unknown shape, or a point
 * whose line or column is not the one its offset gives), which is then simply not stored.
 */
export function encodeChunk(
  nodes: readonly RootContent[],
  text: string,
): StoredNode[] | null {
  const lines = new Lines(text);
  const encode = (node: unknown): StoredNode | null => {
    const n = node as Record<string, unknown> & {
      type: string;
      position?: { start: unknown; end: unknown };
      children?: unknown[];
    };
    const shape = shapeOf(n.type);
    if (!shape || !n.position) return null;
    const keys = Object.keys(n);
    const expected = 2 + shape.fields.length + (shape.parent ? 1 : 0);
    if (keys.length !== expected) return null;
    const start = lines.offsetOf(n.position.start);
    if (start === null) return null;
    const out: StoredNode = [n.type, start, 0];
    for (const [name, kind] of shape.fields) {
      if (!(name in n) || !fits(n[name], kind)) return null;
      out.push(n[name]);
    }
    if (shape.parent) {
      if (!Array.isArray(n.children)) return null;
      const children = encodeAll(n.children);
      if (children === null) return null;
      out.push(children);
    }
    const end = lines.offsetOf(n.position.end);
    if (
      end === null ||
      start > end ||
      end > text.length ||
      !anchored(n.type, n["value"], start, end, text)
    )
      return null;
    out[2] = end;
    return out;
  };
  const encodeAll = (list: readonly unknown[]): StoredNode[] | null => {
    const out: StoredNode[] = [];
    for (let i = 0; i < list.length; i++) {
      const stored = encode(list[i]);
      if (stored === null) return null;
      out.push(stored);
    }
    return out;
  };
  const out = encodeAll(nodes);
  return out !== null && covers(out, text) ? out : null;
}

/**
 * The tree `encodeChunk` stored for `text`, or null when `stored` is not one: not an array of nodes of known shapes
 * with whole-number offsets inside the text, top-level nodes that leave out more than blank space, or a text whose
 * first and last characters are not the ones at its offsets (a tree stored for other text). Lines and columns are computed from `text`, so a position never points
 * outside the chunk it is read for. Indexed loops: this runs once per process, before the JIT has warmed up.
 */
export function decodeChunk(
  stored: unknown,
  text: string,
): RootContent[] | null {
  const lines = new Lines(text);
  const decode = (input: unknown): Record<string, unknown> | null => {
    if (!Array.isArray(input)) return null;
    const value = input as unknown[];
    const type = value[0];
    const shape = shapeOf(type);
    if (!shape) return null;
    const fields = shape.fields;
    const start = value[1];
    const end = value[2];
    if (
      value.length !== 3 + fields.length + (shape.parent ? 1 : 0) ||
      typeof start !== "number" ||
      typeof end !== "number" ||
      !Number.isInteger(start) ||
      !Number.isInteger(end) ||
      start < 0 ||
      start > end ||
      end > text.length
    )
      return null;
    const node: Record<string, unknown> = { type };
    for (let i = 0; i < fields.length; i++) {
      const [name, kind] = fields[i] as [string, Field];
      const field: unknown = value[3 + i];
      if (!fits(field, kind)) return null;
      node[name] = field;
    }
    if (!anchored(type as string, node["value"], start, end, text)) return null;
    // Points in document order (start, the children, end), so the line lookup only moves forward.
    const from = lines.pointOf(start);
    if (shape.parent) {
      const children = decodeAll(value[3 + fields.length]);
      if (children === null) return null;
      node["children"] = children;
    }
    node["position"] = { start: from, end: lines.pointOf(end) };
    return node;
  };
  const decodeAll = (input: unknown): Record<string, unknown>[] | null => {
    if (!Array.isArray(input)) return null;
    const list = input as unknown[];
    const out: Record<string, unknown>[] = [];
    for (let i = 0; i < list.length; i++) {
      const node = decode(list[i]);
      if (node === null) return null;
      out.push(node);
    }
    return out;
  };
  if (!Array.isArray(stored) || !covers(stored as StoredNode[], text))
    return null;
  return decodeAll(stored) as RootContent[] | null;
}

/**
 * Whether the top-level nodes follow one another and leave out nothing but blank space: every other character of a
 * chunk belongs to some block. A tree stored for other text, or an empty one, rarely does.
 */
function covers(nodes: readonly unknown[], text: string): boolean {
  let at = 0;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (!Array.isArray(node)) return false;
    const start: unknown = node[1];
    const end: unknown = node[2];
    if (typeof start !== "number" || typeof end !== "number" || start < at)
      return false;
    if (!blank(text, at, start)) return false;
    at = end;
  }
  return blank(text, at, text.length);
}

/** Only spaces, tabs and line endings between `from` and `to`: what markdown counts as blank. */
function blank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) return false;
  }
  return true;
}

/** A shape only for a type that is an own key: `constructor` or `__proto__` is not a node. */
function shapeOf(type: unknown): (typeof SHAPES)[string] | undefined {
  return typeof type === "string" && Object.hasOwn(SHAPES, type)
    ? SHAPES[type]
    : undefined;
}

/**
 * Whether a text or HTML node's value starts and ends with the characters at its offsets, as one read from `text`
 * does: a tree stored for other text almost never passes.
 */
function anchored(
  type: string,
  value: unknown,
  start: number,
  end: number,
  text: string,
): boolean {
  if ((type !== "text" && type !== "html") || typeof value !== "string")
    return true;
  if (value === "") return true;
  return (
    value.charCodeAt(0) === text.charCodeAt(start) &&
    value.charCodeAt(value.length - 1) === text.charCodeAt(end - 1)
  );
}

function fits(value: unknown, kind: Field): boolean {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "string?":
      return value === null || typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "boolean?":
      return value === null || typeof value === "boolean";
    case "int?":
      return value === null || Number.isSafeInteger(value);
    case "depth":
      return (
        value === 1 ||
        value === 2 ||
        value === 3 ||
        value === 4 ||
        value === 5 ||
        value === 6
      );
  }
}

/** Line and column of offsets in one chunk; micromark ends a line at `\r\n`, `\n` or a lone `\r`. */
class Lines {
  private readonly starts: number[] = [0];
  /** The line of the last lookup: lookups in document order only move forward. */
  private index = 0;

  constructor(text: string) {
    // indexOf when there is no `\r`, which is nearly always: a loop over every character is slow before the JIT
    // has warmed up.
    if (!text.includes("\r")) {
      for (
        let at = text.indexOf("\n");
        at !== -1;
        at = text.indexOf("\n", at + 1)
      )
        this.starts.push(at + 1);
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 10 || (code === 13 && text.charCodeAt(i + 1) !== 10))
        this.starts.push(i + 1);
    }
  }

  pointOf(offset: number): { line: number; column: number; offset: number } {
    const index = this.indexOf(offset);
    return {
      line: index + 1,
      column: offset - (this.starts[index] ?? 0) + 1,
      offset,
    };
  }

  /** The 0-based line of `offset`. */
  private indexOf(offset: number): number {
    const starts = this.starts;
    let index = this.index;
    if ((starts[index] ?? 0) > offset) {
      let high = index;
      index = 0;
      while (index < high) {
        const mid = (index + high + 1) >> 1;
        if ((starts[mid] ?? 0) <= offset) index = mid;
        else high = mid - 1;
      }
    }
    while (index + 1 < starts.length && (starts[index + 1] ?? 0) <= offset)
      index += 1;
    this.index = index;
    return index;
  }

  /** The point's offset when its line and column are the ones the offset gives, else null. */
  offsetOf(point: unknown): number | null {
    const p = point as { line?: unknown; column?: unknown; offset?: unknown };
    if (
      typeof point !== "object" ||
      point === null ||
      Object.keys(point).length !== 3 ||
      typeof p.offset !== "number" ||
      !Number.isInteger(p.offset)
    )
      return null;
    const index = this.indexOf(p.offset);
    return p.line === index + 1 &&
      p.column === p.offset - (this.starts[index] ?? 0) + 1
      ? p.offset
      : null;
  }
}
