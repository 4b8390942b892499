// The Golden Path demo as a benchmark (issues 7 and 13): the wall time of `tsx demo/main.ts` (the build excluded),
// which drives the real Claude Code CLI, and the sum of its hook runs' latencies, for each archive provider.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");

export interface DemoBenchResult {
  provider: "local" | "github";
  wallMs: number;
  hookMs: number;
  hookRuns: number;
  /** The slowest hook run: the PostToolUse that runs the archive. */
  archiveHookMs: number;
  steps: number;
}

interface Summary {
  wallMs: number;
  hookMs: number;
  slowestHookMs: number;
  hookRuns: number;
  steps: number;
  unexpected: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? sorted[mid]!
    : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function runOnce(github: boolean): Summary & { processMs: number } {
  const dir = mkdtempSync(join(tmpdir(), "playbook-demo-bench-"));
  const file = join(dir, "summary.json");
  try {
    const started = process.hrtime.bigint();
    const result = spawnSync(
      join(root, "node_modules", ".bin", "tsx"),
      [
        join(root, "demo", "main.ts"),
        "--summary",
        file,
        ...(github ? ["--github"] : []),
      ],
      { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
    );
    const processMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.status !== 0)
      throw new Error(`the demo failed:\n${result.stdout}\n${result.stderr}`);
    const summary = JSON.parse(readFileSync(file, "utf8")) as Summary;
    if (summary.unexpected !== 0)
      throw new Error("the demo left the Golden Path");
    return { ...summary, processMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Medians over `runs` whole demos per provider. */
export function benchDemo(runs: number): DemoBenchResult[] {
  return (["local", "github"] as const).map((provider) => {
    const samples = Array.from({ length: runs }, () =>
      runOnce(provider === "github"),
    );
    return {
      provider,
      wallMs: median(samples.map((s) => s.processMs)),
      hookMs: median(samples.map((s) => s.hookMs)),
      archiveHookMs: median(samples.map((s) => s.slowestHookMs)),
      hookRuns: samples[0]!.hookRuns,
      steps: samples[0]!.steps,
    };
  });
}
