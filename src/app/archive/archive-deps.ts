import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createGitPort } from "../../adapters/git-port.ts";
import { createGitHubPort } from "../../adapters/github-port.ts";
import { findGitHubToken } from "../../adapters/github-token.ts";
import { readRecords } from "../../adapters/record-store.ts";
import type {
  PlaybookSummary,
  StateSummary,
} from "../../core/cache/summary.ts";
import { setStateField } from "../../core/edit/state-writers.ts";
import { summarizeDocument } from "../../core/parse/summarize-document.ts";
import { createRecordSet } from "../../core/records/record-set.ts";
import { readConfig } from "../read-config.ts";
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
  };
}
