// Generator benchmark (issue 6): `playbook init --yes` on an empty git repository and on one with 10,000 committed
// files, fresh each run; and the upgrade (a second init, nothing to change). Target: under 1 s each.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { benchGit, commitSourceFiles } from "./bench-repo.ts";
import { join } from "node:path";

const cli = join(import.meta.dirname, "..", "dist", "cli.mjs");

export interface InitBenchResult {
  name: string;
  files: number;
  install: number;
  upgrade: number;
}

function repository(files: number): string {
  const dir = mkdtempSync(join(tmpdir(), "playbook-init-bench-"));
  benchGit(dir)("init", "-q", "-b", "main");
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "bench", scripts: { test: "vitest run" } }),
  );
  commitSourceFiles(dir, files, "init");
  return dir;
}

function timed(dir: string): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(
    process.execPath,
    [cli, "init", "--yes", "--cwd", dir],
    {
      encoding: "utf8",
    },
  );
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`init failed: ${result.stderr}`);
  return ms;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

export function benchInit(runs = 5): InitBenchResult[] {
  const results: InitBenchResult[] = [];
  for (const [name, files] of [
    ["empty repository", 0],
    ["repository with 10,000 files", 10_000],
  ] as const) {
    const install: number[] = [];
    const upgrade: number[] = [];
    const template = repository(files);
    for (let i = 0; i < runs; i++) {
      const dir = mkdtempSync(join(tmpdir(), "playbook-init-run-"));
      execFileSync("git", ["clone", "-q", template, dir]);
      install.push(timed(dir));
      upgrade.push(timed(dir));
      rmSync(dir, { recursive: true, force: true });
    }
    rmSync(template, { recursive: true, force: true });
    const result = {
      name,
      files,
      install: median(install),
      upgrade: median(upgrade),
    };
    process.stdout.write(
      `init --yes, ${name}: ${result.install.toFixed(0)} ms; upgrade ${result.upgrade.toFixed(0)} ms\n`,
    );
    results.push(result);
  }
  return results;
}

if (process.argv[1] === import.meta.filename) benchInit();
