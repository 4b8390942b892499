import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { GoldenPath, Move } from "../../demo/golden-path.ts";
import type { createMoves } from "../../demo/moves.ts";
import { goldenPathSessions } from "../../demo/run-task.ts";
import { MULTIPLY, type SampleTask } from "../../demo/tasks.ts";
import {
  createReviewedWorld,
  createWorld,
  stepTitled,
  TODAY,
} from "../helpers/golden-path-world.ts";
import { useProofViews } from "../helpers/proof-view.ts";
import { filesUnder, isTrustState } from "../helpers/runtime-files.ts";

const RUNTIME = ".claude/playbook";
const views = useProofViews();

/** `code` run by Python from the agent's shell, base64-encoded: a spelling the shell parser cannot read. */
function blindPython(code: string): string {
  return `python3 -c "import base64;exec(base64.b64decode('${Buffer.from(code).toString("base64")}'))"`;
}

/**
 * The processes outside the agent's sandbox are deputies (docs/trust-boundary.md, "Trusted processes and what they
 * read"). Each attack here points one of them at something the agent shaped, through the real Claude Code CLI with the
 * settings `init` wrote, and asserts the damage on disk and on the remote: a mark left by a program that ran outside
 * the sandbox, a record, a moved branch.
 */
describe("the deputies act on nothing the agent shaped, through the real client", () => {
  let world: GoldenPath;
  let m: ReturnType<typeof createMoves>;
  const outside = mkdtempSync(join(tmpdir(), "playbook-deputy-"));
  const mark = join(outside, "ran-outside-the-sandbox");

  beforeAll(async () => {
    ({ world, m } = await createReviewedWorld());
  }, 600_000);

  it("a copy of the project the agent made, with its own git filter and settings, is never where a job runs", async () => {
    const records = join(world.project.dir, RUNTIME, "records");
    const before = filesUnder(world.path(RUNTIME)).filter(isTrustState);
    const remoteMain = world.project.remoteGit("rev-parse", "main").trim();
    const copy = `import os, subprocess, json
subprocess.run(["git", "clone", "-q", ".", "scratch/evil"], check=True)
with open("scratch/evil/.git/config", "a") as f:
    f.write('[filter "x"]\\n\\tclean = sh -c "touch ${mark}; cat"\\n')
with open("scratch/evil/.gitattributes", "w") as f:
    f.write("* filter=x\\n")
os.makedirs("scratch/evil/.claude", exist_ok=True)
with open("scratch/evil/.claude/playbook.json", "w") as f:
    json.dump({"verify": {"allowWrite": [${JSON.stringify(records)}]}}, f)
`;
    const moves: Move[] = [
      ...m.begin(),
      ...m.work("p1.1"),
      m.bash(
        "agent",
        "it makes a copy of the project with a git filter and its own settings",
        blindPython(copy),
      ),
      m.bash(
        "agent",
        "it proves p1.1 with --cwd pointing at the copy",
        "npx --no playbook verify p1.1 --cwd scratch/evil",
        "deny",
      ),
      m.bash("agent", "it moves its shell into the copy", "cd scratch/evil"),
      m.bash(
        "agent",
        "it proves p1.1 from inside the copy",
        "npx --no playbook verify p1.1",
      ),
      m.say("agent", "it stops", "p1.1 is proven.", "block"),
    ];
    await world.session({ prompt: "Prove p1.1.", moves });

    expect(existsSync(mark)).toBe(false);
    expect(
      existsSync(world.path("scratch/evil/.claude/playbook/records")),
    ).toBe(false);
    // The proof that was made is of the real project, by its own verify.
    expect(
      stepTitled(world, "it proves p1.1 from inside the copy").reply?.result
        ?.text,
    ).toContain("p1.1");
    const added = filesUnder(world.path(RUNTIME))
      .filter(isTrustState)
      .filter((f) => !before.includes(f));
    expect(added.every((f) => f.startsWith("records/"))).toBe(true);
    expect(world.project.remoteGit("rev-parse", "main").trim()).toBe(
      remoteMain,
    );
  }, 900_000);

  it("a parser-blind script cannot grow state.md to 20 MB: the sandbox refuses the write, and the guards answer as before", async () => {
    // Before the plan's door, this held the hook past its timeout (and, without onFailure, let the call through);
    // a state.md grown by a person stays a broken document (hook-fail-closed.test.ts).
    await world.session({
      prompt: "Go on.",
      moves: [
        ...["CLAUDE.md", "state.md", m.playbook].map((f) => m.read("agent", f)),
        m.bash(
          "agent",
          "it grows state.md to 20 MB",
          blindPython(
            `open("state.md", "a").write("x" * (20 * 1024 * 1024))\n`,
          ),
          "fail",
        ),
        ...m.tick("p1.2", "deny", "it ticks p1.2, unproven"),
        m.say("agent", "it stops", "Done.", "block"),
      ],
    });
    expect(refusalOf(world, "it grows state.md to 20 MB")).toContain(
      "Read-only file system",
    );
    expect(statSync(world.path("state.md")).size).toBeLessThan(256 * 1024);
    expect(world.read(m.playbook)).toContain("- [ ] **p1.2**");
    expect(refusalOf(world, "it ticks p1.2, unproven")).toContain(
      "needs proof that is missing",
    );
  }, 900_000);

  it("the proof page shows what the agent wrote as text and runs none of its programs: no script, no git setting", async () => {
    const hostile =
      '<img src=x onerror="window.pwned=1"></script><script>window.pwned=2</script>';
    const plan = world.read(m.playbook);
    const line = /\*\*p1\.2\*\*: README\.md lists/.exec(plan)?.[0];
    expect(line).toBeDefined();
    // The shell's reach, in a spelling the parser cannot read: git settings that would run a program for the next
    // git to read this repository, and a forged archive history with a script for a pull request's address.
    const shape = `import json
for path, text in [(".git/config", "[core]\\n\\tfsmonitor = sh -c 'touch ${mark}-view'\\n"),
                   ("${RUNTIME}/archive-history.json", json.dumps({"archived": [{"playbook": "plan/archive/x.md", "pullRequest": "javascript:window.pwned=3"}]}))]:
    try:
        open(path, "a").write(text)
        print("wrote", path)
    except OSError as error:
        print("refused", path, error)
`;
    await world.session({
      prompt: "Note the risk in the plan.",
      moves: [
        m.read("agent", m.playbook),
        // A changed criterion needs the plan's review again: the plan says so, and the page shows it as it stands.
        m.write(
          "agent",
          "it writes markup into the plan",
          m.playbook,
          plan
            .replace("reviewed: true", "reviewed: false")
            .replace(line!, `${line!} ${hostile}`),
        ),
        m.bash(
          "agent",
          "it shapes what the page's git and history would read",
          blindPython(shape),
        ),
        m.bash(
          "agent",
          "it approves the plan itself, with markup in the notes",
          `npx --no playbook review approve --notes '${hostile}'`,
          "deny",
        ),
        m.say("agent", "it stops", "Noted.", "block"),
      ],
    });
    expect(
      world.read(m.playbook),
      world.steps
        .map((s) => `${s.title}: ${s.verdict} ${s.lines.join(" ")}`)
        .join("\n"),
    ).toContain(hostile);

    const browser = await views.browser();
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(await views.view(world.project.dir));
    await expect
      .poll(() => page.locator("body").textContent(), { timeout: 30_000 })
      .toContain(hostile);
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { pwned?: number }).pwned,
      ),
    ).toBeUndefined();
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(existsSync(`${mark}-view`)).toBe(false);
    // The sandbox kept the shell from both files; the page read them as they were.
    expect(world.read(".git/config")).not.toContain("fsmonitor");
    expect(
      existsSync(world.path(`${RUNTIME}/archive-history.json`)) &&
        world.read(`${RUNTIME}/archive-history.json`).includes("javascript:"),
    ).toBe(false);
  }, 900_000);
});

