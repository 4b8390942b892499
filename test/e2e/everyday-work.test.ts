import { filesUnder, isTrustState } from "../helpers/runtime-files.ts";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { GoldenPath, Move } from "../../demo/golden-path.ts";
import { packPlaybook } from "../../demo/install-playbook.ts";
import type { createMoves } from "../../demo/moves.ts";
import { MULTIPLY, type SampleTask } from "../../demo/tasks.ts";
import { readRecords } from "../../src/adapters/record-store.ts";
import {
  createReviewedWorld,
  stepTitled,
} from "../helpers/golden-path-world.ts";

const PLAYBOOK = "plan/playbook-multiply.md";
const RUNTIME = ".claude/playbook";
const TSX = join(import.meta.dirname, "..", "..", "node_modules", "tsx");

/**
 * The multiply task with validations as projects write them: the test through `tsx --test` (which listens on a unix
 * socket in the temp folder while it runs) and a pytest suite beside `npm test`.
 */
const TASK: SampleTask = {
  ...MULTIPLY,
  playbook: (date) =>
    MULTIPLY.playbook(date)
      .replace(
        '"automated - node --test test/multiply.test.js"',
        '"automated - npx tsx --test test/multiply.test.js"',
      )
      .replace(
        "\"automated - grep -q 'export function multiply' src/multiply.js\"",
        '"automated - python3 -m pytest -q tests"',
      ),
  work: {
    ...MULTIPLY.work,
    "p1.1": [
      ...(MULTIPLY.work["p1.1"] ?? []),
      {
        tool: "Write",
        path: "tests/test_multiply.py",
        content:
          'from pathlib import Path\n\n\ndef test_multiply_is_exported():\n    assert "export function multiply" in Path("src/multiply.js").read_text()\n',
      },
    ],
  },
};

const sha = (path: string) =>
  createHash("sha256").update(readFileSync(path)).digest("hex");

/**
 * Everyday work through the real Claude Code CLI with the settings `init` wrote (its Bash sandbox, the file-tool deny
 * rules and the hook): each move must go through and do what the user asked, which is what is asserted, on disk, in
 * git and on the remote. The refusals that used to stop this work are the regression tests of issue 25.
 */
