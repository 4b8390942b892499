import type { Diagnostic } from "../model/diagnostic.ts";
import type { Playbook } from "../model/playbook.ts";
import type { StateDoc } from "../model/state.ts";
import {
  playbookHashes,
  type HashablePlaybook,
} from "../records/content-hash.ts";
import { hasYamlErrorIn } from "../edit/yaml-guard.ts";
import type {
  DocumentKind,
  DocumentSummary,
  PlaybookSummary,
  StampSlot,
  StateSummary,
} from "../model/summary.ts";

declare const __PLAYBOOK_PARSER_VERSION__: string | undefined;

/** Changes whenever the parser's source changes (set at build time), so old cache entries are never trusted. */
export const PARSER_VERSION: string =
  typeof __PLAYBOOK_PARSER_VERSION__ === "string"
    ? __PLAYBOOK_PARSER_VERSION__
    : "source";

export function summarizePlaybook(
  playbook: Playbook,
  diagnostics: Diagnostic[],
): PlaybookSummary {
  const view: Omit<PlaybookSummary, "hashes" | "diagnostics"> = {
    kind: "playbook",
    meta: playbook.meta,
    goal: playbook.goal,
    hasContext: playbook.context !== null && playbook.context.text !== "",
    phases: playbook.phases.map((phase) => ({
      id: phase.id,
      name: phase.name,
      status: phase.status,
      dependsOn: phase.dependsOn,
      maxIterations: phase.maxIterations,
      subtasks: phase.subtasks.map((s) => ({
        id: s.id,
        checked: s.checked,
        criterion: s.criterion,
        executor: s.executor,
        validations: Object.fromEntries(
          Object.entries(s.validations).map(([name, v]) => [
            name,
            { kind: v.kind, result: v.result, text: v.text },
          ]),
        ),
        validated: s.validated,
        dependsOn: s.dependsOn,
      })),
    })),
    finalTasks: playbook.finalTasks.map((t) => ({
      id: t.id,
      checked: t.checked,
      text: t.text,
    })),
  };
  return withLazyHashes({ ...view, hashes: undefined, diagnostics }, view);
}

/**
 * The summary with its `hashes` computed on first read, then kept: most edits of a playbook compare no record, and
 * hashing costs the hook loading `node:crypto` (about 3 ms a call). Enumerable, so a stored summary holds them.
 */
function withLazyHashes(
  summary: Omit<PlaybookSummary, "hashes"> & { hashes: undefined },
  view: HashablePlaybook,
): PlaybookSummary {
  // Defined over the placeholder, so the keys keep their order (a stored summary reads as before).
  let hashes: PlaybookSummary["hashes"] | undefined;
  Object.defineProperty(summary, "hashes", {
    enumerable: true,
    configurable: true,
    get: () => (hashes ??= playbookHashes(view)),
  });
  return summary as unknown as PlaybookSummary;
}

export function summarizeState(
  state: StateDoc,
  diagnostics: Diagnostic[],
): StateSummary {
  return {
    kind: "state",
    playbook: state.playbook,
    goal: state.goal,
    session: state.session,
    config: state.config,
    stamps: stampsOf(state, diagnostics),
    diagnostics,
  };
}

function stampsOf(
  state: StateDoc,
  diagnostics: readonly Diagnostic[],
): StateSummary["stamps"] {
  const section = state.sections.session;
  if (
    !section?.block ||
    !section.parsed ||
    hasYamlErrorIn(diagnostics, section)
  )
    return { lastStart: null, lastEnd: null };
  const slot = (key: string): StampSlot | null => {
    const span = section.fields[key];
    return span ? { start: span.start.offset, end: span.end.offset } : null;
  };
  return { lastStart: slot("last_start"), lastEnd: slot("last_end") };
}

/** The identity of one version of a file: a cache entry is only used when all of it matches. */
export interface CacheKey {
  path: string;
  kind: DocumentKind;
  mtimeMs: number;
  ctimeMs: number;
  size: number;
  /** The lint configuration the summary was made with: its file's mtime, ctime and size, or "none". */
  config: string;
}

export interface CacheEntry extends CacheKey {
  version: string;
  summary: DocumentSummary;
}

/** Returns the cached summary when `entry` (parsed JSON) is an entry for exactly `key`. */
export function matchCacheEntry(
  entry: unknown,
  key: CacheKey,
): DocumentSummary | null {
  if (typeof entry !== "object" || entry === null) return null;
  const e = entry as Partial<CacheEntry>;
  if (
    e.version !== PARSER_VERSION ||
    e.path !== key.path ||
    e.kind !== key.kind ||
    e.mtimeMs !== key.mtimeMs ||
    e.ctimeMs !== key.ctimeMs ||
    e.size !== key.size ||
    e.config !== key.config
  ) {
    return null;
  }
  // No field-by-field check: only playbook's own processes write the cache (docs/decisions.md).
  if (
    typeof e.summary !== "object" ||
    e.summary === null ||
    e.summary.kind !== key.kind
  )
    return null;
  return e.summary;
}