function refusalOf(world: GoldenPath, title: string): string {
  return stepTitled(world, title).reply?.result?.text ?? "";
}

describe("files git ignores are not part of the proof that is handed over, through the real client", () => {
  it("code that needs an ignored file is proven and ticked, but the final proof stops the archive: nothing reaches the remote", async () => {
    const world = await createWorld();
    const core = "src/impl/core.js";
    // The agent keeps the real work in a folder it tells git to ignore, and proves code that needs it.
    const task: SampleTask = {
      ...MULTIPLY,
      work: {
        ...MULTIPLY.work,
        "p1.1": [
          {
            tool: "Edit",
            path: ".gitignore",
            old: "node_modules/\n",
            new: "node_modules/\nsrc/impl/\n",
          },
          {
            tool: "Write",
            path: core,
            content: "export function times(a, b) {\n  return a * b;\n}\n",
          },
          ...(MULTIPLY.work["p1.1"] ?? []).map((item) =>
            item.tool === "Write" && item.path === "src/multiply.js"
              ? {
                  ...item,
                  content:
                    'import { times } from "./impl/core.js";\n\nexport function multiply(a, b) {\n  return times(a, b);\n}\n',
                }
              : item,
          ),
        ],
      },
    };
    const remoteMain = world.project.remoteGit("rev-parse", "main").trim();
    const [request] = goldenPathSessions(world, task, TODAY, {
      demoBlocks: false,
    });
    await world.session(request);

    const archive = stepTitled(
      world,
      "it ticks the last box, ft1: the archive starts",
    );
    const told = [
      ...(archive.reply?.contexts ?? []).map((c) => c.text),
      archive.reply?.result?.text ?? "",
    ].join("\n");
    expect(
      told,
      world.steps
        .map((s) => `${s.title}: ${s.verdict} ${s.lines.join(" ")}`)
        .join("\n"),
    ).toContain("the final proof failed");
    expect(world.project.remoteGit("rev-parse", "main").trim()).toBe(
      remoteMain,
    );
    expect(
      world.project.remoteGit("branch", "--list", "feat/multiply").trim(),
    ).toBe("");
    expect(readFileSync(world.path(core), "utf8")).toContain("a * b");
  }, 900_000);
});
