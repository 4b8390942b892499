// Snapshot benchmarks (issue 25), run by bench/run.ts or alone (`npm run build && tsx bench/snapshot.ts`): what
// keeping a copy of the uncommitted work costs a Bash call that may change files (`npm test`), in the demo-sized
// repository and in the 10,000-file one, with a clean tree, with changed files the newest snapshot already holds, and
// with a file edited before every call (each call then copies it). Each row is paired with `node -e 0` (A B A B ...),
// with NODE_EXTRA_CA_CERTS set and unset; `git status` (read-only: no snapshot) and git's listing alone give the floor.
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderLargePlaybook } from "../test/helpers/large-playbook.ts";
import { benchGit, commitSourceFiles } from "./bench-repo.ts";
import { guardedWorkspace, hookPayload } from "./workspaces.ts";

const root = join(import.meta.dirname, "..");
const hook = join(root, "dist", "hook.cjs");

interface Row {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  input?: string;
  env: NodeJS.ProcessEnv;
  before?: () => void;
}

interface Timed {
  name: string;
  command: number;
  baseline: number;
  ratio: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? sorted[mid]!
    : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function timeOnce(
  command: string,
  args: string[],
  options: { cwd?: string; input?: string; env: NodeJS.ProcessEnv },
): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    input: options.input ?? "",
    env: options.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0)
    throw new Error(`${args.join(" ")} exited ${result.status}`);
  if (String(result.stdout).includes('"deny"'))
    throw new Error(`refused: ${String(result.stdout)}`);
  return ms;
}

function paired(row: Row, pairs: number): Timed {
  const node = (env: NodeJS.ProcessEnv) =>
    timeOnce(process.execPath, ["-e", "0"], { env });
  const run = () => {
    row.before?.();
    return timeOnce(row.command, row.args, row);
  };
  for (let i = 0; i < 2; i++) {
    node(row.env);
    run();
  }
  const base: number[] = [];
  const cmd: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const b = node(row.env);
    const c = run();
    base.push(b);
    cmd.push(c);
    ratios.push(c / b);
  }
  const timed = {
    name: row.name,
    command: median(cmd),
    baseline: median(base),
    ratio: median(ratios),
  };
  process.stdout.write(
    `${timed.name}: ${timed.command.toFixed(1)} ms vs ${timed.baseline.toFixed(1)} ms (x${timed.ratio.toFixed(2)})\n`,
  );
  return timed;
}

/** A reviewed project as `init` leaves it (runtime folder ignored), with a package.json and `files` more files. */
function project(files: number): string {
  const dir = guardedWorkspace(renderLargePlaybook(3, 7));
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "bench", scripts: { test: "node --test" } }),
  );
  writeFileSync(join(dir, ".gitignore"), ".claude/playbook/\n");
  const git = benchGit(dir);
  git("add", "-A");
  git("commit", "-q", "-m", "package.json");
  if (files > 0) commitSourceFiles(dir, files, "many files");
  return dir;
}

/** The snapshot section of bench/results.md, as markdown lines. */
export function benchSnapshots(pairs: number): string[] {
  const rows: Timed[] = [];
  const envs: [string, NodeJS.ProcessEnv][] = [["set", { ...process.env }]];
  const unset: NodeJS.ProcessEnv = { ...process.env };
  delete unset["NODE_EXTRA_CA_CERTS"];
  if (process.env["NODE_EXTRA_CA_CERTS"]) envs.push(["unset", unset]);
  else envs[0] = ["unset", unset];
  for (const [size, files] of [
    ["demo-sized repository", 0],
    ["10,000-file repository", 10_000],
  ] as const) {
    const dir = project(files);
    try {
      const bash = (command: string) =>
        hookPayload(dir, "PreToolUse", "Bash", { command });
      const edit = hookPayload(dir, "PreToolUse", "Edit", {
        file_path: join(dir, "src", "a.ts"),
        old_string: "1",
        new_string: "2",
      });
      const row = (
        name: string,
        input: string,
        env: NodeJS.ProcessEnv,
        ca: string,
        before?: () => void,
      ): Row => ({
        name: `${name}, ${size}, NODE_EXTRA_CA_CERTS ${ca}`,
        command: process.execPath,
        args: [hook, "PreToolUse"],
        input,
        env: { ...env, CLAUDE_PROJECT_DIR: dir },
        ...(before ? { before } : {}),
      });
      for (const [ca, env] of envs) {
        rows.push(
          paired(
            row("Edit of a source file (no snapshot)", edit, env, ca),
            pairs,
          ),
          paired(
            row(
              "Bash `git status` (read-only: no snapshot)",
              bash("git status"),
              env,
              ca,
            ),
            pairs,
          ),
          paired(
            row("Bash `npm test`, clean tree", bash("npm test"), env, ca),
            pairs,
          ),
        );
        if (files > 0)
          rows.push(
            paired(
              {
                name: `git's listing alone (ls-files -m -o -d), ${size}, NODE_EXTRA_CA_CERTS ${ca}`,
                command: "git",
                args: [
                  "ls-files",
                  "-z",
                  "-v",
                  "-t",
                  "-m",
                  "-o",
                  "-d",
                  "--exclude-standard",
                ],
                cwd: dir,
                env,
              },
              pairs,
            ),
          );
      }
      // Work in progress: a changed file and three new ones.
      writeFileSync(join(dir, "src", "a.ts"), "export const a = 2;\n");
      for (let i = 0; i < 3; i++)
        writeFileSync(
          join(dir, "src", `wip-${i}.ts`),
          `export const wip${i} = ${i};\n`,
        );
      let edits = 0;
      for (const [ca, env] of envs)
        rows.push(
          paired(
            row(
              "Bash `npm test`, 4 files changed, the newest snapshot holds them",
              bash("npm test"),
              env,
              ca,
            ),
            pairs,
          ),
          paired(
            row(
              "Bash `npm test`, 4 files changed, one edited before each call (a new snapshot each call)",
              bash("npm test"),
              env,
              ca,
              () =>
                writeFileSync(
                  join(dir, "src", "wip-0.ts"),
                  `export const wip0 = ${++edits};\n`,
                ),
            ),
            pairs,
          ),
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return [
    "A Bash call that is not provably read-only runs after the hook keeps a copy of the uncommitted work",
    '(docs/trust-boundary.md, "Work the agent\'s spelling cannot destroy"): `git ls-files -m -o -d` and',
    "`git diff-index --cached` side by side, a stat of each changed file, and a copy of the ones the store does not",
    "hold yet. The repository is a reviewed project with a package.json (`npm test` is read for its script), and in",
    "the second half 10,000 more committed files. The Edit and `git status` rows take no snapshot; git's listing",
    "alone is the floor of a snapshot there.",
    "",
    "| call | hook (ms) | `node -e 0` (ms) | ratio |",
    "| --- | ---: | ---: | ---: |",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.command.toFixed(1)} | ${r.baseline.toFixed(1)} | ${r.ratio.toFixed(2)} |`,
    ),
  ];
}

if (process.argv[1]?.endsWith("snapshot.ts"))
  process.stdout.write(
    `${benchSnapshots(Number(process.env["BENCH_PAIRS"] ?? 20)).join("\n")}\n`,
  );
