import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeRecord } from "../../src/adapters/record-store.ts";
import { readWorkingTree } from "../../src/adapters/tree-fingerprint.ts";
import type { PlaybookSummary } from "../../src/core/model/summary.ts";
import type { SecurityMode } from "../../src/core/model/state.ts";
import { summarizeDocument } from "../../src/core/parse/summarize-document.ts";
import {
  phaseHash,
  reviewHash,
  subtaskHash,
} from "../../src/core/records/content-hash.ts";
import type { PlaybookRecord } from "../../src/core/records/record.ts";
import { expect } from "vitest";
import { readHookReply } from "./hook-reply.ts";
import { runHook } from "./run-hook.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "./sample-docs.ts";
import { createTempProject, type TempProject } from "./temp-project.ts";

export const PLAYBOOK = "plan/playbook-login-form.md";
export const SESSION = "session-1";

export interface GuardedRepoOptions {
  /** Whether the playbook says `reviewed: true` (default true). */
  reviewed?: boolean;
  /** Whether a review record backs it (default: same as `reviewed`). */
  reviewRecord?: boolean;
  security?: SecurityMode;
  /** The branch to work on (default the playbook's `feat/login-form`). */
  branch?: string;
  /** Whether this session already read CLAUDE.md, state.md and the playbook (default true). */
  readAll?: boolean;
  playbook?: string;
  state?: string;
  /** Extra files. */
  files?: Record<string, string>;
}

export interface HookReplyView {
  /** `deny` for a refused PreToolUse, `block` for a top-level decision, `allow` for a command playbook ran itself. */
  decision: "deny" | "block" | "allow" | null;
  /** What Claude Code runs instead, when playbook ran the command itself. */
  command: string | null;
  reason: string;
  context: string;
  notice: string;
  raw: string;
  stderr: string;
  status: number | null;
}

export interface GuardedRepo extends TempProject {
  /** The bare repository `origin` points at. */
  remoteDir: string;
  git(...args: string[]): string;
  summary(path?: string): PlaybookSummary;
  record(
    record: Omit<PlaybookRecord, "at" | "by" | "contentHash"> & {
      by?: string;
      contentHash?: string;
    },
  ): void;
  hook(
    event: string,
    payload: Record<string, unknown>,
    env?: Record<string, string | undefined>,
  ): HookReplyView;
  pre(
    tool: string,
    input: Record<string, unknown>,
    extra?: Record<string, unknown>,
  ): HookReplyView;
  bash(command: string, extra?: Record<string, unknown>): HookReplyView;
}

/**
 * A real git repository (default branch `main`, pushed to a local bare remote) holding CLAUDE.md, state.md and the
 * sample playbook on its branch, reviewed and backed by a review record unless told otherwise.
 */
