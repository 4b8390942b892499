import {
  applyEdits,
  createScanner,
  findNodeAtLocation,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type FormattingOptions,
  type JSONPath,
  type ParseError,
} from "jsonc-parser";
import {
  addBoundary,
  removeBoundary,
  syncLocalBoundary,
  type BoundaryRecord,
} from "./boundary-settings.ts";
import type { LocalBoundaryRecord } from "./local-boundary-record.ts";
import type { SecurityMode } from "../model/state.ts";
import {
  HOOK_EVENTS,
  hookHandler,
  isPlaybookHandler,
  statusLineSetting,
} from "./hook-settings.ts";

export type SettingsEdit =
  | {
      ok: true;
      text: string;
      changed: boolean;
      notes: string[];
      /** What the boundary added (null when this edit leaves none). */
      boundary: BoundaryRecord | null;
    }
  | { ok: false; line: number; column: number; problem: string };

type Json = Record<string, unknown>;

/**
 * `.claude/settings.json` with playbook's hooks: one handler per event (added once, however often init runs), the
 * user's own hooks, keys, comments and order kept, playbook's older handlers (another path, another event) replaced.
 * The status line is set only when the user has none. `text` null means the file does not exist yet. With `boundary`,
 * the sandbox and the file-tool rules of the trust boundary are added too (see `addBoundary`).
 */
export function planSettingsMerge(
  text: string | null,
  hookPath: string,
  knownPaths: readonly string[],
  boundary?: {
    mode: SecurityMode;
    prior: BoundaryRecord | undefined;
    allowWrite?: readonly string[];
  },
): SettingsEdit {
  const start = text ?? "{}\n";
  const read = readSettings(start);
  if (!read.ok) return read;
  const editor = createEditor(start);
  const ours = [...knownPaths, hookPath];
  const notes: string[] = [];
  const hooks = read.json["hooks"];
  const current = isObject(hooks) ? hooks : {};
  for (const [event, groups] of Object.entries(current)) {
    if (!Array.isArray(groups)) continue;
    const wanted = HOOK_EVENTS.find((e) => e.event === event);
    const desired = wanted
      ? hookHandler(hookPath, event, wanted.timeout)
      : undefined;
    const found = findOurs(groups, ours);
    const exact =
      desired &&
      found.length === 1 &&
      found[0]?.whole === true &&
      sameJson(found[0].handler, desired);
    if (exact || found.length === 0) continue;
    removeOurs(editor, event, groups, found);
    const left = editor.read(["hooks", event]);
    if (!wanted && Array.isArray(left) && left.length === 0)
      editor.set(["hooks", event], undefined);
  }
  for (const { event, timeout } of HOOK_EVENTS) {
    const desired = hookHandler(hookPath, event, timeout);
    const groups = current[event];
    if (Array.isArray(groups)) {
      const found = findOurs(groups, ours);
      if (
        found.length === 1 &&
        found[0]?.whole === true &&
        sameJson(found[0].handler, desired)
      )
        continue;
      const left = editor.read(["hooks", event]);
      editor.set(
        ["hooks", event, Array.isArray(left) ? left.length : 0],
        { hooks: [desired] },
        true,
      );
    } else editor.set(["hooks", event], [{ hooks: [desired] }]);
  }
  const statusLine = read.json["statusLine"];
  const ourLine = statusLineSetting(hookPath);
  if (statusLine === undefined) editor.set(["statusLine"], ourLine);
  else if (isPlaybookHandler(statusLine, ours)) {
    if (!sameJson(statusLine, ourLine)) editor.set(["statusLine"], ourLine);
  } else
    notes.push(`kept your statusLine; playbook's is \`${ourLine.command}\``);
  let record: BoundaryRecord | null = null;
  if (boundary) {
    const added = addBoundary(
      editor,
      boundary.mode,
      boundary.prior,
      boundary.allowWrite,
    );
    record = added.record;
    notes.push(...added.notes);
  }
  return {
    ok: true,
    text: editor.text,
    changed: editor.text !== start,
    notes,
    boundary: record,
  };
}

