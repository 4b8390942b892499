import { execFileSync, spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readRecords } from "../../src/adapters/record-store.ts";
import { approveInTest } from "../helpers/guarded-repo.ts";
import {
  createFinishedRepo,
  finishedPlaybookWith,
} from "../helpers/finished-repo.ts";
import { requireSandboxTools } from "../helpers/required-tools.ts";
import { childEnv, CLI_BUNDLE } from "../helpers/run-cli.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-progress.md";

/** A playbook whose p1.1 has the three given automated validation commands, and p1.2 three that pass at once. */
function playbookWith(commands: [string, string, string]): string {
  const [technical, consistency, completeness] = commands.map((c) =>
    JSON.stringify(`automated - ${c}`),
  );
  return `# playbook-progress

## meta
\`\`\`yaml
reviewed: true
branch: feat/progress
\`\`\`

## goal
\`\`\`yaml
summary: verify shows its progress.
done_when:
  - the results come as they finish
\`\`\`

## context
Who: us. What: progress.

## phases

### p1: Progress
**status**: in_progress

- [ ] **p1.1**: the validations report as they finish
  - executor: claudecode
  - validations:
    - technical: ${technical}
    - consistency: ${consistency}
    - completeness: ${completeness}

- [ ] **p1.2**: the quick one
  - executor: claudecode
  - validations:
    - technical: "automated - true"
    - consistency: "automated - true"
    - completeness: "automated - true"

## final_tasks
- [ ] **ft1**: clean up
`;
}

function project(
  commands: [string, string, string],
  config: Record<string, unknown>,
): TempProject {
  const p = createTempProject({
    "state.md": `# state

## playbook
\`\`\`yaml
active: ${PLAYBOOK}
branch: feat/progress
\`\`\`
`,
    [PLAYBOOK]: playbookWith(commands),
    "src/app.ts": "export const app = 1;\n",
    ".gitignore":
      ".claude/playbook/*\n!.claude/playbook/records/\nnode_modules/\ngate\n",
    ".claude/playbook.json": `${JSON.stringify(config)}\n`,
    "node_modules/playbook-kit/package.json": '{"name":"playbook-kit"}\n',
  });
  approveInTest(p.dir, PLAYBOOK);
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: p.dir, encoding: "utf8" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@e.x", "commit", "-q", "-m", "i");
  return p;
}

