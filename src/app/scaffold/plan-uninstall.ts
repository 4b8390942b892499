import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { removeClaudeBlock } from "../../core/scaffold/claude-md-block.ts";
import { removeGitignoreLines } from "../../core/scaffold/gitignore-lines.ts";
import { removeExcludeBlock } from "../../core/scaffold/git-exclude-block.ts";
import { readGitExcludeFile } from "../../adapters/git-exclude-file.ts";
import {
  MANIFEST_FILE,
  parseManifest,
  type SharedFileRecord,
} from "../../core/scaffold/manifest.ts";
import {
  planLocalBoundaryMerge,
  planSettingsRemoval,
} from "../../core/scaffold/merge-settings.ts";
import {
  LOCAL_SETTINGS_FILE,
  readLocalBoundaryRecord,
  readLocalSettings,
} from "../../adapters/local-boundary-store.ts";
import { contentHash } from "../../core/scaffold/plan-writes.ts";
import { locationAt, PlaybookError } from "../../core/errors.ts";
import { parseState } from "../../core/parse/parse-state.ts";
import { RUNTIME_DIR } from "../../adapters/runtime-files.ts";

export interface UninstallStep {
  path: string;
  action: "remove" | "restore" | "keep";
  detail: string;
  writes: { path: string; text: string }[];
  removes: string[];
}

/**
 * What `playbook uninstall` would do: remove every file the manifest lists that nobody changed, take playbook's
 * part out of settings.json, .gitignore and CLAUDE.md (restoring them byte for byte when they are exactly as init
 * left them), and keep everything the user wrote or changed, saying so.
 */
export function planUninstall(
  dir: string,
  packageRoot: string,
): {
  steps: UninstallStep[];
  notes: string[];
} {
  const read = (path: string): string | null => {
    try {
      return readFileSync(join(dir, path), "utf8");
    } catch {
      return null;
    }
  };
  const parsed = parseManifest(read(MANIFEST_FILE));
  if (parsed.status === "missing")
    throw new PlaybookError(
      "E_CONFIG",
      `There is nothing to uninstall: ${MANIFEST_FILE} does not exist.`,
      {
        hint: `Restore it from git if it was committed (\`git checkout -- ${MANIFEST_FILE}\`): uninstall removes only what \`playbook init\` recorded there.`,
      },
    );
  if (parsed.status === "corrupt")
    throw new PlaybookError(
      "E_CONFIG",
      `${MANIFEST_FILE} cannot be read: ${parsed.problem}.`,
      {
        hint: `Restore it from git (\`git checkout -- ${MANIFEST_FILE}\`); without it uninstall cannot tell playbook's files from yours. Nothing was changed.`,
        location: { file: MANIFEST_FILE },
      },
    );
  const { manifest } = parsed;
  const steps: UninstallStep[] = [];
  for (const [path, hash] of Object.entries(manifest.files)) {
    const text = read(path);
    if (text === null) continue;
    if (path === STATE && contentHash(text) !== hash) {
      steps.push(stateStep(text, readPackageFile(packageRoot, STATE_TEMPLATE)));
      continue;
    }
    steps.push(
      contentHash(text) === hash
        ? {
            path,
            action: "remove",
            detail: "installed by init, unchanged",
            writes: [],
            removes: [path],
          }
        : {
            path,
            action: "keep",
            detail: "you changed it since init: kept",
            writes: [],
            removes: [],
          },
    );
  }
  const shared = (
    path: string,
    record: SharedFileRecord | undefined,
    surgical: (text: string) => string | null,
  ) => {
    const text = read(path);
    if (text === null || record === undefined) return;
    if (record.original !== undefined && contentHash(text) === record.written) {
      steps.push(
        record.original === null
          ? {
              path,
              action: "remove",
              detail: "created by init, unchanged",
              writes: [],
              removes: [path],
            }
          : {
              path,
              action: "restore",
              detail: "restored to what it was before init",
              writes: [{ path, text: record.original }],
              removes: [],
            },
      );
      return;
    }
    const after = surgical(text);
    if (after === text) return;
    steps.push(
      after === null
        ? {
            path,
            action: "remove",
            detail: "only playbook's part was left",
            writes: [],
            removes: [path],
          }
        : {
            path,
            action: "restore",
            detail: "playbook's part taken out; your changes kept",
            writes: [{ path, text: after }],
            removes: [],
          },
    );
  };
  shared(".claude/settings.json", manifest.settings, (text) => {
    const removed = planSettingsRemoval(
      text,
      manifest.hookPaths,
      manifest.boundary,
    );
    if (!removed.ok)
      throw new PlaybookError(
        "E_CONFIG",
        `playbook cannot take its settings out of .claude/settings.json: ${removed.problem}.`,
        {
          hint: "Fix it, then run `playbook uninstall` again. Nothing was changed.",
          location: locationAt(".claude/settings.json", removed),
        },
      );
    return manifest.settings?.original === null &&
      /^\s*\{\s*\}\s*$/.test(removed.text)
      ? null
      : removed.text;
  });
  shared(".gitignore", manifest.gitignore, (text) =>
    removeGitignoreLines(text, manifest.gitignore?.lines ?? []),
  );
  shared("CLAUDE.md", manifest.claudeMd, (text) => {
    const removed = removeClaudeBlock(text);
    if (!removed.ok)
      throw new PlaybookError("E_CONFIG", `${removed.problem}.`, {
        hint: "Keep one `<!-- playbook:begin -->` … `<!-- playbook:end -->` pair, then run `playbook uninstall` again. Nothing was changed.",
        location: { file: "CLAUDE.md", line: removed.line },
      });
    return removed.text;
  });
  const exclude = readGitExcludeFile(dir);
  if (exclude?.text != null) {
    const after = removeExcludeBlock(exclude.text);
    if (after !== exclude.text)
      steps.push({
        path: exclude.path,
        action: "restore",
        detail:
          "playbook's block of sandbox mount points taken out; the rest kept",
        writes: [{ path: exclude.path, text: after }],
        removes: [],
      });
  }
  steps.push({
    path: MANIFEST_FILE,
    action: "remove",
    detail: "the record of what init installed",
    writes: [],
    removes: [MANIFEST_FILE],
  });
  const notes: string[] = [];
  const local = planLocalSettingsRemoval(dir);
  if (local) steps.push(local);
  const runtime = planRuntimeRemoval(dir, notes);
  if (runtime) steps.push(runtime);
  return { steps, notes };
}