/** `.claude/settings.json` with the boundary alone (the plugin brings the hooks); `text` null: no file yet. */
export function planBoundaryMerge(
  text: string | null,
  boundary: {
    mode: SecurityMode;
    prior: BoundaryRecord | undefined;
    allowWrite?: readonly string[];
  },
): SettingsEdit {
  const start = text ?? "{}\n";
  const read = readSettings(start);
  if (!read.ok) return read;
  const editor = createEditor(start);
  const added = addBoundary(
    editor,
    boundary.mode,
    boundary.prior,
    boundary.allowWrite,
  );
  return {
    ok: true,
    text: editor.text,
    changed: editor.text !== start,
    notes: added.notes,
    boundary: added.record,
  };
}

/** `.claude/settings.json` without playbook's handlers and status line; containers left empty by that go too. */
export function planSettingsRemoval(
  text: string,
  knownPaths: readonly string[],
  boundary?: BoundaryRecord,
): SettingsEdit {
  const read = readSettings(text);
  if (!read.ok) return read;
  const editor = createEditor(text);
  const hooks = read.json["hooks"];
  if (isObject(hooks)) {
    let emptied = 0;
    const events = Object.entries(hooks);
    for (const [event, groups] of events) {
      if (!Array.isArray(groups)) continue;
      const found = findOurs(groups, knownPaths);
      if (found.length === 0) continue;
      removeOurs(editor, event, groups, found);
      const left = editor.read(["hooks", event]);
      if (Array.isArray(left) && left.length === 0) {
        editor.set(["hooks", event], undefined);
        emptied++;
      }
    }
    if (emptied > 0 && emptied === events.length)
      editor.set(["hooks"], undefined);
  }
  if (isPlaybookHandler(read.json["statusLine"], knownPaths))
    editor.set(["statusLine"], undefined);
  if (boundary) removeBoundary(editor, boundary);
  return {
    ok: true,
    text: editor.text,
    changed: editor.text !== text,
    notes: [],
    boundary: null,
  };
}

interface FoundHandler {
  group: number;
  index: number;
  handler: unknown;
  /** The group holds nothing but playbook's handlers (and no matcher of the user's), so it goes as a whole. */
  whole: boolean;
}

function findOurs(groups: unknown[], paths: readonly string[]): FoundHandler[] {
  const found: FoundHandler[] = [];
  groups.forEach((group, g) => {
    if (!isObject(group) || !Array.isArray(group["hooks"])) return;
    const handlers = group["hooks"] as unknown[];
    const mine = handlers
      .map((handler, index) => ({ handler, index }))
      .filter(({ handler }) => isPlaybookHandler(handler, paths));
    const whole =
      mine.length === handlers.length && group["matcher"] === undefined;
    for (const { handler, index } of mine)
      found.push({ group: g, index, handler, whole });
  });
  return found;
}

/** Removes the found handlers, last first so earlier indexes stay valid; a group of only ours goes whole. */
function removeOurs(
  editor: Editor,
  event: string,
  groups: unknown[],
  found: FoundHandler[],
): void {
  const byGroup = new Map<number, FoundHandler[]>();
  for (const f of found)
    byGroup.set(f.group, [...(byGroup.get(f.group) ?? []), f]);
  for (const g of [...byGroup.keys()].sort((a, b) => b - a)) {
    const list = byGroup.get(g) ?? [];
    const group = groups[g] as Json;
    const all = (group["hooks"] as unknown[]).length === list.length;
    if (all && group["matcher"] === undefined)
      editor.set(["hooks", event, g], undefined);
    else
      for (const f of [...list].sort((a, b) => b.index - a.index))
        editor.set(["hooks", event, g, "hooks", f.index], undefined);
  }
}

interface Editor {
  text: string;
  read(path: JSONPath): unknown;
  set(path: JSONPath, value: unknown, insert?: boolean): void;
}

function createEditor(initial: string): Editor {
  const formatting = detectFormatting(initial);
  const editor: Editor = {
    text: initial,
    read(path) {
      let node: unknown = parse(editor.text);
      for (const key of path) {
        if (node === null || typeof node !== "object") return undefined;
        node = (node as Record<string | number, unknown>)[key];
      }
      return node;
    },
    set(path, value, insert = false) {
      const removed =
        value === undefined ? removeKeepingComments(editor.text, path) : null;
      if (removed !== null) {
        editor.text = removed;
        return;
      }
      const added = addWithoutReformatting(
        editor.text,
        path,
        value,
        formatting,
      );
      if (added !== null) {
        editor.text = added;
        return;
      }
      const edits = modify(editor.text, path, value, {
        formattingOptions: formatting,
        isArrayInsertion: insert,
      });
      editor.text = applyEdits(editor.text, edits);
    },
  };
  return editor;
}

