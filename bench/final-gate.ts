// The archive's final gate on the demo project: what re-proving the commit before the push costs (docs/archive.md).
// The demo's task (calc, multiply) finished with every record, archived with the local provider against a bare
// remote, the gate on; fresh repositories each run.
import { execFileSync, spawn } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createSampleProject } from "../demo/sample-project.ts";
import { MULTIPLY } from "../demo/tasks.ts";
import { writeRecord } from "../src/adapters/record-store.ts";
import { readWorkingTree } from "../src/adapters/tree-fingerprint.ts";
import type { PlaybookSummary } from "../src/core/model/summary.ts";
import { summarizeDocument } from "../src/core/parse/summarize-document.ts";
import {
  phaseHash,
  reviewHash,
  subtaskHash,
} from "../src/core/records/content-hash.ts";
import { stateDoc } from "../test/helpers/sample-docs.ts";

const cli = join(import.meta.dirname, "..", "dist", "cli.mjs");
const PLAYBOOK = `plan/playbook-${MULTIPLY.name}.md`;
const BRANCH = `feat/${MULTIPLY.name}`;

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export interface FinalGateBenchResult {
  runs: number;
  /** Validations the gate ran per archive. */
  validations: number;
  /** The gate alone: the clean checkout, the sandbox, every validation, the fresh evidence. */
  gate: Spread;
  /** The whole archive with the gate, from Node's start to the outcome. */
  archive: Spread;
  sandboxed: boolean;
}

/** The demo project on its task's branch: the work done and uncommitted, every record written, the evidence current. */
function finishedDemo(): { base: string; dir: string } {
  const base = mkdtempSync(join(tmpdir(), "playbook-gate-bench-"));
  const project = createSampleProject(base);
  const { dir } = project;
  project.git("switch", "-q", "-c", BRANCH);
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write(
    PLAYBOOK,
    MULTIPLY.playbook("2026-11-23")
      .replace("reviewed: false", "reviewed: true")
      .replace(/- \[ \] \*\*/g, "- [x] **")
      .replace(/\*\*status\*\*: pending/g, "**status**: done"),
  );
  write(
    "state.md",
    stateDoc({ active: PLAYBOOK, branch: BRANCH, phase: "p1" }),
  );
  write(".gitignore", "node_modules/\n.claude/playbook/\n");
  write(
    ".claude/playbook.json",
    `${JSON.stringify({ archive: { requireRerun: true } })}\n`,
  );
  for (const items of Object.values(MULTIPLY.work))
    for (const item of items)
      if (item.tool === "Write") write(item.path, item.content);
      else
        write(
          item.path,
          readFileSync(join(dir, item.path), "utf8").replace(
            item.old,
            item.new,
          ),
        );
  // Staged, standing in for the file tools' list: the archive commits staged files and leaves other untracked ones.
  project.git("add", "-A");
  const summary = summarizeDocument(
    "playbook",
    readFileSync(join(dir, PLAYBOOK), "utf8"),
    PLAYBOOK,
  ) as PlaybookSummary;
  const at = new Date().toISOString();
  const tree = readWorkingTree(dir).fingerprint;
  const record = (r: Parameters<typeof writeRecord>[1]) => writeRecord(dir, r);
  record({
    kind: "review",
    playbook: PLAYBOOK,
    target: "playbook",
    contentHash: reviewHash(summary),
    verdict: "approve",
    by: "reviewer",
    at,
    detail: {},
  });
  for (const phase of summary.phases) {
    record({
      kind: "critic",
      playbook: PLAYBOOK,
      target: phase.id,
      contentHash: phaseHash(summary, phase.id) ?? "",
      verdict: "PASS",
      by: "critic",
      at,
      detail: {},
    });
    for (const subtask of phase.subtasks)
      for (const validation of [
        "technical",
        "consistency",
        "completeness",
      ] as const)
        record({
          kind: "evidence",
          playbook: PLAYBOOK,
          target: subtask.id,
          validation,
          contentHash: subtaskHash(summary, subtask.id) ?? "",
          verdict: "PASS",
          by: "playbook-verify",
          at,
          detail: { tree },
        });
  }
  return { base, dir };
}

