import {
  boundaryRecordSchema,
  type BoundaryRecord,
} from "./boundary-record.ts";
import type { LocalBoundaryRecord } from "./local-boundary-record.ts";
import { fileToolDenyRules, sandboxDenyWrite } from "../paths/trust-paths.ts";
import type { SecurityMode } from "../model/state.ts";

export { boundaryRecordSchema, type BoundaryRecord };

/** The minimal editing surface of settings.json that merge-settings provides. */
export interface SettingsEditor {
  read(path: (string | number)[]): unknown;
  set(path: (string | number)[], value: unknown, insert?: boolean): void;
}

/**
 * The switches of Claude Code's Bash sandbox per security mode (docs/trust-boundary.md). The sandbox is on in every
 * mode and its escape hatch (`dangerouslyDisableSandbox`) is off; only strict refuses to start where the sandbox
 * cannot run, the weaker modes start with a loud warning instead.
 */
export function sandboxSwitches(
  mode: SecurityMode,
): Record<string, boolean | undefined> {
  return {
    enabled: true,
    failIfUnavailable: mode === "strict" ? true : undefined,
    allowUnsandboxedCommands: false,
  };
}

/**
 * Adds the boundary to settings.json: the sandbox switches for `mode` (a user's contrary value is replaced, with a
 * note), the trust paths to `sandbox.filesystem.denyWrite`, and the file-tool rules to `permissions.deny`. The user's
 * own entries stay; entries of an earlier init that this version no longer writes go.
 */
export function addBoundary(
  editor: SettingsEditor,
  mode: SecurityMode,
  prior: BoundaryRecord | undefined,
  allowWrite: readonly string[] = [],
): { record: BoundaryRecord; notes: string[] } {
  const notes: string[] = [];
  const addedKeys = new Set(prior?.addedKeys ?? []);
  for (const [key, wanted] of Object.entries(sandboxSwitches(mode))) {
    const current = editor.read(["sandbox", key]);
    if (wanted === undefined) {
      // A weaker mode than before: the strict-only switch init set goes; a user's own stays.
      if (addedKeys.has(key) && current !== undefined) {
        editor.set(["sandbox", key], undefined);
        addedKeys.delete(key);
      }
      continue;
    }
    if (current === wanted) continue;
    if (current === undefined) addedKeys.add(key);
    else
      notes.push(
        `set sandbox.${key} to ${String(wanted)} in .claude/settings.json (it was ${JSON.stringify(current)}): security ${mode} needs it`,
      );
    editor.set(["sandbox", key], wanted);
  }
  const denyWrite = syncList(
    editor,
    ["sandbox", "filesystem", "denyWrite"],
    sandboxDenyWrite(),
    prior?.denyWrite ?? [],
  );
  const deny = syncList(
    editor,
    ["permissions", "deny"],
    fileToolDenyRules(),
    prior?.deny ?? [],
  );
  const writable = syncList(
    editor,
    ["sandbox", "filesystem", "allowWrite"],
    allowWrite,
    prior?.allowWrite ?? [],
  );
  return {
    record: {
      addedKeys: [...addedKeys],
      denyWrite,
      deny,
      ...(writable.length > 0 ? { allowWrite: writable } : {}),
    },
    notes,
  };
}

/** Takes out what `record` says init added; containers left empty by that go too. */
export function removeBoundary(
  editor: SettingsEditor,
  record: BoundaryRecord,
): void {
  syncList(
    editor,
    ["sandbox", "filesystem", "denyWrite"],
    [],
    record.denyWrite,
  );
  syncList(editor, ["permissions", "deny"], [], record.deny);
  syncList(
    editor,
    ["sandbox", "filesystem", "allowWrite"],
    [],
    record.allowWrite ?? [],
  );
  for (const key of record.addedKeys)
    if (editor.read(["sandbox", key]) !== undefined)
      editor.set(["sandbox", key], undefined);
  for (const path of [["sandbox", "filesystem"], ["sandbox"], ["permissions"]])
    if (isEmptyObject(editor.read(path))) editor.set(path, undefined);
}

const EMPTY_BOUNDARY_RECORD: BoundaryRecord = {
  addedKeys: [],
  denyWrite: [],
  deny: [],
};

/**
 * Makes `.claude/settings.local.json` hold the derived lists, the protected files' and the read-only project's,
 * taking out entries of `prior` no longer wanted; the user's own entries stay. Returns what is ours now.
 */
export function syncLocalBoundary(
  editor: SettingsEditor,
  wanted: {
    protected: { denyWrite: readonly string[]; deny: readonly string[] };
    readOnly: { denyWrite: readonly string[] };
  },
  prior: LocalBoundaryRecord | undefined,
): LocalBoundaryRecord {
  const path = ["sandbox", "filesystem", "denyWrite"];
  const before = prior ?? {
    protected: EMPTY_BOUNDARY_RECORD,
    readOnly: EMPTY_BOUNDARY_RECORD,
  };
  // Every entry either list owned counts as ours for both, so one both want is never left behind as the user's;
  // neither list takes out what the other wants.
  const ours = [...before.protected.denyWrite, ...before.readOnly.denyWrite];
  const protectedDenyWrite = syncList(
    editor,
    path,
    wanted.protected.denyWrite,
    ours,
    wanted.readOnly.denyWrite,
  );
  const readOnlyDenyWrite = syncList(
    editor,
    path,
    wanted.readOnly.denyWrite,
    [...ours, ...protectedDenyWrite],
    wanted.protected.denyWrite,
  );
  const deny = syncList(
    editor,
    ["permissions", "deny"],
    wanted.protected.deny,
    before.protected.deny,
  );
  for (const p of [["sandbox", "filesystem"], ["sandbox"], ["permissions"]])
    if (isEmptyObject(editor.read(p))) editor.set(p, undefined);
  return {
    protected: { addedKeys: [], denyWrite: protectedDenyWrite, deny },
    readOnly: { addedKeys: [], denyWrite: readOnlyDenyWrite, deny: [] },
  };
}

/**
 * Makes the list at `path` hold `wanted` (appended in order when missing), without `stale` entries that are not
 * wanted any more (nor in `keep`, which another list of ours wants); the user's other entries stay where they are.
 * Returns the entries that are ours now.
 */
function syncList(
  editor: SettingsEditor,
  path: string[],
  wanted: readonly string[],
  stale: readonly string[],
  keep: readonly string[] = [],
): string[] {
  const current = editor.read(path);
  const list: unknown[] = Array.isArray(current) ? (current as unknown[]) : [];
  for (let i = list.length - 1; i >= 0; i--)
    if (
      stale.includes(list[i] as string) &&
      !wanted.includes(list[i] as string) &&
      !keep.includes(list[i] as string)
    )
      editor.set([...path, i], undefined);
  if (wanted.length === 0) {
    const left = editor.read(path);
    if (Array.isArray(left) && left.length === 0) editor.set(path, undefined);
    return [];
  }
  const after = editor.read(path);
  const present = new Set(Array.isArray(after) ? after : []);
  const missing = wanted.filter((entry) => !present.has(entry));
  if (!Array.isArray(after)) editor.set(path, [...wanted]);
  else
    missing.forEach((entry, i) =>
      editor.set([...path, after.length + i], entry, true),
    );
  // An entry the user had written before init stays theirs, and stays on uninstall.
  return wanted.filter((e) => missing.includes(e) || stale.includes(e));
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 0
  );
}
