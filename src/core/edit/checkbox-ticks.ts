import type { PlaybookSummary } from "../model/summary.ts";
import type { HashablePlaybook } from "../records/content-hash.ts";

/** Computes a phase's record hash (records/content-hash.ts `phaseHash`), injected so crypto loads only when used. */
export type HashPhase = (
  playbook: HashablePlaybook,
  phaseId: string,
) => string | null;

const COMPARED_BLOCK = 4096;

/** A list item's head as a box line: indentation, bullet, the box, then the bold id. */
const BOX_LINE = /^[ \t]*[-*+][ \t]+\[ \][ \t]+\*\*([^*\s]+)\*\*/;

/**
 * The summary of a playbook after an edit that only ticks boxes, derived from the summary before it without parsing
 * the document again (the hook's hot path for `- [ ]` → `- [x]`). Returns null, and the caller parses, for anything
 * else: texts of different lengths, any change other than a space turning into `x` between `[` and `]`, a box
 * whose line is not a `- [ ] **id**` head, an id that heads more than one line (a copy in a code block), an id the
 * summary does not know as an open subtask or final task, or a subtask of a phase already `done` (its lint changes).
 */
export function tickedSummary(
  beforeText: string,
  afterText: string,
  before: PlaybookSummary,
  hashPhase: HashPhase,
): PlaybookSummary | null {
  if (beforeText.length !== afterText.length || beforeText === afterText)
    return null;
  const ticked = new Set<string>();
  // Equal stretches are skipped a block at a time (a native string comparison): a character loop over a 345 KB
  // playbook cost a tick 5 ms.
  for (let start = 0; start < beforeText.length; start += COMPARED_BLOCK) {
    const end = Math.min(start + COMPARED_BLOCK, beforeText.length);
    if (beforeText.slice(start, end) === afterText.slice(start, end)) continue;
    for (let i = start; i < end; i++) {
      if (beforeText.charCodeAt(i) === afterText.charCodeAt(i)) continue;
      const id = tickedIdAt(beforeText, afterText, i);
      if (id === null || ticked.has(id)) return null;
      ticked.add(id);
    }
  }
  let valid = true;
  let found = 0;
  const tick = <T extends { id: string; checked: boolean }>(item: T): T => {
    if (!ticked.has(item.id)) return item;
    found++;
    if (item.checked) valid = false;
    return { ...item, checked: true };
  };
  const changedPhases: string[] = [];
  const phases = before.phases.map((phase) => {
    if (!phase.subtasks.some((s) => ticked.has(s.id))) return phase;
    if (phase.status === "done") valid = false;
    changedPhases.push(phase.id);
    return { ...phase, subtasks: phase.subtasks.map(tick) };
  });
  const finalTasks = before.finalTasks.map(tick);
  if (!valid || found !== ticked.size) return null;
  const after: PlaybookSummary = { ...before, phases, finalTasks };
  const phaseHashes = { ...before.hashes.phases };
  for (const id of changedPhases) {
    // Computed on first read: hashing costs the hook loading node:crypto (about 3 ms), and a tick's own checks never
    // read a ticked phase's hash (the critic reads it for a phase turning done, which a derived tick never is).
    let hash: string | undefined;
    Object.defineProperty(phaseHashes, id, {
      enumerable: true,
      configurable: true,
      get: () => (hash ??= hashPhase(after, id) ?? ""),
    });
  }
  return { ...after, hashes: { ...before.hashes, phases: phaseHashes } };
}

/** The id whose box the change at `i` ticks, or null when the change at `i` is anything else. */
function tickedIdAt(before: string, after: string, i: number): string | null {
  const mark = after[i];
  if (before[i] !== " " || (mark !== "x" && mark !== "X")) return null;
  if (before[i - 1] !== "[" || before[i + 1] !== "]") return null;
  const lineStart = before.lastIndexOf("\n", i) + 1;
  const lineEnd = before.indexOf("\n", i);
  const line = before.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
  const head = BOX_LINE.exec(line);
  const id = head?.[1];
  // The change must be the head's own box, not a `[ ]` later on the line.
  if (!head || id === undefined || line.indexOf("[ ]") !== i - 1 - lineStart)
    return null;
  return headsOneLine(before, id) ? id : null;
}

function headsOneLine(text: string, id: string): boolean {
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const heads = text.match(
    new RegExp(
      `^[ \\t]*[-*+][ \\t]+\\[[ xX]\\][ \\t]+\\*\\*${escaped}\\*\\*`,
      "gm",
    ),
  );
  return heads !== null && heads.length === 1;
}