function readSettings(
  text: string,
): { ok: true; json: Json } | Extract<SettingsEdit, { ok: false }> {
  const errors: ParseError[] = [];
  const json: unknown = parse(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) {
    const at = positionOf(text, first.offset);
    return {
      ok: false,
      ...at,
      problem: `it is not valid JSON (${printParseErrorCode(first.error)})`,
    };
  }
  if (!isObject(json))
    return {
      ok: false,
      line: 1,
      column: 1,
      problem: "it is not a JSON object",
    };
  const hooks = json["hooks"];
  if (hooks !== undefined && !isObject(hooks))
    return {
      ok: false,
      ...positionOf(text, text.indexOf('"hooks"')),
      problem: '"hooks" is not an object',
    };
  for (const [event, groups] of Object.entries(isObject(hooks) ? hooks : {}))
    if (!Array.isArray(groups))
      return {
        ok: false,
        ...positionOf(text, text.indexOf(`"${event}"`)),
        problem: `"hooks.${event}" is not a list`,
      };
  const shapes: [string[], "object" | "list"][] = [
    [["sandbox"], "object"],
    [["sandbox", "filesystem"], "object"],
    [["sandbox", "filesystem", "denyWrite"], "list"],
    [["permissions"], "object"],
    [["permissions", "deny"], "list"],
  ];
  for (const [path, shape] of shapes) {
    let value: unknown = json;
    for (const key of path) value = isObject(value) ? value[key] : undefined;
    if (value === undefined) continue;
    if (shape === "object" ? isObject(value) : Array.isArray(value)) continue;
    return {
      ok: false,
      ...positionOf(text, text.indexOf(`"${path.at(-1) ?? ""}"`)),
      problem: `"${path.join(".")}" is not ${shape === "object" ? "an object" : "a list"}`,
    };
  }
  return { ok: true, json };
}

/**
 * `text` with `value` added after the last element of the non-empty array or object that holds `path` (an array's
 * next index, or an object's missing key), without touching what is already there: jsonc-parser's formatter would
 * re-indent the whole line the edit starts on, rewriting the user's own entries. A one-line container stays one
 * line; otherwise the new element gets the last element's indentation. Null when the container is missing or empty,
 * or the key exists (the ordinary edit is fine there).
 */
function addWithoutReformatting(
  text: string,
  path: JSONPath,
  value: unknown,
  formatting: FormattingOptions,
): string | null {
  const tree = parseTree(text);
  if (!tree || value === undefined || path.length === 0) return null;
  // A missing parent (`hooks` in a file without it) is added whole, at the deepest level that exists.
  let at = path.length - 1;
  let container = findNodeAtLocation(tree, path.slice(0, at));
  while (!container && at > 0) {
    const missing = path[at];
    if (typeof missing !== "string") return null;
    value = { [missing]: value };
    at -= 1;
    container = findNodeAtLocation(tree, path.slice(0, at));
  }
  const key = path[at];
  if (!container) return null;
  if (container.type === "object") {
    if (typeof key !== "string" || findNodeAtLocation(container, [key]))
      return null;
  } else if (container.type !== "array" || typeof key !== "number") return null;
  const last = container.children?.at(-1);
  if (!last) return null;
  const end = last.offset + last.length;
  // A trailing comma (which JSONC tolerates) would make ours a second one.
  if (/^\s*,/.test(text.slice(end))) return null;
  const oneLine = !text.slice(container.offset, end).includes("\n");
  const lineStart = text.lastIndexOf("\n", last.offset) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, last.offset))?.[0] ?? "";
  const unit = formatting.insertSpaces
    ? " ".repeat(formatting.tabSize ?? 2)
    : "\t";
  const eol = formatting.eol ?? "\n";
  const name = typeof key === "string" ? `${JSON.stringify(key)}: ` : "";
  const body = JSON.stringify(value, null, unit)
    .split("\n")
    .join(`${eol}${indent}`);
  if (oneLine)
    return `${text.slice(0, end)}, ${name}${JSON.stringify(value)}${text.slice(end)}`;
  // A comment after the last element stays with it: the new element starts on the next line.
  const lineEnd = text.indexOf("\n", end);
  const rest = text.slice(end, lineEnd === -1 ? text.length : lineEnd);
  const after = /^\s*(?:\/\/.*|\/\*.*\*\/\s*)$/.test(rest)
    ? end + rest.length
    : end;
  return `${text.slice(0, end)},${text.slice(end, after)}${eol}${indent}${name}${body}${text.slice(after)}`;
}