/** `playbook <args>` started in its own process group (as a terminal's foreground job), its output read as it comes. */
function startCli(p: TempProject, args: readonly string[]) {
  const child = spawn(process.execPath, [CLI_BUNDLE, ...args, "--cwd", p.dir], {
    cwd: p.dir,
    env: childEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  let done = false;
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      done = true;
      for (const listener of listeners) listener();
      resolve(code);
    }),
  );
  return {
    pid: child.pid!,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    /** Resolves `seen` once stdout matches `pattern`, or `exited` when the command ended first. */
    waitFor: (pattern: RegExp) =>
      new Promise<"seen" | "exited">((resolve) => {
        const check = () => {
          if (pattern.test(stdout)) resolve("seen");
          else if (done) resolve("exited");
          else return;
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
    /** Resolves `exited` once the file exists, or when the command ended first. */
    waitForFile: async (path: string) => {
      await vi.waitFor(
        () => {
          if (!existsSync(path) && !done) throw new Error(`no ${path} yet`);
        },
        { timeout: 60_000, interval: 100 },
      );
      return existsSync(path) ? "seen" : "exited";
    },
  };
}

describe("playbook verify shows each validation as it finishes", () => {
  it("prints a validation's line while the next one still runs, then the summary", async () => {
    // The second validation waits for a file the test writes only once the first one's line is on screen.
    const p = project(
      ["echo first", "until [ -e gate ]; do sleep 0.1; done", "echo third"],
      { security: "trusted" },
    );

    const run = startCli(p, ["verify", "p1.1", "--timeout", "30"]);

    expect(await run.waitFor(/^✓ p1\.1 technical +PASS /m)).toBe("seen");
    expect(run.stdout()).not.toMatch(/consistency|completeness/);
    p.write("gate", "");
    expect(await run.exited).toBe(0);
    const lines = run.stdout().split("\n");
    const results = lines.filter((l) => /^[✓✗] /.test(l));
    expect(results).toEqual([
      expect.stringMatching(
        /^✓ p1\.1 technical {5}PASS +\d+(ms|\.\ds) {2}echo first {2}exit 0$/,
      ),
      expect.stringMatching(
        /^✓ p1\.1 consistency {3}PASS +\d+(ms|\.\ds) {2}until \[ -e gate \]; do sleep 0\.1; done {2}exit 0$/,
      ),
      expect.stringMatching(
        /^✓ p1\.1 completeness {2}PASS +\d+(ms|\.\ds) {2}echo third {2}exit 0$/,
      ),
    ]);
    // The subtask comes first, the summary and the next step last.
    expect(lines[0]).toMatch(/^p1\.1 {2}the validations report as they finish/);
    expect(lines).toContainEqual(
      expect.stringMatching(/^p1\.1: 3 of 3 validations passed in \d/),
    );
    expect(lines.at(-2)).toBe(
      "Next: Every validation of p1.1 is proven: check it (`- [x] **p1.1**`).",
    );
  });

  it("keeps one block per subtask, in order, when verifying a phase", async () => {
    const p = project(["true", "false", "true"], { security: "trusted" });

    const run = startCli(p, ["verify", "p1"]);

    expect(await run.exited).toBe(1);
    const lines = run
      .stdout()
      .split("\n")
      .filter((l) => /^(p1\.\d {2}|[✓✗] |p1\.\d: |Next: )/.test(l))
      .map((l) =>
        l
          .replace(/^([✓✗] \S+ \S+) +(PASS|FAIL) .*$/, "$1 $2")
          .replace(/^(p1\.\d) {2}.*$/, "$1")
          .replace(/^(p1\.\d: .*) in .*$/, "$1")
          .replace(/^(Next: \S+ \S+).*$/, "$1"),
      );
    expect(lines).toEqual([
      "p1.1",
      "✓ p1.1 technical PASS",
      "✗ p1.1 consistency FAIL",
      "✓ p1.1 completeness PASS",
      "p1.1: 2 of 3 validations passed",
      "Next: Fix what",
      "p1.2",
      "✓ p1.2 technical PASS",
      "✓ p1.2 consistency PASS",
      "✓ p1.2 completeness PASS",
      "p1.2: 3 of 3 validations passed",
      "Next: Every validation",
    ]);
  });
});

// The process tree is read from /proc and the sandbox is bubblewrap's: Linux's. macOS has neither.
const onLinux = describe.runIf(process.platform === "linux");

/** A process as /proc shows it: its pid with its start time, so a reused pid is not taken for it. */
interface ProcessId {
  pid: number;
  start: string;
  command: string;
}

function readProcesses(): (ProcessId & { ppid: number })[] {
  const found: (ProcessId & { ppid: number })[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      found.push({
        pid: Number(name),
        ppid: Number(fields[1]),
        start: fields[19]!,
        command: readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll(
          "\0",
          " ",
        ),
      });
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** `root` and every process below it, now. */
function processTree(root: number): ProcessId[] {
  const all = readProcesses();
  const tree = all.filter((p) => p.pid === root);
  for (let i = 0; i < tree.length; i++)
    tree.push(...all.filter((p) => p.ppid === tree[i]!.pid));
  return tree;
}

function isAlive(p: ProcessId): boolean {
  try {
    const stat = readFileSync(`/proc/${p.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] === p.start && fields[0] !== "Z";
  } catch {
    return false;
  }
}

/** A project whose p1.1 starts a grandchild that sleeps and writes its pid to a folder outside the project. */
function sleeperProject(checked: boolean) {
  const outside = createTempProject();
  const marker = `6000.${randomInt(1_000_000, 9_999_999)}`;
  const pidFile = outside.path("sleeper.pid");
  const p = project(
    [`sh -c 'sleep ${marker} & echo $! > ${pidFile}; wait'`, "true", "true"],
    { security: "strict", verify: { allowWrite: [outside.dir] } },
  );
  if (checked)
    p.write(
      PLAYBOOK,
      p.read(PLAYBOOK).replace("- [ ] **p1.1**", "- [x] **p1.1**"),
    );
  return { p, marker, pidFile };
}

/** Every file git sees, ignored ones included: a mount point the sandbox left would show here. */
function gitStatus(p: TempProject): string {
  return execFileSync(
    "git",
    ["status", "--porcelain", "--ignored", "--untracked-files=all"],
    { cwd: p.dir, encoding: "utf8" },
  );
}

/**
 * Waits for the sleeper, snapshots the process tree below the CLI, sends `signal` (Ctrl-C goes to the terminal's
 * whole process group, SIGTERM to playbook alone), and returns the exit code once the CLI ended, with the tree.
 */
async function interrupt(
  run: ReturnType<typeof startCli>,
  sleeper: { marker: string; pidFile: string },
  signal: "SIGINT" | "SIGTERM",
  started: ProcessId[],
) {
  expect(await run.waitForFile(sleeper.pidFile)).toBe("seen");
  const tree = processTree(run.pid);
  started.push(...tree);
  // The snapshot holds the sandbox (bubblewrap) and the validation's grandchild, seen from outside.
  expect(tree.some((t) => t.command.startsWith("bwrap "))).toBe(true);
  expect(tree.some((t) => t.command.includes(`sleep ${sleeper.marker}`))).toBe(
    true,
  );
  if (signal === "SIGINT") process.kill(-run.pid, "SIGINT");
  else process.kill(run.pid, "SIGTERM");
  const exit = await Promise.race([
    run.exited,
    new Promise<"still running">((resolve) =>
      setTimeout(() => resolve("still running"), 60_000).unref(),
    ),
  ]);
  return { exit, tree };
}

async function expectAllGone(tree: ProcessId[]): Promise<void> {
  await vi.waitFor(
    () => expect(tree.filter(isAlive).map((t) => t.command)).toEqual([]),
    { timeout: 30_000, interval: 200 },
  );
}

onLinux("Ctrl-C on playbook verify", () => {
  beforeEach(requireSandboxTools);
  const started: ProcessId[] = [];
  afterEach(() => {
    // A failing run must not leave its sleeper behind.
    for (const p of started.splice(0))
      if (isAlive(p)) process.kill(p.pid, "SIGKILL");
  });

  it.each([
    ["Ctrl-C (SIGINT to the terminal's process group)", "SIGINT", 130],
    ["SIGTERM to playbook alone", "SIGTERM", 143],
  ] as const)(
    "%s ends the whole sandboxed tree at once, removes the sandbox's placeholders and records nothing",
    async (_name, signal, code) => {
      const sleeper = sleeperProject(false);
      const { p } = sleeper;
      // A finished verify first, so that what any verify leaves (caches, p1.2's records) is there before the count.
      expect(await startCli(p, ["verify", "p1.2"]).exited).toBe(0);
      const before = gitStatus(p);

      const run = startCli(p, ["verify", "p1.1"]);
      await run.waitForFile(sleeper.pidFile);
      // While it runs, the sandbox's mount points are in the project.
      expect(gitStatus(p)).not.toBe(before);
      const { exit, tree } = await interrupt(run, sleeper, signal, started);

      expect(exit).toBe(code);
      expect(run.stderr().trim().split("\n")).toEqual([
        `Interrupted by ${signal === "SIGINT" ? "Ctrl-C (SIGINT)" : "SIGTERM"}: the validations of p1.1 were stopped and none was recorded.`,
      ]);
      await expectAllGone(tree);
      expect(gitStatus(p)).toBe(before);
      expect(
        readRecords(p.dir, PLAYBOOK).filter(
          (r) => r.kind === "evidence" && r.target === "p1.1",
        ),
      ).toEqual([]);
      // No result written into the playbook either.
      const p11 = p.read(PLAYBOOK).split("**p1.2**")[0]!.split("**p1.1**")[1];
      expect(p11).not.toMatch(/PASS|FAIL/);
    },
  );

  it.each([
    ["Ctrl-C (SIGINT to the terminal's process group)", "SIGINT", 130],
    ["SIGTERM to playbook alone", "SIGTERM", 143],
  ] as const)(
    "%s on playbook archive ends the final gate's sandboxed tree, pushes nothing and leaves --resume as the next step",
    async (_name, signal, code) => {
      const outside = createTempProject();
      const marker = `6000.${randomInt(1_000_000, 9_999_999)}`;
      const pidFile = outside.path("sleeper.pid");
      const playbook = finishedPlaybookWith(
        `automated - sh -c 'sleep ${marker} & echo $! > ${pidFile}; wait'`,
      );
      expect(playbook).toContain(`sleep ${marker}`);
      const repo = createFinishedRepo({
        playbook,
        files: {
          ".claude/playbook.json": JSON.stringify({
            security: "strict",
            archive: { requireRerun: true, provider: "local" },
            verify: { allowWrite: [outside.dir] },
          }),
        },
      });
      const remoteMain = () =>
        execFileSync("git", ["rev-parse", "main"], {
          cwd: repo.remoteDir,
          encoding: "utf8",
        });
      const mainBefore = remoteMain();

      const run = startCli(repo, ["archive"]);
      const { exit, tree } = await interrupt(
        run,
        { marker, pidFile },
        signal,
        started,
      );

      expect(exit).toBe(code);
      expect(run.stderr()).toContain(
        `Interrupted by ${signal === "SIGINT" ? "Ctrl-C (SIGINT)" : "SIGTERM"}: the archive of plan/playbook-login-form.md stopped at push; nothing was pushed. Next: run \`playbook archive --resume\`.`,
      );
      await expectAllGone(tree);
      expect(remoteMain()).toBe(mainBefore);
      expect(
        execFileSync("git", ["branch", "--list"], {
          cwd: repo.remoteDir,
          encoding: "utf8",
        }),
      ).not.toContain("feat/");
      const journal = JSON.parse(
        readFileSync(
          repo.path(".claude/playbook/archive-journal.json"),
          "utf8",
        ),
      ) as { status: string; next: string };
      expect(journal.status).toBe("partial");
      expect(journal.next).toContain("playbook archive --resume");
    },
  );

  it("Ctrl-C on playbook check --rerun stops it the same way", async () => {
    const sleeper = sleeperProject(true);
    const { p } = sleeper;
    // A check first, for the caches it leaves; it fails: p1.1 is ticked without proof.
    expect(await startCli(p, ["check"]).exited).toBe(1);
    const before = gitStatus(p);

    const run = startCli(p, ["check", "--rerun"]);
    const { exit, tree } = await interrupt(run, sleeper, "SIGINT", started);

    expect(exit).toBe(130);
    expect(run.stderr().trim().split("\n")).toEqual([
      "Interrupted by Ctrl-C (SIGINT): the rerun was stopped.",
    ]);
    await expectAllGone(tree);
    expect(gitStatus(p)).toBe(before);
  });
});
