import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  createReviewedWorld,
  stepTitled,
} from "../helpers/golden-path-world.ts";
import { AWS_SECRET_LINE, FAKE_AWS_SECRET } from "../helpers/fake-secrets.ts";

/** `code` run by Python from the agent's shell, base64-encoded: a spelling no parser of the command line reads. */
function blindPython(code: string): string {
  return `python3 -c "import base64;exec(base64.b64decode('${Buffer.from(code).toString("base64")}'))"`;
}

const FORGE =
  "its shell adds config.env to the list of files it wrote, from base64-encoded Python";

/**
 * The archive commits exactly the work (docs/archive.md): through the real Claude Code CLI, the agent writes its
 * code with the file tools, and its shell leaves a `scratch.txt` (a heredoc) and a `config.env` holding an AWS secret
 * (base64-encoded Python), then tries to add config.env to the hook's list of the files it wrote. Ticking the last box archives: the work is merged, and nothing of either stray file
 * reaches the remote, under any ref, in any object reachable from one; the archive's output names both.
 */
describe("the archive leaves the shell's stray files alone, through the real client", () => {
  it("merges the work, publishes neither scratch.txt nor config.env's secret, and names both as left alone", async () => {
    const { world, m } = await createReviewedWorld();
    const shell = (title: string, command: string) =>
      m.bash("agent", title, command);
    await world.session({
      prompt: "Do the multiply task.",
      moves: [
        ...m.begin(),
        ...m.work("p1.1"),
        shell(
          "its shell keeps notes in scratch.txt",
          "cat > scratch.txt <<'EOF'\nnotes: try the edge cases\nEOF",
        ),
        shell(
          "its shell writes config.env from base64-encoded Python",
          blindPython(
            `open("config.env", "w").write(${JSON.stringify(`REGION=eu-west-1\n${AWS_SECRET_LINE}\n`)})`,
          ),
        ),
        m.bash(
          "agent",
          FORGE,
          blindPython(
            [
              "import glob, os",
              'os.makedirs(".claude/playbook/written", exist_ok=True)',
              'for f in glob.glob(".claude/playbook/written/*.jsonl") or [".claude/playbook/written/plan__playbook-multiply.md.jsonl"]:',
              '    open(f, "a").write(\'"config.env"\\n\')',
            ].join("\n"),
          ),
          "fail",
        ),
        ...m.verify("p1.1"),
        ...m.tick("p1.1", "allow"),
        ...m.work("p1.2"),
        ...m.verify("p1.2"),
        ...m.tick("p1.2", "allow"),
        ...m.verify("p1"),
        ...m.crit(
          "p1",
          "PASS",
          "npm test passes; README and CHANGELOG list the function",
        ),
        ...m.finishPhase("allow"),
        ...m.tick(
          "ft1",
          "allow",
          "it ticks the last box, ft1: the archive starts",
        ),
        m.say("agent", "it stops", "The multiply task is merged.", "stop"),
      ],
    });

    // Both files were made, by the shell, and are still there, untouched.
    expect(world.read("scratch.txt")).toBe("notes: try the edge cases\n");
    expect(world.read("config.env")).toContain(AWS_SECRET_LINE);

    // The archive ran in the hook and told the model which files it committed and which it left alone.
    const archive = stepTitled(
      world,
      "it ticks the last box, ft1: the archive starts",
    );
    const told =
      archive.reply?.contexts.find((c) => c.event === "PostToolUse")?.text ??
      "";
    expect(told).toContain("playbook archived plan/playbook-multiply.md");
    expect(told).toContain(
      "Left alone, not committed: config.env, scratch.txt. Next: run /post-loop",
    );
    expect(told).toMatch(
      /commit: \d+ files \([0-9a-f]{7}\): [^;]*src\/multiply\.js/,
    );
    expect(told).toMatch(
      /left alone, not committed \(untracked, not staged, not written by the agent's file tools\): config\.env, scratch\.txt\./,
    );
    expect(told).not.toContain(FAKE_AWS_SECRET.slice(0, 8));
    const journal = JSON.parse(
      world.read(".claude/playbook/archive-journal.json"),
    ) as {
      files: { committed: string[]; leftAlone: string[] };
    };
    expect(journal.files.leftAlone).toEqual(["config.env", "scratch.txt"]);
    // The list of written files is the hook's: the shell could not add to it.
    expect(stepTitled(world, FORGE).reply?.result?.text ?? "").toMatch(
      /Permission denied|Read-only file system/,
    );
    expect(journal.files.committed).not.toContain("config.env");
    expect(journal.files.committed).toContain("src/multiply.js");

    // The remote: the work is on main, and neither file under any ref nor in any object reachable from one.
    const remote = (...args: string[]) => world.project.remoteGit(...args);
    expect(remote("show", "main:src/multiply.js")).toContain("multiply");
    const refs = remote("for-each-ref", "--format=%(refname)")
      .trim()
      .split("\n");
    expect(refs).toContain("refs/heads/main");
    const objects = remote("rev-list", "--objects", "--all").trim().split("\n");
    const names = objects.map((line) => line.slice(41)).filter(Boolean);
    expect(names).toContain("src/multiply.js");
    expect(
      names.filter((n) => /(^|\/)(scratch\.txt|config\.env)$/.test(n)),
    ).toEqual([]);
    const contents = execFileSync("git", ["cat-file", "--batch"], {
      cwd: world.project.remoteDir,
      input: `${objects.map((line) => line.slice(0, 40)).join("\n")}\n`,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(contents).toContain("export function multiply");
    expect(contents).not.toContain(FAKE_AWS_SECRET);
    expect(contents).not.toContain("notes: try the edge cases");
  }, 900_000);
});