describe("everyday work goes through, through the real client with init's settings", () => {
  let world: GoldenPath;
  let m: ReturnType<typeof createMoves>;
  const outside = mkdtempSync(join(tmpdir(), "playbook-everyday-"));

  beforeAll(async () => {
    ({ world, m } = await createReviewedWorld(TASK));
    // As `npm i -D playbook-kit` leaves a project, and tsx from a local folder (no network here).
    execFileSync(
      "npm",
      [
        "install",
        "-D",
        "--offline",
        "--no-audit",
        "--no-fund",
        packPlaybook(),
        TSX,
      ],
      { cwd: world.project.dir, stdio: "ignore" },
    );
    world.project.git("add", "package.json", "package-lock.json");
    world.project.git("commit", "-q", "-m", "playbook-kit and tsx");
    // The remote is a folder on this machine: the user lets the sandbox write it (docs/trust-boundary.md).
    writeFileSync(
      world.path(".claude/settings.local.json"),
      JSON.stringify({
        sandbox: {
          filesystem: { allowWrite: [`/${world.project.remoteDir}`] },
        },
      }),
    );
  }, 900_000);

  const bash = (title: string, command: string): Move => ({
    actor: "agent",
    title,
    tool: { name: "Bash", input: { command, description: title } },
    expect: "allow",
  });
  const output = (title: string) =>
    stepTitled(world, title).reply?.result?.text ?? "";

  it("cleans temp folders, edits in bulk, commits everything, installs, tests, proves with tsx and pytest, and pushes from a subfolder", async () => {
    const pkg = join(outside, "left-pad");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, "package.json"),
      JSON.stringify({ name: "left-pad", version: "1.0.0", main: "index.js" }),
    );
    writeFileSync(join(pkg, "index.js"), "module.exports = (s) => s;\n");
    execFileSync("npm", ["pack", "--silent", "--pack-destination", outside], {
      cwd: pkg,
      stdio: "ignore",
    });
    const tarball = join(outside, "left-pad-1.0.0.tgz");
    const records = filesUnder(world.path(RUNTIME)).filter(isTrustState);
    // m.work("p1.1") writes src/multiply.js, its test and tests/test_multiply.py.
    const moves: Move[] = [
      ...m.begin(),
      bash(
        "rm -rf in $TMPDIR",
        'mkdir -p "$TMPDIR/calc-build" && touch "$TMPDIR/calc-build/out" && rm -rf "$TMPDIR/calc-build" && test ! -e "$TMPDIR/calc-build" && echo "removed $TMPDIR/calc-build"',
      ),
      bash(
        "rm -rf in ${TMPDIR:-/tmp}",
        'mkdir -p "${TMPDIR:-/tmp}/calc-x" && rm -rf "${TMPDIR:-/tmp}/calc-x" && echo removed-default',
      ),
      bash(
        "rm -rf of a fresh mktemp folder",
        'd=$(mktemp -d) && cp -r src "$d/" && rm -rf "$d" && echo removed-fresh',
      ),
      bash(
        "sed -i over xargs fed by find",
        'find src -name "*.js" | xargs sed -i "s/return a + b;/return b + a;/"',
      ),
      bash(
        "sed -i over a loop on git ls-files",
        "for f in $(git ls-files src); do sed -i '1i // calc' \"$f\"; done",
      ),
      bash(
        "perl -pi over xargs -0",
        "git ls-files -z src | xargs -0 perl -pi -e 's/return b \\+ a;/return a + b;/'",
      ),
      bash(
        "git add -A and a commit",
        "git add -A && git commit -q -m 'calc: header comments' && git log -1 --format=%s",
      ),
      bash(
        "npm install of a packed package",
        // npm's cache in the home folder stays read-only in the sandbox (docs/trust-boundary.md): one in the temp folder.
        `npm install --offline --no-audit --no-fund --cache "$TMPDIR/npm-cache" ${tarball}`,
      ),
      ...m.work("p1.1"),
      bash("npm test", "npm test"),
      ...m.verify("p1.1"),
      ...m.tick("p1.1", "allow"),
      bash(
        "verify at a pty inside the sandbox",
        `python3 -c "import pty,os; os.environ.pop('CLAUDECODE',None); pty.spawn(['node','node_modules/playbook-kit/dist/cli.mjs','verify','p1.1'])"`,
      ),
      bash(
        "a commit from a subfolder",
        "cd src && git add -A .. && git commit -q -m 'multiply, tested' && git log -1 --format=%s",
      ),
      bash("a push of the branch", "git push -q origin feat/multiply"),
      m.say("agent", "it stops", "Done.", "block"),
    ];
    await world.session({ prompt: "Carry on.", moves });

    const refused = world.steps
      .filter((s) => moves.some((mv) => mv.title === s.title && mv.tool))
      .filter((s) => s.verdict !== "allow")
      .map(
        (s) => `${s.title}: ${s.verdict} ${s.lines.join(" ").slice(0, 300)}`,
      );
    expect(refused).toEqual([]);

    expect(output("rm -rf in $TMPDIR")).toMatch(/removed \/\S+\/calc-build/);
    expect(output("rm -rf in ${TMPDIR:-/tmp}")).toContain("removed-default");
    expect(output("rm -rf of a fresh mktemp folder")).toContain(
      "removed-fresh",
    );
    // The bulk edits ran: the header is there and the body is back to `a + b` after two rewrites.
    expect(world.read("src/sum.js")).toBe(
      "// calc\nexport function sum(a, b) {\n  return a + b;\n}\n",
    );
    expect(output("git add -A and a commit")).toContain(
      "calc: header comments",
    );
    expect(
      world.project.git("show", "--format=", "--name-only", "HEAD~1").trim(),
    ).not.toBe("");
    expect(world.project.git("log", "--format=%s").split("\n")).toEqual(
      expect.arrayContaining(["calc: header comments", "multiply, tested"]),
    );
    expect(existsSync(world.path("node_modules/left-pad/index.js"))).toBe(true);
    expect(world.read("package.json")).toContain('"left-pad"');
    expect(output("npm test")).toMatch(/# pass [1-9]/);

    const evidence = readRecords(world.project.dir, PLAYBOOK)
      .filter((r) => r.kind === "evidence" && r.target === "p1.1")
      .map((r) => [r.validation, r.verdict, r.detail["sandboxed"]]);
    expect(evidence.sort()).toEqual([
      ["completeness", "PASS", true],
      ["consistency", "PASS", true],
      ["technical", "PASS", true],
    ]);
    expect(world.read(PLAYBOOK)).toContain("- [x] **p1.1**");

    const pty = output("verify at a pty inside the sandbox");
    // The project installs playbook with npm: the command is named the way it runs here.
    expect(pty).toContain(
      "`.claude/playbook/records` is written only by playbook's hook or a person's terminal, and it is read-only here",
    );
    expect(pty).toContain(
      "Run `npx --no playbook verify p1.1` through Claude Code's Bash tool",
    );
    expect(pty).not.toContain("internal error");

    expect(output("a commit from a subfolder")).toContain("multiply, tested");
    expect(
      world.project
        .remoteGit("rev-parse", "--verify", "-q", "feat/multiply")
        .trim(),
    ).toBe(world.project.git("rev-parse", "HEAD").trim());
    // The commit holds the work, and none of the sandbox's mount points.
    const committed = world.project.git("ls-tree", "-r", "--name-only", "HEAD");
    expect(committed).toContain("tests/test_multiply.py");
    expect(committed).not.toMatch(/^\.(?:bash_profile|bashrc|zshrc|profile)$/m);
    // Nothing the pty tried reached the records: only what the hook's verify wrote is new.
    expect(
      filesUnder(world.path(RUNTIME))
        .filter(isTrustState)
        .filter((f) => !records.includes(f))
        .every((f) => f.startsWith("records/")),
    ).toBe(true);
  }, 900_000);

  it("where the parser now lets a run-time name through, the sandbox still keeps the trust paths and the settings", async () => {
    const settings = sha(world.path(".claude/settings.json"));
    const config = world.read(".claude/playbook.json");
    const records = filesUnder(world.path(RUNTIME)).filter(isTrustState);
    // Python the parser cannot read: it writes the settings, a record and a git hook.
    const code = Buffer.from(
      [
        "import os",
        "for p in ['.claude/settings.json', '.claude/playbook.json', '.claude/playbook/records/forged.json', '.git/hooks/pre-commit']:",
        "    try:",
        "        open(p, 'w').write('forged')",
        "    except OSError as e:",
        "        print('refused', p, e.strerror)",
      ].join("\n"),
    ).toString("base64");
    await world.session({
      prompt: "Tidy up the settings.",
      moves: [
        ...m.begin(),
        bash(
          "a loop over names the line computes",
          "for f in $(printf '%s\\n' .claude/settings.json .claude/playbook.json .claude/playbook/records/loop.json); do echo forged > \"$f\"; done; echo tried",
        ),
        bash(
          "xargs over names the line computes",
          "printf '%s\\n' .claude/settings.json .git/hooks/post-checkout | xargs -I{} sh -c 'echo forged > {}'; echo tried",
        ),
        bash(
          "base64-encoded python",
          `python3 -c "import base64;exec(base64.b64decode('${code}'))"`,
        ),
        m.say("agent", "it stops", "Done.", "block"),
      ],
    });
    expect(output("base64-encoded python")).toContain("refused");
    expect(sha(world.path(".claude/settings.json"))).toBe(settings);
    expect(world.read(".claude/playbook.json")).toBe(config);
    expect(filesUnder(world.path(RUNTIME)).filter(isTrustState)).toEqual(
      records,
    );
    expect(existsSync(world.path(".git/hooks/pre-commit"))).toBe(false);
    expect(existsSync(world.path(".git/hooks/post-checkout"))).toBe(false);
  }, 900_000);
});
