import {
  applyEdits,
  modify,
  parse,
  printParseErrorCode,
  type FormattingOptions,
  type JSONPath,
  type ParseError,
} from "jsonc-parser";
import {
  HOOK_EVENTS,
  hookHandler,
  isPlaybookHandler,
  statusLineSetting,
} from "./hook-settings.ts";

export type SettingsEdit =
  | { ok: true; text: string; changed: boolean; notes: string[] }
  | { ok: false; line: number; column: number; problem: string };

type Json = Record<string, unknown>;

/**
 * `.claude/settings.json` with playbook's hooks: one handler per event (added once, however often init runs), the
 * user's own hooks, keys, comments and order kept, playbook's older handlers (another path, another event) replaced.
 * The status line is set only when the user has none. `text` null means the file does not exist yet.
 */
export function planSettingsMerge(
  text: string | null,
  hookPath: string,
  knownPaths: readonly string[],
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
  return { ok: true, text: editor.text, changed: editor.text !== start, notes };
}

/** `.claude/settings.json` without playbook's handlers and status line; containers left empty by that go too. */
export function planSettingsRemoval(
  text: string,
  knownPaths: readonly string[],
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
  return {
    ok: true,
    text: editor.text,
    changed: editor.text !== text,
    notes: [],
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
  return { ok: true, json };
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
