import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { ProtectedRule } from "../../core/guards/protected-rules.ts";
import type { GuardContext } from "../../core/guards/types.ts";
import type { SecurityMode } from "../../core/model/state.ts";
import {
  planProtectedBoundary,
  type UnheldRule,
} from "../../core/paths/protected-sandbox.ts";
import {
  planShellReadOnly,
  type ShellReadOnly,
} from "../../core/paths/shell-read-only.ts";
import type { LocalBoundaryRecord } from "../../core/scaffold/local-boundary-record.ts";
import { readLocalBoundaryRecord } from "../../adapters/local-boundary-store.ts";

export interface LocalBoundaryFacts {
  rules: readonly ProtectedRule[];
  security: SecurityMode;
  lock: boolean;
  branch: string | null;
  defaultBranch: string | null;
  /** Leave the project writable for this call: the hook read it as nothing but a switch off the default branch. */
  leavingDefaultBranch?: boolean;
}

/** The lists the settings should hold. */
export interface LocalBoundaryWanted {
  protected: { denyWrite: readonly string[]; deny: readonly string[] };
  readOnly: { denyWrite: readonly string[] };
}

/**
 * Writes the wanted lists into settings.local.json and the record (the settings editor, in its own bundle for the
 * hooks: it loads only when something changed). `changed`: the settings file changed.
 */
export type ApplyLocalBoundary = (
  projectDir: string,
  wanted: LocalBoundaryWanted,
  prior: LocalBoundaryRecord | undefined,
) => { changed: boolean; problem: string | null };

export interface LocalBoundarySync {
  /** The settings changed: Claude Code needs a moment to reload them. */
  changed: boolean;
  readOnly: ShellReadOnly;
  unheld: UnheldRule[];
  /** Why the settings could not be brought up to date (a broken settings.local.json); null when they are. */
  problem: string | null;
}

/** How long Claude Code took to reload a changed settings file (about 1 s on a loaded 2-core VM), with margin. */
const SETTINGS_RELOAD_MS = 2000;

/**
 * Brings `.claude/settings.local.json` in line with the protected files and with whether the project is read-only to
 * the agent's shell (docs/trust-boundary.md). `check: "record"` compares with the record alone (the tool hook's
 * path: one small read); `"settings"` also re-reads the settings, for entries someone took out (session start, init).
 */
export function syncLocalBoundaryFiles(
  projectDir: string,
  facts: LocalBoundaryFacts,
  check: "record" | "settings",
  apply: ApplyLocalBoundary,
): LocalBoundarySync {
  const protectedPlan = planProtectedBoundary(
    facts.rules,
    facts.security,
    (path) => existsSync(join(projectDir, path)),
  );
  const readOnly = facts.leavingDefaultBranch
    ? ({ kind: "none" } as const)
    : planShellReadOnly({
        ...facts,
        rootNames: () => listRoot(projectDir),
      });
  const wanted = {
    protected: {
      denyWrite: protectedPlan.denyWrite,
      deny: protectedPlan.deny,
    },
    readOnly: {
      denyWrite: readOnly.kind === "none" ? [] : readOnly.denyWrite,
    },
  };
  const result = (changed: boolean, problem: string | null = null) => ({
    changed,
    readOnly,
    unheld: protectedPlan.unheld,
    problem,
  });
  const prior = readLocalBoundaryRecord(projectDir);
  if (check === "record" && prior && holds(prior, wanted)) return result(false);
  const applied = apply(projectDir, wanted, prior);
  return result(applied.changed, applied.problem);
}

/** The facts of a hook's context that the derived lists follow. */
export function localBoundaryFacts(
  ctx: Pick<GuardContext, "protectedRules" | "security" | "lock" | "git">,
): LocalBoundaryFacts {
  return {
    rules: ctx.protectedRules,
    security: ctx.security,
    lock: ctx.lock !== null,
    branch: ctx.git.branch,
    defaultBranch: ctx.git.defaultBranch,
  };
}

/** Blocks the thread for `ms`: the hook must not answer before Claude Code has the new settings. */
export function waitForSettingsReload(ms = SETTINGS_RELOAD_MS): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function holds(
  record: LocalBoundaryRecord,
  wanted: LocalBoundaryWanted,
): boolean {
  // An entry both lists want is recorded under one of them.
  const recorded = new Set([
    ...record.protected.denyWrite,
    ...record.readOnly.denyWrite,
  ]);
  const all = new Set([
    ...wanted.protected.denyWrite,
    ...wanted.readOnly.denyWrite,
  ]);
  return (
    recorded.size === all.size &&
    [...all].every((e) => recorded.has(e)) &&
    sameList(record.protected.deny, wanted.protected.deny)
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((e) => b.includes(e));
}

function listRoot(projectDir: string): string[] {
  try {
    return readdirSync(projectDir);
  } catch {
    return [];
  }
}
