// The Golden Path demo as a benchmark (issues 7 and 13): the wall time of `tsx demo/main.ts` (the build excluded),
// which drives the real Claude Code CLI, and the sum of its hook runs' latencies, for each archive provider.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");

export interface DemoBenchResult {
  provider: "local" | "github";
  /** Whether NODE_EXTRA_CA_CERTS was set for the demo, Claude Code and every hook. */
  extraCaCerts: boolean;
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

function runOnce(
  github: boolean,
  env: NodeJS.ProcessEnv,
): Summary & { processMs: number } {
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
      { encoding: "utf8", env: { ...env, NO_COLOR: "1" } },
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

/**
 * Medians over `runs` whole demos per provider, as the environment is; when it sets NODE_EXTRA_CA_CERTS (which makes
 * every Node start, each hook's included, read the certificates), the local provider once more without it.
 */
export function benchDemo(runs: number): DemoBenchResult[] {
  const withoutCa: NodeJS.ProcessEnv = { ...process.env };
  delete withoutCa["NODE_EXTRA_CA_CERTS"];
  const cases: { provider: "local" | "github"; env: NodeJS.ProcessEnv }[] = [
    { provider: "local", env: process.env },
    { provider: "github", env: process.env },
    ...(process.env["NODE_EXTRA_CA_CERTS"]
      ? [{ provider: "local" as const, env: withoutCa }]
      : []),
  ];
  return cases.map(({ provider, env }) => {
    const samples = Array.from({ length: runs }, () =>
      runOnce(provider === "github", env),
    );
    return {
      provider,
      extraCaCerts: Boolean(env["NODE_EXTRA_CA_CERTS"]),
      wallMs: median(samples.map((s) => s.processMs)),
      hookMs: median(samples.map((s) => s.hookMs)),
      archiveHookMs: median(samples.map((s) => s.slowestHookMs)),
      hookRuns: samples[0]!.hookRuns,
      steps: samples[0]!.steps,
    };
  });
}
