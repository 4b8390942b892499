import {
  readSummaryCached,
  type Summarize,
} from "../../adapters/parse-cache.ts";
import { resolveInside } from "../../adapters/resolve-inside.ts";
import type {
  PlaybookSummary,
  StateSummary,
} from "../../core/model/summary.ts";
import {
  explainUnsafeActivePath,
  normaliseActivePath,
} from "../../core/validate/active-path.ts";

export interface WorkspaceSummary {
  state: StateSummary | null;
  active: { path: string; summary: PlaybookSummary } | null;
  cacheHits: number;
  cacheMisses: number;
}

/**
 * The hot-path view of a project: `state.md` and its active playbook, answered from the parse cache. An unsafe
 * `active` path is never followed.
 */
export function readWorkspaceSummary(
  projectDir: string,
  summarize: Summarize,
): WorkspaceSummary {
  const result: WorkspaceSummary = {
    state: null,
    active: null,
    cacheHits: 0,
    cacheMisses: 0,
  };
  const count = (status: "hit" | "miss") =>
    status === "hit" ? result.cacheHits++ : result.cacheMisses++;
  const state = readSummaryCached(projectDir, "state.md", "state", summarize);
  if (state.status === "missing" || state.summary.kind !== "state")
    return result;
  count(state.status);
  result.state = state.summary;
  const active = state.summary.playbook.active;
  if (active === null || explainUnsafeActivePath(active) !== null)
    return result;
  const path = normaliseActivePath(active);
  if (resolveInside(projectDir, path).status !== "inside") return result;
  const playbook = readSummaryCached(projectDir, path, "playbook", summarize);
  if (playbook.status === "missing" || playbook.summary.kind !== "playbook")
    return result;
  count(playbook.status);
  result.active = { path, summary: playbook.summary };
  return result;
}
