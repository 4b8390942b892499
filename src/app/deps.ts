import type { CiSetupDeps } from "./scaffold/check-ci-setup.ts";
import { randomUUID } from "node:crypto";
import { spawn } from "node:child_process";
import { readDocumentText } from "../adapters/read-document.ts";
import { dirname, join } from "node:path";
import { createGitPort } from "../adapters/git-port.ts";
import { findGitHubToken } from "../adapters/github-token.ts";
import { takeGrant } from "../adapters/grant-store.ts";
import { readRecords } from "../adapters/record-store.ts";
import type { PlaybookSummary, StateSummary } from "../core/model/summary.ts";
import { gitHubHosts } from "../core/archive/git-auth.ts";
import {
  toGateFailure,
  type GateOptions,
  type GateOutcome,
  type GateRow,
} from "../core/archive/final-gate.ts";
import { summarizeDocument } from "../core/parse/summarize-document.ts";
import { createRecordSet } from "../core/records/record-set.ts";
import type { ArchiveDeps } from "./archive/run-archive.ts";
import type { LoopDeps } from "./loop/loop.ts";
import type { ConfirmDeps } from "./records/confirm.ts";
import { isPersonAtTerminal, type RecordDeps } from "./records/record-deps.ts";
import type { RerunReport } from "./records/rerun.ts";
import { startIsolation } from "./records/start-isolation.ts";
import { readWorkingTree } from "../adapters/tree-fingerprint.ts";
import { runShellCommand, type VerifyDeps } from "./records/verify.ts";
import { locateHook } from "./scaffold/locate-hook.ts";
import type { DoctorDeps } from "./scaffold/run-doctor.ts";
import { runProgram } from "../adapters/run-program.ts";
import type { InitDeps } from "./scaffold/run-init.ts";
import type { SnapshotDeps } from "./snapshot/take-snapshot.ts";
import { readConfig } from "./workspace/read-config.ts";

/*
 * The one place where the use cases meet the machine: each function below wires a use case's ports (its `*Deps`,
 * declared beside it; the git and GitHub ports in core/ports.ts) to the real adapters, the clock and the
 * environment. Tests pass their own. The hook's wiring is the one exception: it lives in entries/hook-harness.ts,
 * because it loads its bundles lazily and must not reach what this module imports.
 */

/** The real dependencies of `playbook archive` for the project at `root`. */
export function createArchiveDeps(
  root: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ArchiveDeps {
  const config = readConfig(root).config;
  let token: string | null | undefined;
  // Looked up once: the provider's choice and the push's auth header ask for the same token.
  const findToken = () => (token ??= findGitHubToken(env));
  return {
    git: createGitPort(root, {
      credentials: config.archive.gitCredentials,
      githubToken: findToken,
      githubHosts: gitHubHosts([config.archive.apiUrl, env["GITHUB_API_URL"]]),
      env,
    }),
    // Octokit loads only when GitHub is used (about 10 ms of a start): not for the local provider, nor for the other
    // commands wired here.
    createGitHub: async (options) =>
      (await import("../adapters/github-port.ts")).createGitHubPort(options),
    findToken,
    env,
    config,
    now: () => new Date(),
    clock: () => Number(process.hrtime.bigint()) / 1e6,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    pollIntervalMs:
      Number(env["PLAYBOOK_ARCHIVE_POLL_MS"]) > 0
        ? Number(env["PLAYBOOK_ARCHIVE_POLL_MS"])
        : 10_000,
    newId: randomUUID,
    readState: (dir) => {
      try {
        return summarizeDocument(
          "state",
          readDocumentText(join(dir, "state.md"), "state", "state.md"),
          "state.md",
        ) as StateSummary;
      } catch {
        return null;
      }
    },
    readPlaybook: (dir, path) => {
      try {
        return summarizeDocument(
          "playbook",
          readDocumentText(join(dir, path), "playbook", path),
          path,
        ) as PlaybookSummary;
      } catch {
        return null;
      }
    },
    readRecords: (dir, path) => createRecordSet(readRecords(dir, path)),
    rerun: (playbook, options) => rerunInChild(root, playbook, env, options),
  };
}

declare const __dirname: string | undefined;

/**
 * Runs `playbook check --rerun --playbook <playbook>` as a child of this package's own CLI (the sandbox runtime is
 * a chunk of it), and reads its verdict on the rerun alone: problems of other playbooks do not stop this archive.
 * Each validation is told to `onRow` as it finishes (the child's `--progress` lines on stderr).
 */
function rerunInChild(
  root: string,
  playbook: string,
  env: Readonly<Record<string, string | undefined>>,
  { onRow, budgetSeconds, signal }: GateOptions,
): Promise<GateOutcome> {
  // dist/archive.cjs (the hook's) sits beside cli.mjs; in the CLI, cli.mjs is what runs.
  const cli =
    typeof __dirname === "string"
      ? join(__dirname, "cli.mjs")
      : join(dirname(process.argv[1] ?? ""), "cli.mjs");
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        cli,
        "check",
        "--rerun",
        "--json",
        "--progress",
        "--playbook",
        playbook,
        // What is about to be pushed, checked out clean: an ignored or uncommitted file the code needs is not there.
        "--at",
        "HEAD",
        "--record",
        ...(budgetSeconds === undefined
          ? []
          : ["--budget", String(budgetSeconds)]),
        "--cwd",
        root,
      ],
      { cwd: root, env: { ...env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    // The child stops its validations' process trees itself on the signal (as `check --rerun` does at a terminal);
    // it gets it here too when only this process was signalled (a SIGTERM, a Ctrl-C outside a terminal's group).
    const forward = () =>
      child.kill(signal?.reason === "SIGTERM" ? "SIGTERM" : "SIGINT");
    signal?.addEventListener("abort", forward, { once: true });
    const stdout: Buffer[] = [];
    const stderr: string[] = [];
    let pending = "";
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const row = progressRow(line);
        if (row) onRow?.(row);
        else if (stderr.length < 20) stderr.push(line);
      }
    });
    const finish = (started: string | null) => {
      signal?.removeEventListener("abort", forward);
      if (signal?.aborted === true)
        return resolve({
          ok: false,
          detail: `it was interrupted (${String(signal.reason)})`,
          outOfTime: false,
          interrupted: true,
          passed: 0,
        });
      let rerun: RerunReport | undefined;
      try {
        rerun = (
          JSON.parse(Buffer.concat(stdout).toString("utf8")) as {
            rerun?: RerunReport;
          }
        ).rerun;
      } catch {
        rerun = undefined;
      }
      if (!rerun)
        return resolve({
          ok: false,
          detail: `it did not run: ${started ?? stderr.find((l) => l.trim() !== "")?.trim() ?? "no output"}`,
          outOfTime: false,
          passed: 0,
        });
      resolve({
        ok: rerun.ok,
        detail: toGateFailure(rerun),
        outOfTime: rerun.outOfTime,
        passed: rerun.rows.filter((r) => r.problem === null).length,
      });
    };
    child.on("error", (error) => finish(error.message));
    child.on("close", () => finish(null));
  });
}

