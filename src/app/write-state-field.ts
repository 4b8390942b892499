import { join } from "node:path";
import type { StateSummary } from "../core/cache/summary.ts";
import { writeStamp } from "../core/edit/session-stamp.ts";
import type { EditResult, YamlScalar } from "../core/edit/text-edit.ts";
import type { StateSectionName } from "../core/model/state.ts";
import { applyDocumentEdit } from "./apply-document-edit.ts";

/** The general surgical writer, loaded from the parser bundle only when the fast path cannot be used. */
export type SetStateField = (
  text: string,
  section: StateSectionName,
  key: string,
  value: YamlScalar,
) => EditResult;

const STAMP_SLOTS = { last_start: "lastStart", last_end: "lastEnd" } as const;

/**
 * Sets `session.last_start` or `last_end` in state.md. With the slot the cached summary recorded, and the text
 * before it still reading `last_start:`, the value is spliced in without the markdown parser; otherwise the general
 * writer runs. Returns why nothing was written, or null. Never throws: a session must start even when state.md
 * cannot be written.
 */
export function writeSessionStamp(
  projectDir: string,
  state: StateSummary,
  key: keyof typeof STAMP_SLOTS,
  iso: string,
  setStateField: () => SetStateField,
): string | null {
  const slot = state.stamps[STAMP_SLOTS[key]];
  return writeStateEdit(projectDir, (text) => {
    if (slot && keyBefore(text, slot.start) === key) {
      const fast = writeStamp(text, slot, iso);
      if (fast !== null)
        return { ok: true, text: fast, changed: fast !== text };
    }
    return setStateField()(text, "session", key, iso);
  });
}

/** Applies one edit to state.md; the reason it was not written, or null. */
export function writeStateEdit(
  projectDir: string,
  edit: (text: string) => EditResult,
): string | null {
  try {
    applyDocumentEdit(join(projectDir, "state.md"), edit);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The key written just before `offset` on its line (`last_start:` then spaces), or null. */
function keyBefore(text: string, offset: number): string | null {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return (
    /^[ \t]*([A-Za-z_]+):[ \t]*$/.exec(text.slice(lineStart, offset))?.[1] ??
    null
  );
}
