import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readGitHead } from "../../adapters/read-git-head.ts";
import { readPostLoopLock } from "../../adapters/runtime-files.ts";
import { parseProtectedRules } from "../../core/guards/protected-rules.ts";
import { readConfig } from "./read-config.ts";
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
import type { LocalBoundaryRecord } from "../../core/scaffold/boundary-settings.ts";
import { planLocalBoundaryMerge } from "../../core/scaffold/merge-settings.ts";
import {
  readLocalBoundaryRecord,
  readLocalSettings,
  writeLocalBoundary,
} from "../../adapters/local-boundary-store.ts";

export interface LocalBoundaryFacts {
  rules: readonly ProtectedRule[];
  security: SecurityMode;
  lock: boolean;
  branch: string | null;
  defaultBranch: string | null;
  /** Leave the project writable for this call: the hook read it as nothing but a switch off the default branch. */
  leavingDefaultBranch?: boolean;
}

export interface LocalBoundarySync {
  /** The settings changed: Claude Code needs a moment to reload them. */
  changed: boolean;
  readOnly: ShellReadOnly;
  unheld: UnheldRule[];
  /** Why the settings could not be brought up to date (a broken settings.local.json); null when they are. */
  problem: string | null;
}

const PROTECTED_FILE = ".claude/protected-files.txt";

/** How long Claude Code took to reload a changed settings file (about 1 s on a loaded 2-core VM), with margin. */
export const SETTINGS_RELOAD_MS = 2000;

/**
 * Brings `.claude/settings.local.json` in line with the protected files and with whether the project is read-only to
 * the agent's shell (docs/trust-boundary.md). `check: "record"` compares with the record alone (the tool hook's
 * path: one small read); `"settings"` also re-reads the settings, for entries someone took out (session start, init).
 */
export function syncLocalBoundaryFiles(
  projectDir: string,
  facts: LocalBoundaryFacts,
  check: "record" | "settings",
): LocalBoundarySync {
  const protectedPlan = planProtectedBoundary(facts.rules, facts.security);
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
  const text = readLocalSettings(projectDir);
  const merged = planLocalBoundaryMerge(text, wanted, prior);
  if (!merged.ok)
    return result(
      false,
      `.claude/settings.local.json cannot be read (line ${merged.line}: ${merged.problem}), so the sandbox does not hold the protected files. Next: fix or delete it; playbook writes its entries again at the next tool call.`,
    );
  if (!merged.changed && prior && sameRecord(prior, merged.record))
    return result(false);
  writeLocalBoundary(
    projectDir,
    merged.changed ? merged.text : null,
    merged.record,
  );
  return result(merged.changed);
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

/** Takes out exactly what the record says playbook added (uninstall). */
export function removeLocalBoundary(projectDir: string): string | null {
  const prior = readLocalBoundaryRecord(projectDir);
  if (!prior) return null;
  const merged = planLocalBoundaryMerge(
    readLocalSettings(projectDir),
    {
      protected: { denyWrite: [], deny: [] },
      readOnly: { denyWrite: [] },
    },
    prior,
  );
  if (!merged.ok)
    return `.claude/settings.local.json cannot be read (line ${merged.line}: ${merged.problem}); take out playbook's entries by hand: ${[...prior.protected.denyWrite, ...prior.readOnly.denyWrite, ...prior.protected.deny].join(", ")}`;
  writeLocalBoundary(projectDir, merged.changed ? merged.text : null, null);
  return null;
}

/** Blocks the thread for `ms`: the hook must not answer before Claude Code has the new settings. */
export function waitForSettingsReload(ms = SETTINGS_RELOAD_MS): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function holds(
  record: LocalBoundaryRecord,
  wanted: {
    protected: { denyWrite: readonly string[]; deny: readonly string[] };
    readOnly: { denyWrite: readonly string[] };
  },
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

function sameRecord(a: LocalBoundaryRecord, b: LocalBoundaryRecord): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
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

/**
 * `init`'s part, as a person's process: the same lists the hook keeps, written now so the first session starts with
 * them, and what the sandbox cannot hold, worded for the terminal.
 */
export function syncLocalBoundaryAfterInit(projectDir: string): string[] {
  let text = "";
  try {
    text = readFileSync(join(projectDir, PROTECTED_FILE), "utf8");
  } catch {
    // No list: only the built-in rules, which init's settings.json holds.
  }
  const sync = syncLocalBoundaryFiles(
    projectDir,
    {
      rules: parseProtectedRules(text, PROTECTED_FILE).rules,
      security: readConfig(projectDir).config.security,
      lock: readPostLoopLock(projectDir) !== null,
      ...readGitHead(projectDir),
    },
    "settings",
  );
  return [
    ...(sync.problem ? [sync.problem] : []),
    ...sync.unheld.map((u) => `${u.rule.source}: ${u.why}. ${u.next}`),
  ];
}
