import { randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createGitPort } from "../../adapters/git-port.ts";
import { createGitHubPort } from "../../adapters/github-port.ts";
import { findGitHubToken } from "../../adapters/github-token.ts";
import { readRecords } from "../../adapters/record-store.ts";
import type {
  PlaybookSummary,
  StateSummary,
} from "../../core/model/summary.ts";
import { setStateField } from "../../core/edit/state-writers.ts";
import { summarizeDocument } from "../../core/parse/summarize-document.ts";
import { createRecordSet } from "../../core/records/record-set.ts";
import { readConfig } from "../workspace/read-config.ts";
import type { RerunReport } from "../records/rerun.ts";
import type { ArchiveDeps } from "./run-archive.ts";

/** The real dependencies of `playbook archive` for the project at `root`. */
export function createArchiveDeps(
  root: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ArchiveDeps {
  const summarizeState = (text: string) =>
    summarizeDocument("state", text, "state.md") as StateSummary;
  return {
    git: createGitPort(root),
    createGitHub: (options) => createGitHubPort(options),
    findToken: () => findGitHubToken(env),
    env,
    config: readConfig(root).config,
    now: () => new Date(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    pollIntervalMs:
      Number(env["PLAYBOOK_ARCHIVE_POLL_MS"]) > 0
        ? Number(env["PLAYBOOK_ARCHIVE_POLL_MS"])
        : 10_000,
    newId: randomUUID,
    readState: (dir) => {
      try {
        return summarizeState(readFileSync(join(dir, "state.md"), "utf8"));
      } catch {
        return null;
      }
    },
    readPlaybook: (dir, path) => {
      try {
        return summarizeDocument(
          "playbook",
          readFileSync(join(dir, path), "utf8"),
          path,
        ) as PlaybookSummary;
      } catch {
        return null;
      }
    },
    readRecords: (dir, path) => createRecordSet(readRecords(dir, path)),
    summarizeState,
    setStateField,
    rerun: (playbook) => rerunInChild(root, playbook, env),
  };
}

declare const __dirname: string | undefined;

/**
 * Runs `playbook check --rerun --playbook <playbook>` as a child of this package's own CLI (the sandbox runtime is
 * a chunk of it), and reads its verdict on the rerun alone: problems of other playbooks do not stop this archive.
 */
function rerunInChild(
  root: string,
  playbook: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ ok: boolean; detail: string }> {
  // dist/archive.cjs (the hook's) sits beside cli.mjs; in the CLI, cli.mjs is what runs.
  const cli =
    typeof __dirname === "string"
      ? join(__dirname, "cli.mjs")
      : join(dirname(process.argv[1] ?? ""), "cli.mjs");
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        cli,
        "check",
        "--rerun",
        "--json",
        "--playbook",
        playbook,
        "--cwd",
        root,
      ],
      { cwd: root, env: { ...env }, maxBuffer: 64 * 1024 * 1024 },
      (_error, stdout, stderr) => {
        let rerun: RerunReport | undefined;
        try {
          rerun = (JSON.parse(stdout) as { rerun?: RerunReport }).rerun;
        } catch {
          rerun = undefined;
        }
        if (!rerun)
          return resolve({
            ok: false,
            detail: `it did not run: ${stderr.trim().split("\n")[0] ?? "no output"}`,
          });
        const bad = rerun.rows.filter((r) => r.problem !== null);
        resolve({
          ok: rerun.ok,
          detail: bad
            .slice(0, 3)
            .map((r) => `${r.subtask} ${r.validation}: ${r.problem ?? ""}`)
            .join("; "),
        });
      },
    );
  });
}