async function once(): Promise<{
  gate: number;
  archive: number;
  validations: number;
  sandboxed: boolean;
}> {
  const { base, dir } = finishedDemo();
  try {
    const env = { ...process.env };
    delete env["GITHUB_TOKEN"];
    delete env["GH_TOKEN"];
    const started = process.hrtime.bigint();
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [cli, "archive", "--json", "--provider", "local", "--cwd", dir],
        { cwd: dir, env },
      );
      let out = "";
      let err = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString()));
      child.stderr.on("data", (c: Buffer) => (err += c.toString()));
      child.on("error", reject);
      child.on("close", () => resolve(out || err));
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const outcome = JSON.parse(stdout) as {
      status: string;
      steps: { id: string; detail: string }[];
      costs: { checks: Record<string, { ms: number } | undefined> };
    };
    if (outcome.status !== "success")
      throw new Error(
        `the demo's archive ended ${outcome.status}: ${outcome.steps.at(-1)?.detail ?? ""}`,
      );
    const records = join(
      dir,
      ".claude/playbook/records/plan__playbook-multiply.md",
    );
    const reproved = execFileSync(
      "grep",
      ["-l", "playbook-reprove", "-r", records],
      {
        encoding: "utf8",
      },
    )
      .split("\n")
      .filter(Boolean);
    const sandboxed = reproved.every(
      (file) =>
        (
          JSON.parse(readFileSync(file, "utf8")) as {
            detail: { sandboxed?: boolean };
          }
        ).detail.sandboxed === true,
    );
    return {
      gate: outcome.costs.checks["final-gate"]?.ms ?? 0,
      archive: ms,
      validations: reproved.length,
      sandboxed,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** Archives the finished demo task `runs` times with the final gate on; the gate's cost and the whole archive's. */
export async function benchFinalGate(runs = 5): Promise<FinalGateBenchResult> {
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(await once());
  const result: FinalGateBenchResult = {
    runs,
    validations: samples[0]?.validations ?? 0,
    gate: spread(samples.map((s) => s.gate)),
    archive: spread(samples.map((s) => s.archive)),
    sandboxed: samples.every((s) => s.sandboxed),
  };
  process.stdout.write(
    `final gate, demo project: ${fmt(result.gate)} ms of ${fmt(result.archive)} ms (${result.validations} validations)\n`,
  );
  return result;
}

/** bench/results.md's row for the final gate, under the archive's tables. */
export function finalGateSection(result: FinalGateBenchResult): string[] {
  return [
    `The final gate on the demo project (calc, the multiply task: ${result.validations} validations run again${result.sandboxed ? ", sandboxed," : " without a sandbox"} in a clean`,
    `checkout of the commit before the push; ${result.runs} run${result.runs === 1 ? "" : "s"}, median (range)). It is the archive's largest part; the`,
    "archive rows above run without it, so they show the archive's own overhead:",
    "",
    "| part | ms |",
    "| --- | ---: |",
    `| the final gate on the demo project | ${fmt(result.gate)} |`,
    `| the whole archive with it (Node's start to the outcome) | ${fmt(result.archive)} |`,
    "",
  ];
}

function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: sorted[sorted.length >> 1] ?? 0,
    min: sorted[0] ?? 0,
    max: sorted.at(-1) ?? 0,
  };
}

function fmt(value: Spread): string {
  const f = (n: number) => n.toFixed(0);
  return value.min === value.max
    ? f(value.median)
    : `${f(value.median)} (${f(value.min)}-${f(value.max)})`;
}

if (process.argv[1] === import.meta.filename)
  process.stdout.write(
    `${finalGateSection(await benchFinalGate(Number(process.argv[2] ?? 5))).join("\n")}\n`,
  );
