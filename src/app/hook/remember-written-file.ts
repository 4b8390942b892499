import type { Summarize } from "../../adapters/parse-cache.ts";
import { readSummaryCached } from "../../adapters/parse-cache.ts";
import { resolveRealPath } from "../../adapters/resolve-real-path.ts";
import { addWrittenFile } from "../../adapters/written-files-store.ts";
import { isRepositoryPath } from "../../core/archive/written-files.ts";
import { toForwardSlashes, toRepoPath } from "../../core/paths/repo-path.ts";
import {
  explainUnsafeActivePath,
  normaliseActivePath,
} from "../../core/validate/active-path.ts";
import type { HookPayload } from "../../hooks/payload.ts";

/** The file tools whose writes the archive commits, and the input that names the file. */
const FILE_TOOLS: Readonly<Record<string, string>> = {
  Write: "file_path",
  Edit: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
};

/**
 * After a file tool wrote a file (PostToolUse), while a playbook is active: adds the file, as the repository names
 * it (links resolved), to that playbook's list of written files, which the archive's commit step commits
 * (docs/archive.md). Files outside the repository and calls with no active playbook are not listed. Returns what
 * the agent should be told when the list could not be written, else null; never throws.
 */
export function rememberWrittenFile(
  projectDir: string,
  payload: HookPayload,
  summarize: Summarize,
): string | null {
  const tool = payload.tool_name ?? "";
  const key = FILE_TOOLS[tool];
  const raw = key === undefined ? undefined : payload.tool_input?.[key];
  if (typeof raw !== "string" || raw === "") return null;
  try {
    const playbook = activePlaybook(projectDir, summarize);
    if (playbook === null) return null;
    const root = toForwardSlashes(resolveRealPath(projectDir, "."));
    const cwd =
      typeof payload.cwd === "string" && payload.cwd !== ""
        ? payload.cwd
        : projectDir;
    const path = toRepoPath(root, "/", resolveRealPath(cwd, raw));
    if (path === null || !isRepositoryPath(path)) return null;
    addWrittenFile(projectDir, playbook, path);
    return null;
  } catch (error) {
    return `playbook could not list ${raw} for the archive (${error instanceof Error ? error.message : String(error)}): stage it (\`git add\`) to commit it.`;
  }
}

/** The active playbook's repository path from state.md (cached), or null when none is active or its path is unsafe. */
function activePlaybook(
  projectDir: string,
  summarize: Summarize,
): string | null {
  const state = readSummaryCached(projectDir, "state.md", "state", summarize);
  if (state.status === "missing" || state.summary.kind !== "state") return null;
  const active = state.summary.playbook.active;
  if (active === null || explainUnsafeActivePath(active) !== null) return null;
  return normaliseActivePath(active);
}
