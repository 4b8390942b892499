// Trust-boundary benchmarks (issue 14), run by bench/run.ts: `playbook verify p1.1` whose validations are two `true`
// commands, against the same commands run bare, each paired with `node -e 0` in the same run (the difference is
// verify's fixed overhead: Node's start, parsing, the tree fingerprint, the records, the OS sandbox); and the
// committed loader against calling `dist/hook.cjs` directly.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../test/helpers/sample-docs.ts";
import { benchGit } from "./bench-repo.ts";

const root = join(import.meta.dirname, "..");
const cli = join(root, "dist", "cli.mjs");

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

/** The verify table, as markdown lines. */
export function benchVerify(runs: number): string[] {
  const rows: string[] = [];
  for (const [label, security] of [
    ["security strict", "strict"],
    ["security developer (sandboxed too where it can be)", "developer"],
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
  return [
    `\`playbook verify p1.1\` with two \`true\` validations, ${runs} runs each, median (range) in ms:`,
    "",
    "| verify | whole command | the commands bare | fixed overhead | `node -e 0` |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...rows,
  ];
}

/**
 * What the committed loader (`.claude/hooks/playbook.cjs`, which hashes the bundles before handing over) adds to a
 * PreToolUse Read, against `dist/hook.cjs` called directly, each paired with `node -e 0`.
 */
export function benchLoader(runs: number): string[] {
  const dir = project("strict");
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(root, join(dir, "node_modules", "playbook-kit"));
  spawnSync(process.execPath, [cli, "init", "--yes", "--cwd", dir], {
    stdio: "ignore",
  });
  const input = JSON.stringify({
    session_id: "bench",
    cwd: dir,
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: join(dir, "state.md") },
  });
  const rows: string[] = [];
  for (const caCerts of [process.env["NODE_EXTRA_CA_CERTS"], undefined]) {
    const env: NodeJS.ProcessEnv = { ...process.env, CLAUDE_PROJECT_DIR: dir };
    if (caCerts === undefined) delete env["NODE_EXTRA_CA_CERTS"];
    const time = (args: string[]) => {
      const start = process.hrtime.bigint();
      spawnSync(process.execPath, args, {
        input,
        env,
        stdio: ["pipe", "ignore", "ignore"],
      });
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const node: number[] = [];
    const direct: number[] = [];
    const loader: number[] = [];
    for (let i = 0; i < runs; i++) {
      node.push(time(["-e", "0"]));
      direct.push(time([join(root, "dist", "hook.cjs"), "PreToolUse"]));
      loader.push(
        time([join(dir, ".claude", "hooks", "playbook.cjs"), "PreToolUse"]),
      );
    }
    const ca = caCerts === undefined ? "unset" : "set";
    const row = (what: string, values: number[]) =>
      `| ${what}, NODE_EXTRA_CA_CERTS ${ca} | ${median(values).toFixed(0)} (${range(values)}) | ${(median(values) / median(node)).toFixed(2)} |`;
    rows.push(
      row("`node -e 0`", node),
      row("`dist/hook.cjs` directly", direct),
      row(
        "the loader (bundles checked against its note, hashed when changed)",
        loader,
      ),
    );
    if (process.env["NODE_EXTRA_CA_CERTS"] === undefined) break;
  }
  return [
    `A PreToolUse Read, ${runs} runs each, median (range) in ms:`,
    "",
    "| how the hook starts | ms | ratio to `node -e 0` |",
    "| --- | ---: | ---: |",
    ...rows,
  ];
}