export function createGuardedRepo(
  options: GuardedRepoOptions = {},
): GuardedRepo {
  const reviewed = options.reviewed ?? true;
  const playbookText =
    options.playbook ??
    SAMPLE_PLAYBOOK.replace("reviewed: false", `reviewed: ${reviewed}`);
  const stateText = options.state ?? SAMPLE_STATE;
  const remote = createTempProject();
  const project = createTempProject({
    "CLAUDE.md": "# Project\n",
    "state.md": stateText,
    [PLAYBOOK]: playbookText,
    "src/app.ts": "export const app = 1;\n",
    ".gitignore": ".claude/playbook/\n",
    ...(options.security
      ? {
          ".claude/playbook.json": `${JSON.stringify({ security: options.security })}\n`,
        }
      : {}),
    ...options.files,
  });
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: project.dir,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@e.x",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@e.x",
      },
    });
  execFileSync("git", ["init", "--bare", "-q", "-b", "main", remote.dir]);
  git("init", "-q", "-b", "main");
  // Commits made by the code under test (the archive) need an identity without relying on a global git config.
  git("config", "user.name", "Test");
  git("config", "user.email", "test@example.com");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  git("remote", "add", "origin", remote.dir);
  git("push", "-q", "-u", "origin", "main");
  git("remote", "set-head", "origin", "main");
  const branch = options.branch ?? "feat/login-form";
  if (branch !== "main") git("switch", "-q", "-c", branch);

  const summary = (path = PLAYBOOK) => summarizePlaybookIn(project.dir, path);
  const record: GuardedRepo["record"] = (r) => writeTestRecord(project.dir, r);
  if (options.reviewRecord ?? reviewed)
    record({
      kind: "review",
      playbook: PLAYBOOK,
      target: "playbook",
      verdict: "approve",
      by: "reviewer",
      detail: {},
    });
  if (options.readAll ?? true) {
    const dir = join(project.dir, ".claude", "playbook", "sessions");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${SESSION}.json`),
      JSON.stringify({ reads: ["CLAUDE.md", "state.md", PLAYBOOK] }),
    );
  }

  const hook: GuardedRepo["hook"] = (event, payload, env = {}) => {
    const result = runHook(
      event,
      {
        session_id: SESSION,
        // Inside the repository and absent unless a test writes it: no transcript leaks from one test to another.
        transcript_path: join(project.dir, ".claude", "transcript.jsonl"),
        cwd: project.dir,
        hook_event_name: event,
        ...payload,
      },
      { cwd: project.dir, env: { CLAUDE_PROJECT_DIR: project.dir, ...env } },
    );
    return view(result.stdout, result.stderr, result.status);
  };
  return {
    ...project,
    remoteDir: remote.dir,
    git,
    summary,
    record,
    hook,
    pre: (tool, input, extra = {}) =>
      hook("PreToolUse", {
        permission_mode: "default",
        tool_name: tool,
        tool_input: input,
        tool_use_id: "toolu_1",
        ...extra,
      }),
    bash: (command, extra = {}) =>
      hook("PreToolUse", {
        tool_name: "Bash",
        tool_input: { command },
        tool_use_id: "toolu_1",
        ...extra,
      }),
  };
}

/** The playbook at `path` in the project `dir`, parsed. */
export function summarizePlaybookIn(
  dir: string,
  path = PLAYBOOK,
): PlaybookSummary {
  return summarizeDocument(
    "playbook",
    readFileSync(join(dir, path), "utf8"),
    path,
  ) as PlaybookSummary;
}

/** The reviewer's approval of `path` as it is now in `dir`: proof counts only in an approved plan. */
export function approveInTest(dir: string, path = PLAYBOOK): void {
  writeTestRecord(dir, {
    kind: "review",
    playbook: path,
    target: "playbook",
    verdict: "approve",
    by: "reviewer",
    detail: {},
  });
}

/** Writes a record into the project `dir` as playbook would, hashed against the playbook as it is now. */
export function writeTestRecord(
  dir: string,
  r: Parameters<GuardedRepo["record"]>[0],
): void {
  const playbook = summarizePlaybookIn(dir, r.playbook);
  const hash =
    r.contentHash ??
    (r.kind === "review"
      ? reviewHash(playbook)
      : r.kind === "critic"
        ? phaseHash(playbook, r.target)
        : subtaskHash(playbook, r.target)) ??
    "none";
  // Evidence proves the code as it is when recorded, as `playbook verify` records it.
  const detail =
    r.kind === "evidence" && !("tree" in r.detail)
      ? { ...r.detail, tree: readWorkingTree(dir).fingerprint }
      : r.detail;
  writeRecord(dir, {
    by: "test",
    ...r,
    detail,
    contentHash: hash,
    at: new Date().toISOString(),
  });
}

function view(
  stdout: string,
  stderr: string,
  status: number | null,
): HookReplyView {
  return { ...readHookReply(stdout), raw: stdout, stderr, status };
}

/** A refused PreToolUse whose reason says what to do next, names the kill switch and mentions each of `mentions`. */
export function expectDenied(reply: HookReplyView, ...mentions: string[]) {
  expect(reply.decision).toBe("deny");
  expect(reply.reason).toContain("PLAYBOOK_DISABLE=1");
  expect(reply.reason).toMatch(/Next: /);
  for (const text of mentions) expect(reply.reason).toContain(text);
}

/**
 * A proof-writing command the hook ran itself: the call is allowed with a command that shows the job's output. Runs
 * that command as the agent's shell would and returns what it printed and its exit code.
 */
export function runByPlaybook(reply: HookReplyView): {
  output: string;
  status: number | null;
} {
  expect(reply.decision).toBe("allow");
  expect(reply.command).toMatch(/job\.cjs' 'wait' /);
  const shown = spawnSync("sh", ["-c", reply.command ?? "false"], {
    encoding: "utf8",
    timeout: 120_000,
  });
  return { output: shown.stdout + shown.stderr, status: shown.status };
}

/** A call that goes through without a word: no decision, no reason, exit 0. */
export function expectAllowed(reply: HookReplyView) {
  expect(reply.reason).toBe("");
  expect(reply.decision).toBeNull();
  expect(reply.status).toBe(0);
}
