import { join } from "node:path";
import type { StampSlot, StateSummary } from "../../core/model/summary.ts";
import { storeCacheEntry } from "../../adapters/parse-cache.ts";
import { restampSummary, writeStamp } from "../../core/edit/session-stamp.ts";
import type { EditResult, YamlValue } from "../../core/edit/text-edit.ts";
import type { StateSectionName } from "../../core/model/state.ts";
import { applyDocumentEdit } from "./apply-document-edit.ts";

/** The general surgical writer, loaded from the parser bundle only when the fast path cannot be used. */
export type SetStateField = (
  text: string,
  section: StateSectionName,
  key: string,
  value: YamlValue,
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
  const name = STAMP_SLOTS[key];
  const slot = state.stamps[name];
  // Filled by the edit when the fast path wrote the value, so the cache can follow.
  const spliced: {
    before: string;
    written: { text: string; slot: StampSlot };
  }[] = [];
  const problem = writeStateEdit(projectDir, (text) => {
    if (slot && keyBefore(text, slot.start) === key) {
      const written = writeStamp(text, slot, iso);
      if (written !== null) {
        spliced.push({ before: text, written });
        return { ok: true, text: written.text, changed: written.text !== text };
      }
    }
    return setStateField()(text, "session", key, iso);
  });
  const done = spliced[0];
  if (problem === null && done) {
    // The next hook call would otherwise parse state.md again, loading the markdown parser (~100 ms).
    const summary = restampSummary(state, done.before, name, iso, done.written);
    if (summary)
      storeCacheEntry(projectDir, "state.md", summary, done.written.text);
  }
  return problem;
}

/** Applies one edit to state.md; the reason it was not written, or null. */
export function writeStateEdit(
  projectDir: string,
  edit: (text: string) => EditResult,
): string | null {
  try {
    applyDocumentEdit(join(projectDir, "state.md"), "state.md", edit);
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
