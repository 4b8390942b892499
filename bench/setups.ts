// Issue 28: the hook in a repository without package.json (the runtime setup, `npx playbook-kit@<version> init`)
// against a Node project's install (`npm i -D playbook-kit`), both through the loader init commits.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  installPlaybook,
  npxEnv,
  npxPlaybookArgs,
} from "../demo/install-playbook.ts";
import { benchGit } from "./bench-repo.ts";
import { guardedWorkspace, hookPayload } from "./workspaces.ts";

export interface SetupWorkspace {
  label: string;
  dir: string;
  /** The loader every hook handler runs: `.claude/hooks/playbook.cjs`. */
  loader: string;
}

/**
 * Two projects mid-task on the guard rows' playbook, set up the two ways: a Node project with playbook-kit in its
 * node_modules, and a Python project (pyproject.toml, pytest) with the runtime copy that npx's init makes.
 */
export function setupWorkspaces(playbook: string): SetupWorkspace[] {
  const node = guardedWorkspace(playbook);
  writeFileSync(
    join(node, "package.json"),
    `${JSON.stringify({ name: "bench", scripts: { test: "node --test" } })}\n`,
  );
  const cli = installPlaybook(node);
  execFileSync(process.execPath, [cli, "init", "--yes"], {
    cwd: node,
    stdio: "ignore",
  });
  const python = guardedWorkspace(playbook);
  writeFileSync(
    join(python, "pyproject.toml"),
    '[project]\nname = "bench"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
  );
  const cache = mkdtempSync(join(tmpdir(), "playbook-bench-npx-"));
  execFileSync("npx", npxPlaybookArgs(["init", "--yes"]), {
    cwd: python,
    stdio: "ignore",
    env: npxEnv(process.env, cache),
  });
  for (const dir of [node, python]) {
    const git = benchGit(dir);
    git("add", "-A");
    git("commit", "-q", "-m", "Set up playbook");
  }
  return [
    {
      label: "Node project, npm setup",
      dir: node,
      loader: join(node, ".claude", "hooks", "playbook.cjs"),
    },
    {
      label: "Python project, runtime setup",
      dir: python,
      loader: join(python, ".claude", "hooks", "playbook.cjs"),
    },
  ];
}

/** The calls measured in each setup: the common paths of a session mid-task. */
export function setupCalls(
  ws: SetupWorkspace,
): { name: string; event: string; input: string }[] {
  return [
    {
      name: "PreToolUse Edit of a source file",
      event: "PreToolUse",
      input: hookPayload(ws.dir, "PreToolUse", "Edit", {
        file_path: join(ws.dir, "src", "a.ts"),
        old_string: "1",
        new_string: "2",
      }),
    },
    {
      name: "PreToolUse Bash `git status`",
      event: "PreToolUse",
      input: hookPayload(ws.dir, "PreToolUse", "Bash", {
        command: "git status",
      }),
    },
    {
      name: "PostToolUse Edit of a source file",
      event: "PostToolUse",
      input: hookPayload(ws.dir, "PostToolUse", "Edit", {
        file_path: join(ws.dir, "src", "a.ts"),
        old_string: "1",
        new_string: "2",
      }),
    },
  ];
}
