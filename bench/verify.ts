// Verify benchmark (issue 14): `playbook verify p1.1` whose validations are two `true` commands, against the same
// commands run bare, each paired with `node -e 0` in the same run. The difference is verify's fixed overhead:
// Node's start, parsing, the tree fingerprint, the records, and starting the OS sandbox. Prints one markdown table.
// Run after `npm run build`: `npx tsx bench/verify.ts`.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../test/helpers/sample-docs.ts";
import { benchGit } from "./bench-repo.ts";

const cli = join(import.meta.dirname, "..", "dist", "cli.mjs");
const runs = Number(process.env["BENCH_PAIRS"] ?? 10);

function project(security: string): string {
  const dir = mkdtempSync(join(tmpdir(), "playbook-verify-bench-"));
  mkdirSync(join(dir, "plan"));
  mkdirSync(join(dir, ".claude"));
  writeFileSync(
    join(dir, "plan", "playbook-login-form.md"),
    SAMPLE_PLAYBOOK.replace(
      /- technical: "automated - [^"]*"\n(\s*)- consistency: 'automated - [^']*'/,
      '- technical: "automated - true"\n$1- consistency: "automated - true"',
    ),
  );
  writeFileSync(join(dir, "state.md"), SAMPLE_STATE);
  writeFileSync(
    join(dir, ".claude", "playbook.json"),
    JSON.stringify({ security }),
  );
  const git = benchGit(dir);
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  git("switch", "-q", "-c", "feat/login-form");
  return dir;
}

function ms(command: string, args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd, stdio: "ignore" });
  const took = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0 && command !== process.execPath)
    throw new Error(`${command} ${args.join(" ")} exited ${result.status}`);
  return took;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 0;
};
const range = (values: number[]) =>
  `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;

const rows: string[] = [];
for (const [label, security] of [
  ["sandboxed (strict)", "strict"],
  ["not sandboxed (developer)", "developer"],
] as const) {
  const dir = project(security);
  ms(process.execPath, [cli, "verify", "p1.1"], dir);
  const verify: number[] = [];
  const bare: number[] = [];
  const node: number[] = [];
  for (let i = 0; i < runs; i++) {
    node.push(ms(process.execPath, ["-e", "0"], dir));
    verify.push(ms(process.execPath, [cli, "verify", "p1.1"], dir));
    bare.push(ms("sh", ["-c", "true && true"], dir));
  }
  rows.push(
    `| ${label} | ${median(verify).toFixed(0)} (${range(verify)}) | ${median(bare).toFixed(0)} (${range(bare)}) | ${(median(verify) - median(bare)).toFixed(0)} | ${median(node).toFixed(0)} (${range(node)}) |`,
  );
}
process.stdout.write(
  [
    `\`playbook verify p1.1\` with two \`true\` validations, ${runs} runs each, median (range) in ms:`,
    "",
    "| verify | whole command | the commands bare | fixed overhead | `node -e 0` |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
  ].join("\n"),
);