const STATE = "state.md";
const STATE_TEMPLATE = "plan/template/state-initial.md";

function readPackageFile(packageRoot: string, path: string): string | null {
  try {
    return readFileSync(join(packageRoot, path), "utf8");
  } catch {
    return null;
  }
}

/** A document with the contents of its fenced yaml blocks left out: what is the same whatever the values. */
function withoutYamlValues(text: string): string {
  return text
    .replace(/\r\n/g, "\n")
    .replace(/^(```ya?ml)\n[\s\S]*?\n```$/gm, "$1\n```");
}

/**
 * state.md after init: playbook writes its yaml values (the active playbook, the phase, session stamps), so a state.md
 * whose prose is still init's is playbook's own and goes, even while it names an active playbook: the playbook is the
 * user's work and stays, the pointer to it is playbook's bookkeeping.
 */
function stateStep(text: string, template: string | null): UninstallStep {
  const keep = (detail: string): UninstallStep => ({
    path: STATE,
    action: "keep",
    detail,
    writes: [],
    removes: [],
  });
  if (
    template === null ||
    withoutYamlValues(text) !== withoutYamlValues(template)
  )
    return keep("you changed it since init: kept");
  const active = parseState(text, STATE).value.playbook.active;
  return {
    path: STATE,
    action: "remove",
    detail: `only playbook's own entries changed since init${active === null ? "" : ` (it named ${active}, which stays)`}`,
    writes: [],
    removes: [STATE],
  };
}

/**
 * playbook's runtime files under `.claude/playbook/` (the parse cache, logs, sessions, grants, the lock): git ignores
 * them only while init's `.gitignore` lines are there, so they go too. The records are the proof and stay, and so does
 * the journal of an archive that has not finished.
 */
function planRuntimeRemoval(
  dir: string,
  notes: string[],
): UninstallStep | null {
  const root = join(dir, RUNTIME_DIR);
  if (!existsSync(root)) return null;
  const removes: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(dir, folder), {
      withFileTypes: true,
    })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else removes.push(path);
    }
  };
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = `${RUNTIME_DIR}/${entry.name}`;
    if (entry.name === "records") {
      if (existsSync(join(root, "records", "history.jsonl")))
        removes.push(`${path}/history.jsonl`);
      notes.push(
        `${path}/ is kept: the records are the proof of your playbooks' claims`,
      );
    } else if (
      entry.name === "archive-journal.json" &&
      !isFinished(join(root, entry.name))
    ) {
      notes.push(
        `${path} is kept: an unfinished archive; finish it with \`playbook archive --resume\`, or delete it yourself`,
      );
    } else if (entry.isDirectory()) walk(path);
    else removes.push(path);
  }
  return removes.length > 0
    ? {
        path: `${RUNTIME_DIR}/`,
        action: "remove",
        detail:
          "playbook's runtime files (cache, logs, sessions, grants, lock)",
        writes: [],
        removes,
      }
    : null;
}

/**
 * settings.local.json without the entries the hook recorded adding (protected files, the read-only project); the
 * file goes when nothing else is left in it. The record itself goes with the runtime files.
 */
function planLocalSettingsRemoval(dir: string): UninstallStep | null {
  const record = readLocalBoundaryRecord(dir);
  const text = readLocalSettings(dir);
  if (!record || text === null) return null;
  const removed = planLocalBoundaryMerge(
    text,
    { protected: { denyWrite: [], deny: [] }, readOnly: { denyWrite: [] } },
    record,
  );
  if (!removed.ok)
    throw new PlaybookError(
      "E_CONFIG",
      `playbook cannot take its settings out of ${LOCAL_SETTINGS_FILE}: ${removed.problem}.`,
      {
        hint: "Fix it, then run `playbook uninstall` again. Nothing was changed.",
        location: locationAt(LOCAL_SETTINGS_FILE, removed),
      },
    );
  if (!removed.changed) return null;
  const empty = /^\s*\{\s*\}\s*$/.test(removed.text);
  return {
    path: LOCAL_SETTINGS_FILE,
    action: empty ? "remove" : "restore",
    detail: "the sandbox entries playbook's hook added",
    writes: empty ? [] : [{ path: LOCAL_SETTINGS_FILE, text: removed.text }],
    removes: empty ? [LOCAL_SETTINGS_FILE] : [],
  };
}

function isFinished(journalFile: string): boolean {
  try {
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as {
      status?: unknown;
    };
    return journal.status === "success";
  } catch {
    return false;
  }
}
