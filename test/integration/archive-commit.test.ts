import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { writtenListPath } from "../../src/core/archive/written-files.ts";
import { createFinishedRepo } from "../helpers/finished-repo.ts";
import {
  AWS_SECRET_LINE,
  FAKE_AWS_SECRET,
  FAKE_GITHUB_TOKEN,
} from "../helpers/fake-secrets.ts";
import { PLAYBOOK, type GuardedRepo } from "../helpers/guarded-repo.ts";
import { childEnv, runCli } from "../helpers/run-cli.ts";
import { HOOK_BUNDLE } from "../helpers/run-hook.ts";

// The archive's commit step in real git (docs/archive.md, step 1): exactly the work is committed, every other
// untracked file is left where it is and named, and what is committed passes the secret scan first.

/** `git` in the bare remote. */
const bare = (repo: GuardedRepo, ...args: string[]) =>
  execFileSync("git", args, { cwd: repo.remoteDir, encoding: "utf8" }).trim();

function archive(repo: GuardedRepo, ...args: string[]) {
  return runCli(
    ["archive", "--provider", "local", "--cwd", repo.dir, ...args],
    {
      env: {
        GITHUB_TOKEN: undefined,
        GH_TOKEN: undefined,
        CLAUDE_CODE_SESSION_ID: "session-1",
      },
    },
  );
}

/** Every path in any commit reachable from any ref of the remote. */
function pathsOnRemote(repo: GuardedRepo): string[] {
  const commits = bare(repo, "rev-list", "--all").split("\n").filter(Boolean);
  const paths = new Set<string>();
  for (const commit of commits)
    for (const path of bare(repo, "ls-tree", "-r", "--name-only", commit).split(
      "\n",
    ))
      if (path) paths.add(path);
  return [...paths];
}

interface Journal {
  files?: { committed: string[]; leftAlone: string[] };
}
const journalOf = (repo: GuardedRepo) =>
  JSON.parse(repo.read(".claude/playbook/archive-journal.json")) as Journal;

/** The PostToolUse event Claude Code sends after a file tool wrote `file_path`. */
function afterFileTool(
  repo: GuardedRepo,
  tool: string,
  input: Record<string, unknown>,
) {
  return repo.hook("PostToolUse", {
    tool_name: tool,
    tool_input: input,
    tool_response: { type: "create" },
    tool_use_id: "toolu_2",
  });
}