/**
 * `text` without the member at `path` (a key of an object, an element of an array) and the comma that separates it
 * from a neighbour: the member's own lines go whole, while comments on other members' lines stay (jsonc-parser
 * deletes from the previous member's comma on, a comment after it included). Null for an only member or an
 * unusual layout (the ordinary edit is fine there).
 */
function removeKeepingComments(text: string, path: JSONPath): string | null {
  const tree = parseTree(text);
  const node = tree ? findNodeAtLocation(tree, path) : undefined;
  const member = node?.parent?.type === "property" ? node.parent : node;
  const siblings = member?.parent?.children ?? [];
  const index = member ? siblings.indexOf(member) : -1;
  if (!member || index < 0 || siblings.length < 2) return null;
  const commaAfter = (offset: number) => {
    // The first token after `offset`, comments and whitespace skipped.
    const scanner = createScanner(text, true);
    scanner.setPosition(offset);
    scanner.scan();
    const at = scanner.getTokenOffset();
    return text[at] === "," ? at : -1;
  };
  const memberEnd = member.offset + member.length;
  const next = siblings[index + 1];
  let start: number;
  let end: number;
  let comma: number;
  if (next) {
    comma = commaAfter(memberEnd);
    start = member.offset;
    end = comma + 1;
  } else {
    const previous = siblings[index - 1]!;
    comma = commaAfter(previous.offset + previous.length);
    start = member.offset;
    end = memberEnd;
  }
  if (comma < 0) return null;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const lineEnd = text.indexOf("\n", end);
  // The member's own lines go whole when nothing else shares them.
  if (
    lineStart > (next ? -1 : comma) &&
    /^[ \t]*$/.test(text.slice(lineStart, start)) &&
    lineEnd !== -1 &&
    /^[ \t]*\r?$/.test(text.slice(end, lineEnd))
  ) {
    start = lineStart;
    end = lineEnd + 1;
  } else if (next) {
    // On a shared line, the space after the comma goes too: `[ours, mine]` becomes `[mine]`.
    end += /^[ \t]*/.exec(text.slice(end))?.[0].length ?? 0;
  } else if (/^[ \t]*$/.test(text.slice(comma + 1, start))) {
    start = comma + 1;
  }
  return next
    ? text.slice(0, start) + text.slice(end)
    : text.slice(0, comma) + text.slice(comma + 1, start) + text.slice(end);
}

function detectFormatting(text: string): FormattingOptions {
  const indented = /^([ \t]+)\S/m.exec(text)?.[1] ?? "  ";
  return {
    insertSpaces: !indented.startsWith("\t"),
    tabSize: indented.startsWith("\t") ? 1 : indented.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

function positionOf(
  text: string,
  offset: number,
): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * `.claude/settings.local.json` with the hook's derived lists (see `syncLocalBoundary`); `text` null: no file yet.
 * The file is this machine's: Claude Code masks it inside the sandbox, and the file tools may not write it.
 */
export function planLocalBoundaryMerge(
  text: string | null,
  wanted: Parameters<typeof syncLocalBoundary>[1],
  prior: LocalBoundaryRecord | undefined,
):
  | (SettingsEdit & { ok: false })
  | {
      ok: true;
      text: string;
      changed: boolean;
      record: LocalBoundaryRecord;
    } {
  const start = text ?? "{}\n";
  const read = readSettings(start);
  if (!read.ok) return read;
  const editor = createEditor(start);
  const record = syncLocalBoundary(editor, wanted, prior);
  return {
    ok: true,
    text: editor.text,
    changed: editor.text !== start,
    record,
  };
}
