import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  readLocalSettings,
  writeLocalBoundary,
} from "../../adapters/local-boundary-store.ts";
import { readGitHead } from "../../adapters/read-git-head.ts";
import { readPostLoopLock } from "../../adapters/runtime-files.ts";
import { parseProtectedRules } from "../../core/guards/protected-rules.ts";
import { planLocalBoundaryMerge } from "../../core/scaffold/merge-settings.ts";
import { readConfig } from "./read-config.ts";
import {
  syncLocalBoundaryFiles,
  type ApplyLocalBoundary,
} from "./sync-local-boundary.ts";

const PROTECTED_FILE = ".claude/protected-files.txt";

/** Writes the wanted lists into `.claude/settings.local.json` and records what is playbook's (see `ApplyLocalBoundary`). */
export const applyLocalBoundary: ApplyLocalBoundary = (
  projectDir,
  wanted,
  prior,
) => {
  const merged = planLocalBoundaryMerge(
    readLocalSettings(projectDir),
    wanted,
    prior,
  );
  if (!merged.ok)
    return {
      changed: false,
      problem: `.claude/settings.local.json cannot be read (line ${merged.line}: ${merged.problem}), so the sandbox does not hold the protected files. Next: fix or delete it; playbook writes its entries again at the next tool call.`,
    };
  if (
    !merged.changed &&
    prior &&
    JSON.stringify(prior) === JSON.stringify(merged.record)
  )
    return { changed: false, problem: null };
  writeLocalBoundary(
    projectDir,
    merged.changed ? merged.text : null,
    merged.record,
  );
  return { changed: merged.changed, problem: null };
};

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
    applyLocalBoundary,
  );
  return [
    ...(sync.problem ? [sync.problem] : []),
    ...sync.unheld.map((u) => `${u.rule.source}: ${u.why}. ${u.next}`),
  ];
}