describe("the archive's commit step", () => {
  it("leaves a stray untracked file alone, names it with the next step, and it never reaches the remote", () => {
    const repo = createFinishedRepo({}, {}, (r) => {
      r.write("scratch.txt", "notes to self\n");
      r.write("tmp/output.log", "build output\n");
    });
    const result = archive(repo);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /✓ commit\s+1 file \([0-9a-f]{7}\): src\/login-form\.tsx; left alone, not committed \(untracked, not staged, not written by the agent's file tools\): scratch\.txt, tmp\/output\.log\. To publish one, stage it \(`git add <path>`\) and run `playbook archive --resume` before the archive pushes/,
    );
    expect(journalOf(repo).files).toEqual({
      committed: ["src/login-form.tsx"],
      leftAlone: ["scratch.txt", "tmp/output.log"],
    });
    expect(bare(repo, "show", "main:src/login-form.tsx")).toContain(
      "LoginForm",
    );
    const published = pathsOnRemote(repo);
    expect(published).not.toContain("scratch.txt");
    expect(published).not.toContain("tmp/output.log");
    // Left where it was, untouched, on the default branch the clone is on now.
    expect(repo.read("scratch.txt")).toBe("notes to self\n");
    expect(
      repo.git("status", "--porcelain", "--untracked-files=all"),
    ).toContain("?? scratch.txt");
  });

  it("commits a file someone staged, and a tracked file's change and removal", () => {
    const repo = createFinishedRepo({}, {}, (r) => {
      r.write("docs/staged.md", "# staged by hand\n");
      r.git("add", "docs/staged.md");
      r.write(".gitignore", `${r.read(".gitignore")}scratch/\n`);
      r.git("rm", "-q", "src/app.ts");
    });
    const result = archive(repo);
    expect(result.stdout).toContain("✓ commit");
    expect(result.status).toBe(0);
    expect(journalOf(repo).files?.committed).toEqual([
      ".gitignore",
      "docs/staged.md",
      "src/app.ts",
      "src/login-form.tsx",
    ]);
    expect(bare(repo, "show", "main:docs/staged.md")).toBe("# staged by hand");
    expect(bare(repo, "show", "main:.gitignore")).toContain("scratch/");
    expect(() => bare(repo, "cat-file", "-e", "main:src/app.ts")).toThrow();
  });

  it("commits what the hook saw the file tools write (Write, Edit through `..`, NotebookEdit), and not what a Bash command wrote", () => {
    const repo = createFinishedRepo({}, {}, (r) => {
      r.write("src/written.ts", "export const written = 1;\n");
      afterFileTool(r, "Write", {
        file_path: r.path("src/written.ts"),
        content: "export const written = 1;\n",
      });
      r.write("lib/util.ts", "export const util = 1;\n");
      afterFileTool(r, "Edit", {
        file_path: `${r.dir}/src/../lib/util.ts`,
        old_string: "",
        new_string: "export const util = 1;\n",
      });
      r.write("notebooks/a.ipynb", '{"cells":[]}\n');
      afterFileTool(r, "NotebookEdit", {
        notebook_path: r.path("notebooks/a.ipynb"),
        new_source: "1 + 1",
      });
      // A shell command that writes a file: no file tool, so it is not the agent's listed work.
      r.write("from-shell.txt", "made by bash\n");
      r.hook("PostToolUse", {
        tool_name: "Bash",
        tool_input: { command: "printf 'made by bash\\n' > from-shell.txt" },
        tool_response: { stdout: "", stderr: "" },
        tool_use_id: "toolu_3",
      });
    });
    expect(repo.read(writtenListPath(PLAYBOOK))).toContain('"src/written.ts"');
    const result = archive(repo);
    expect(result.status).toBe(0);
    expect(journalOf(repo).files).toEqual({
      committed: [
        "lib/util.ts",
        "notebooks/a.ipynb",
        "src/login-form.tsx",
        "src/written.ts",
      ],
      leftAlone: ["from-shell.txt"],
    });
    expect(pathsOnRemote(repo)).not.toContain("from-shell.txt");
    // The list served its commit and is gone.
    expect(existsSync(repo.path(writtenListPath(PLAYBOOK)))).toBe(false);
  });

  it("writes of parallel subagents, whose hooks run at the same moment, are all listed", async () => {
    const repo = createFinishedRepo();
    const names = Array.from({ length: 8 }, (_, i) => `src/part-${i}.ts`);
    await Promise.all(
      names.map(
        (name) =>
          new Promise<void>((resolve, reject) => {
            repo.write(name, "export {};\n");
            const child = spawn(
              process.execPath,
              [HOOK_BUNDLE, "PostToolUse"],
              {
                cwd: repo.dir,
                env: childEnv({ CLAUDE_PROJECT_DIR: repo.dir }),
                stdio: ["pipe", "ignore", "ignore"],
              },
            );
            child.on("error", reject);
            child.on("close", () => resolve());
            child.stdin.end(
              JSON.stringify({
                session_id: "session-1",
                cwd: repo.dir,
                hook_event_name: "PostToolUse",
                tool_name: "Write",
                tool_input: {
                  file_path: repo.path(name),
                  content: "export {};\n",
                },
                tool_response: { type: "create" },
                tool_use_id: `toolu_${name}`,
              }),
            );
          }),
      ),
    );
    const listed = repo.read(writtenListPath(PLAYBOOK)).trim().split("\n");
    expect([...listed].sort()).toEqual(
      ["src/login-form.tsx", ...names].map((n) => JSON.stringify(n)).sort(),
    );
  });

  it("a write with no active playbook is not listed", () => {
    const repo = createFinishedRepo({}, {}, (r) => {
      r.write(
        "state.md",
        r.read("state.md").replace(`active: ${PLAYBOOK}`, "active: null"),
      );
      r.write("src/free.ts", "export {};\n");
      afterFileTool(r, "Write", {
        file_path: r.path("src/free.ts"),
        content: "export {};\n",
      });
      r.write(
        "state.md",
        r.read("state.md").replace("active: null", `active: ${PLAYBOOK}`),
      );
    });
    expect(repo.read(writtenListPath(PLAYBOOK))).not.toContain("src/free.ts");
  });

  it("stops at a secret in a file it would commit, with the file, the line and the rule, the value masked, and commits nothing", () => {
    const repo = createFinishedRepo(
      {},
      {
        "config.env": `# deploy\nREGION=eu-west-1\n${AWS_SECRET_LINE}\n`,
        "src/client.ts": `\nexport const token = "${FAKE_GITHUB_TOKEN}";\n`,
      },
    );
    const head = repo.git("rev-parse", "HEAD");
    const result = archive(repo);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("✗ commit");
    expect(result.stdout).toMatch(
      /config\.env:3:\d+ [^;]*\*\*\*\* \(rule aws, AWSSecretAccessKey\)/,
    );
    expect(result.stdout).toMatch(
      /src\/client\.ts:2:\d+ export const token = "\*\*\*\* \(rule github/,
    );
    expect(result.stdout).toContain(
      "Then run `playbook archive --resume`. Nothing was committed or deleted.",
    );
    expect(result.stdout).not.toContain(FAKE_AWS_SECRET.slice(0, 8));
    expect(result.stdout).not.toContain(FAKE_GITHUB_TOKEN.slice(4, 12));
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
    expect(repo.git("diff", "--cached", "--name-only")).toBe("");
    expect(repo.read("config.env")).toContain(AWS_SECRET_LINE);
  });

  it("an .npmrc with only a registry line is committed", () => {
    const repo = createFinishedRepo(
      {},
      { ".npmrc": "registry=https://registry.npmjs.org/\n" },
    );
    const result = archive(repo);
    expect(result.status).toBe(0);
    expect(bare(repo, "show", "main:.npmrc")).toBe(
      "registry=https://registry.npmjs.org/",
    );
  });

  it("stops the push at a secret an earlier commit of the branch added, at its line in that commit", () => {
    const repo = createFinishedRepo({}, {}, (r) => {
      r.write("config.env", `REGION=eu-west-1\n${AWS_SECRET_LINE}\n`);
      r.git("add", "config.env");
      r.git("commit", "-q", "-m", "config");
      r.git("rm", "-q", "config.env");
      r.git("commit", "-q", "-m", "no secrets left");
    });
    const added = repo.git("rev-parse", "--short=7", "HEAD~1").trim();
    const result = archive(repo);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("✗ push");
    expect(result.stdout).toMatch(
      new RegExp(
        `config\\.env:2:\\d+ [^;]*\\*\\*\\*\\* \\(rule aws, AWSSecretAccessKey, added by ${added}\\)`,
      ),
    );
    expect(result.stdout).not.toContain(FAKE_AWS_SECRET.slice(0, 8));
    expect(bare(repo, "branch", "--list", "feat/login-form")).toBe("");
  });

  it("a broken list of written files stops the commit with its file and line and the next step, and commits nothing", () => {
    const repo = createFinishedRepo({}, {}, (r) => {
      r.write(writtenListPath(PLAYBOOK), '"src/login-form.tsx"\n{oops\n');
    });
    const head = repo.git("rev-parse", "HEAD");
    const result = archive(repo);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      `the list of files the agent wrote is unusable: ${writtenListPath(PLAYBOOK)}:2: Unexpected \`{oops\``,
    );
    expect(result.stdout).toContain(
      `mv ${writtenListPath(PLAYBOOK)} ${writtenListPath(PLAYBOOK)}.bad`,
    );
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
  });

  it("a file staged after the archive stopped before its push is committed by --resume", () => {
    const repo = createFinishedRepo({}, {}, (r) => {
      r.write("scratch.txt", "keep me\n");
    });
    // The remote cannot be reached at first, so the archive stops after its commit, at the push.
    repo.git("remote", "set-url", "origin", repo.path("no-such-remote"));
    const first = archive(repo);
    expect(first.status).toBe(1);
    expect(first.stdout).toMatch(
      /✓ commit\s+1 file .*left alone.*scratch\.txt/,
    );
    expect(first.stdout).toContain("✗ push");
    repo.git("add", "scratch.txt");
    repo.git("remote", "set-url", "origin", repo.remoteDir);
    const resumed = archive(repo, "--resume");
    expect(resumed.stdout).toMatch(
      /✓ commit\s+1 file \([0-9a-f]{7}\): scratch\.txt/,
    );
    expect(resumed.status).toBe(0);
    expect(journalOf(repo).files).toEqual({
      committed: ["scratch.txt", "src/login-form.tsx"],
      leftAlone: [],
    });
    expect(bare(repo, "show", "main:scratch.txt")).toBe("keep me");
  });
});