/** A `--progress` line of `check --rerun`: one finished validation, else null. */
function progressRow(line: string): GateRow | null {
  if (!line.startsWith('{"rerunRow":')) return null;
  try {
    return (JSON.parse(line) as { rerunRow: GateRow }).rerunRow;
  } catch {
    return null;
  }
}

/** The real dependencies for the project at `root`. */
export function createRecordDeps(root: string): RecordDeps {
  return {
    now: () => new Date(),
    isPersonAtTerminal: personAtTerminal,
    takeGrant: (kind) => takeGrant(root, kind, new Date()),
  };
}

/** The real dependencies: the clock, {@link runShellCommand}, the sandbox and git. */
export function createVerifyDeps(): VerifyDeps {
  return {
    now: () => new Date(),
    run: runShellCommand,
    isolate: startIsolation,
    readTree: (root) => readWorkingTree(root, 120_000),
    securityMode: (root) => readConfig(root).config.security,
  };
}

/**
 * The running package, as `findPackageRoot` (adapters/package-root.ts) finds it. Passed in rather than looked up here:
 * the lookup uses `import.meta`, which the CommonJS bundles that import this module do not have.
 */
export interface RunningPackage {
  root: string;
  version: string;
}

/** `playbook doctor`: the environment, the running package, and a way to run programs. */
export function createDoctorDeps(pkg: RunningPackage): DoctorDeps {
  return {
    env: process.env,
    packageRoot: pkg.root,
    packageVersion: pkg.version,
    run: runProgram,
  };
}

/** Doctor's questions to GitHub about CI (Octokit loads only when they are asked). */
export function createCiSetupDeps(): CiSetupDeps {
  return {
    env: process.env,
    createGitHub: async (options) =>
      (await import("../adapters/github-port.ts")).createGitHubPort(options),
  };
}

/** `playbook init`, less what only the terminal knows (asking, showing, confirming). */
export function createInitDeps(
  pkg: RunningPackage,
): Pick<
  InitDeps,
  "packageRoot" | "packageVersion" | "now" | "localeLang" | "locate"
> {
  return {
    packageRoot: pkg.root,
    packageVersion: pkg.version,
    now: () => new Date(),
    localeLang: /^ja/i.test(process.env["LC_ALL"] ?? process.env["LANG"] ?? "")
      ? "ja"
      : "en",
    locate: (dir) => locateHook(dir, pkg.root),
  };
}

/** `playbook loop`: the clock, fresh ids, and the Claude Code session the command runs in. */
export function createLoopDeps(): LoopDeps {
  return {
    now: () => new Date(),
    newId: randomUUID,
    sessionId: process.env["CLAUDE_CODE_SESSION_ID"] ?? null,
  };
}

/** `playbook confirm`: who runs it, and how to ask them. */
export function createConfirmDeps(
  ask: (prompt: string) => Promise<string>,
): ConfirmDeps {
  return {
    now: () => new Date(),
    isPersonAtTerminal: personAtTerminal,
    ask,
  };
}

function personAtTerminal(): boolean {
  return isPersonAtTerminal({
    stdin: process.stdin.isTTY === true,
    stdout: process.stdout.isTTY === true,
    env: process.env,
  });
}

/** The real dependencies of `playbook undo`: the clock, a minute for git's listing and the copies, random ids. */
export function createSnapshotDeps(): SnapshotDeps {
  const end = Date.now() + 60_000;
  return {
    now: () => new Date(),
    timeLeft: () => end - Date.now(),
    suffix: () => randomUUID().slice(0, 4),
  };
}
