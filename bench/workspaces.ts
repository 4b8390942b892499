// The projects the benchmarks run in: temporary folders with a playbook, and for the guard rows a git repository on
// the playbook's branch with its review and proof records.
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeRecord } from "../src/adapters/record-store.ts";
import { readWorkingTree } from "../src/adapters/tree-fingerprint.ts";
import type { PlaybookSummary } from "../src/core/model/summary.ts";
import { summarizeDocument } from "../src/core/parse/summarize-document.ts";
import { reviewHash, subtaskHash } from "../src/core/records/content-hash.ts";
import { stateDoc } from "../test/helpers/sample-docs.ts";
import { benchGit, commitSourceFiles } from "./bench-repo.ts";

export function workspace(playbook: string): string {
  const dir = mkdtempSync(join(tmpdir(), "playbook-bench-"));
  mkdirSync(join(dir, "plan"));
  writeFileSync(join(dir, "plan", "playbook-bench.md"), playbook);
  writeFileSync(
    join(dir, "state.md"),
    stateDoc({
      active: "plan/playbook-bench.md",
      branch: "feat/large-migration",
      phase: "p1",
    }),
  );
  return dir;
}

/**
 * A project as a user has it mid-task: a git repository on the playbook's branch, the playbook reviewed and backed by
 * a review record, this session's reads remembered, the parse cache warm.
 */
export function guardedWorkspace(playbook: string): string {
  const dir = workspace(playbook.replace("reviewed: false", "reviewed: true"));
  writeFileSync(join(dir, "CLAUDE.md"), "# Project\n");
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "a.ts"), "export const a = 1;\n");
  const git = benchGit(dir);
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  git("switch", "-q", "-c", "feat/large-migration");
  const path = "plan/playbook-bench.md";
  const summary = benchSummary(dir, path);
  writeRecord(dir, {
    kind: "review",
    playbook: path,
    target: "playbook",
    contentHash: reviewHash(summary),
    verdict: "approve",
    by: "reviewer",
    at: new Date().toISOString(),
    detail: {},
  });
  mkdirSync(join(dir, ".claude", "playbook", "sessions"), { recursive: true });
  writeFileSync(
    join(dir, ".claude", "playbook", "sessions", "bench.json"),
    JSON.stringify({ reads: ["CLAUDE.md", "state.md", path] }),
  );
  return dir;
}

/**
 * `guardedWorkspace` plus `files` more committed source files, `uncommitted` new files and a changed one left
 * uncommitted, and the first subtask proven: evidence for each
 * automated or hybrid validation with the working tree's fingerprint, a confirmation for each manual one. The tick
 * of that subtask then takes the whole proof path, the fingerprint comparison included.
 */
export function provenWorkspace(
  playbook: string,
  files: number,
  uncommitted = 0,
): string {
  const dir = guardedWorkspace(playbook);
  if (files > 0) commitSourceFiles(dir, files, "many files");
  // Work in progress, as the agent has it when it ticks a box: changed and new files, not committed yet.
  for (let i = 0; i < uncommitted; i++)
    writeFileSync(
      join(dir, "src", `wip-${i}.ts`),
      `export const wip${i} = ${i};\n`,
    );
  if (uncommitted > 0)
    writeFileSync(join(dir, "src", "a.ts"), "export const a = 2;\n");
  const path = "plan/playbook-bench.md";
  const summary = benchSummary(dir, path);
  const subtask = summary.phases
    .flatMap((p) => p.subtasks)
    .find((s) => !s.checked);
  if (!subtask) throw new Error("the bench playbook has no subtask");
  // verify runs a while after the agent's last write, not in the same second of the file system's clock.
  settleFileClock(join(dir, "src", "a.ts"));
  const tree = readWorkingTree(dir).fingerprint;
  const at = new Date().toISOString();
  const contentHash = subtaskHash(summary, subtask.id) ?? "none";
  for (const [name, validation] of Object.entries(subtask.validations)) {
    if (validation.kind !== "manual")
      writeRecord(dir, {
        kind: "evidence",
        playbook: path,
        target: subtask.id,
        validation: name as "technical" | "consistency" | "completeness",
        contentHash,
        verdict: "PASS",
        by: "playbook-verify",
        at,
        detail: { command: "true", exitCode: 0, tree },
      });
    if (validation.kind !== "automated")
      writeRecord(dir, {
        kind: "confirmation",
        playbook: path,
        target: subtask.id,
        contentHash,
        verdict: "PASS",
        by: "user",
        at,
        detail: {},
      });
  }
  return dir;
}

export function benchSummary(dir: string, path: string): PlaybookSummary {
  return summarizeDocument(
    "playbook",
    readFileSync(join(dir, path), "utf8"),
    path,
  ) as PlaybookSummary;
}

export function hookPayload(
  dir: string,
  event: string,
  tool: string,
  input: Record<string, unknown>,
): string {
  return JSON.stringify({
    session_id: "bench",
    transcript_path: "/tmp/t.jsonl",
    cwd: dir,
    hook_event_name: event,
    permission_mode: "default",
    tool_name: tool,
    tool_input: input,
    tool_use_id: "toolu_bench",
    ...(event === "PostToolUse"
      ? { tool_response: { filePath: input["file_path"], success: true } }
      : {}),
  });
}

/**
 * Waits until the file system's clock is in a later second than the setup's last write (`file` is written last):
 * verify runs a while after the agent's last write, and a file written in the reading's own second is one git lists
 * on every later tick, since git compares whole seconds (docs/decisions.md).
 */
function settleFileClock(file: string): void {
  const probe = `${file}.settle`;
  writeFileSync(probe, "");
  const second = statSync(probe, { bigint: true }).ctimeNs / 1_000_000_000n;
  for (;;) {
    writeFileSync(probe, "");
    if (statSync(probe, { bigint: true }).ctimeNs / 1_000_000_000n > second)
      break;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  rmSync(probe);
}
