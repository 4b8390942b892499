import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { addWrittenFile } from "../../src/adapters/written-files-store.ts";
import { FINISHED_PLAYBOOK, proveFinished } from "./finished-repo.ts";
import { summarizePlaybookIn, writeTestRecord } from "./guarded-repo.ts";
import { SAMPLE_STATE } from "./sample-docs.ts";
import { createTempProject } from "./temp-project.ts";

const IDENTITY = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@e.x",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@e.x",
};

/** `.claude/playbook.json` of a repository whose `origin` the local GitHub serves as acme/app. */
export const PARALLEL_GITHUB_CONFIG = {
  ".claude/playbook.json": `${JSON.stringify({
    archive: {
      repository: "acme/app",
      checkWaitSeconds: 0,
      // Evidence written by hand: the final proof has tests of its own.
      requireRerun: false,
    },
  })}\n`,
};

/** state.md as the default branch holds it between tasks: no active playbook. */
export const IDLE_STATE = SAMPLE_STATE.replace(
  "active: plan/playbook-login-form.md",
  "active: null",
)
  .replace("branch: feat/login-form", "branch: null")
  .replace("phase: p1        # current phase", "phase: null")
  .replace("status: in_progress", "status: idle");

export interface Checkout {
  /** Absolute path of the working tree. */
  dir: string;
  git: (...args: string[]) => string;
  path: (relative: string) => string;
  read: (relative: string) => string;
  write: (relative: string, text: string) => void;
}

export interface Worktree extends Checkout {
  name: string;
  /** `feat/<name>`, checked out in this worktree. */
  branch: string;
  /** `plan/playbook-<name>.md`. */
  playbook: string;
  /** The files the task's work wrote. */
  work: string[];
}

export interface ParallelRepo {
  /** The main working tree, on `main`. */
  main: Checkout;
  /** The bare repository `origin` points at. */
  remoteDir: string;
  remoteGit(...args: string[]): string;
  worktrees: Worktree[];
}

function checkout(dir: string): Checkout {
  const path = (relative: string) => join(dir, relative);
  return {
    dir,
    path,
    git: (...args) =>
      execFileSync("git", args, {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, ...IDENTITY },
      }),
    read: (relative) => readFileSync(path(relative), "utf8"),
    write: (relative, text) => {
      mkdirSync(dirname(path(relative)), { recursive: true });
      writeFileSync(path(relative), text);
    },
  };
}

/**
 * One repository (`main` pushed to a local bare `origin`) with a linked worktree per name, each on its own branch
 * `feat/<name>` with its own finished playbook, its uncommitted work and every record that proves it: what parallel
 * sessions leave when each has ticked its last box. Every worktree starts from the same commit of `main`, and each
 * state.md names its own playbook and its own session's start, as `playbook new` and the hook leave them.
 */
export function createParallelWorktrees(
  names: readonly string[],
  {
    files = {},
    remote: withRemote = true,
    work = (name, index) => ({
      [`src/${name}.ts`]: `export const ${name} = ${index + 1};\n`,
    }),
  }: {
    /** More files committed on main. */
    files?: Record<string, string>;
    /** Whether `origin` exists (default true). */
    remote?: boolean;
    /** The uncommitted work of each worktree, proven by its evidence (default `src/<name>.ts`). */
    work?: (name: string, index: number) => Record<string, string>;
  } = {},
): ParallelRepo {
  const remote = createTempProject();
  const main = createTempProject({
    "CLAUDE.md": "# Project\n",
    "state.md": IDLE_STATE,
    "src/app.ts": "export const app = 1;\n",
    ".gitignore": ".claude/playbook/\n",
    // The archive's mechanics are tested here, with evidence written by hand: its final gate has tests of its own.
    ".claude/playbook.json": `${JSON.stringify({ archive: { requireRerun: false } })}\n`,
    ...files,
  });
  const holder = createTempProject();
  const mainCheckout = checkout(main.dir);
  execFileSync("git", ["init", "--bare", "-q", "-b", "main", remote.dir]);
  const git = (...args: string[]) => mainCheckout.git(...args);
  git("init", "-q", "-b", "main");
  git("config", "user.name", "Test");
  git("config", "user.email", "test@example.com");
  git("add", "-A");
  git("commit", "-q", "-m", "init");
  if (withRemote) {
    git("remote", "add", "origin", remote.dir);
    git("push", "-q", "-u", "origin", "main");
    git("remote", "set-head", "origin", "main");
  }
  const worktrees = names.map((name, index): Worktree => {
    const dir = join(holder.dir, name);
    const branch = `feat/${name}`;
    git("worktree", "add", "-q", "-b", branch, dir, "main");
    const tree = checkout(dir);
    const playbook = `plan/playbook-${name}.md`;
    const files = work(name, index);
    tree.write(playbook, FINISHED_PLAYBOOK.replaceAll("login-form", name));
    tree.write(
      "state.md",
      SAMPLE_STATE.replace("login-form", name)
        .replace("feat/login-form", branch)
        .replace(
          "last_start: 2026-11-21T10:00:00Z",
          `last_start: 2026-11-21T10:0${index}:00Z`,
        ),
    );
    // The agent's work, written with its file tools: the hook listed each file for the archive's commit step.
    for (const [path, text] of Object.entries(files)) {
      tree.write(path, text);
      addWrittenFile(dir, playbook, path);
    }
    proveFinished(
      {
        summary: (path) => summarizePlaybookIn(dir, path),
        record: (r) => writeTestRecord(dir, r),
      },
      playbook,
    );
    return { ...tree, name, branch, playbook, work: Object.keys(files) };
  });
  return {
    main: mainCheckout,
    remoteDir: remote.dir,
    remoteGit: (...args) =>
      execFileSync("git", args, { cwd: remote.dir, encoding: "utf8" }),
    worktrees,
  };
}
