import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { readJob, runningJobs } from "../../src/adapters/trusted-job.ts";
import { stripColors } from "../../src/cli/print/colors.ts";
import { archiveFromHook } from "../../src/entries/archive-job.ts";
import { createFinishedRepo } from "../helpers/finished-repo.ts";
import { HOOK_BUNDLE } from "../helpers/run-hook.ts";

const DIST = dirname(HOOK_BUNDLE);
const ARCHIVED = "plan/archive/playbook-login-form.md";

/** The command in the headline's "Next: run `…`", as the model would copy it. */
function waiterOf(headline: string): string {
  const command = /Next: run `([^`]+)` in Bash/.exec(headline)?.[1];
  expect(command).toBeDefined();
  return command ?? "";
}

describe("the archive the hook starts runs as a job", () => {
  it("within the wait, the model reads the outcome and every step in the hook's reply", async () => {
    const repo = createFinishedRepo({
      files: {
        ".claude/playbook.json": JSON.stringify({
          archive: { provider: "local" },
        }),
      },
    });
    const result = await archiveFromHook(repo.dir, "session-1", DIST);
    expect(result.headline).toBe(
      `playbook archived plan/playbook-login-form.md → ${ARCHIVED} (merged into main); the post-loop lock is set. Next: run /post-loop (\`playbook post-loop\`) to pick the next task.`,
    );
    expect(
      JSON.parse(
        readFileSync(repo.path(".claude/playbook/post-loop.json"), "utf8"),
      ),
    ).toMatchObject({ session: "session-1" });
    expect(result.steps).toMatch(/✓ commit: \d+ files? \([0-9a-f]{7}\)/);
    expect(result.steps).toContain("✓ merge: ");
    // No colour codes, whatever the environment asks of the CLI.
    expect(result.steps).not.toContain("\u001b[");
  });

  it("past the wait, the model gets a command that follows the job to its end, and then no archive job runs", async () => {
    const repo = createFinishedRepo({
      files: {
        ".claude/playbook.json": JSON.stringify({
          archive: { provider: "local", hookWaitSeconds: 0 },
        }),
      },
    });
    const result = await archiveFromHook(repo.dir, "session-1", DIST);
    expect(result.steps).toBeNull();
    expect(result.headline).toContain(
      "its archive runs as a job outside this hook",
    );
    const waiter = waiterOf(result.headline);
    const followed = spawnSync("bash", ["-c", waiter], {
      cwd: repo.dir,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(followed.status).toBe(0);
    // Coloured when the environment asks for it (CI sets CI): read as the user sees it.
    const shown = stripColors(followed.stdout);
    expect(shown).toMatch(/✓ merge\s+/);
    expect(shown).toContain(`archived plan/playbook-login-form.md`);
    expect(repo.git("log", "-1", "--format=%s", "main")).not.toBe("");
    expect(runningJobs(repo.dir, "archive", Date.now())).toEqual([]);
  });

  it("never reads a session id as an option: one that looks like one is refused, and nothing is archived", async () => {
    const repo = createFinishedRepo({
      files: {
        ".claude/playbook.json": JSON.stringify({
          archive: { provider: "local" },
        }),
      },
    });
    const result = await archiveFromHook(repo.dir, "--dry-run", DIST);
    expect(result.headline).toMatch(
      /^The playbook is finished, but the archive did not start: .*--session/,
    );
    expect(
      execFileSync("git", ["branch", "--list"], {
        cwd: repo.remoteDir,
        encoding: "utf8",
      }),
    ).not.toContain("feat/");
    expect(existsSync(repo.path("plan/playbook-login-form.md"))).toBe(true);
  });

  it("names why, with its last line, when the archive did not start", async () => {
    const repo = createFinishedRepo({
      files: {
        ".claude/playbook.json": JSON.stringify({
          archive: { provider: "github" },
        }),
      },
    });
    const result = await archiveFromHook(repo.dir, "session-1", DIST);
    expect(result.headline).toMatch(
      /^The playbook is finished, but the archive did not start: .+\. Next: fix that, then run `playbook archive`\.$/,
    );
    expect(result.steps).toBeNull();
  });
});

describe("a job's state", () => {
  const job = (root: string, files: Record<string, string>) => {
    const dir = join(root, ".claude/playbook/jobs/archive-x");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "command.json"),
      JSON.stringify({ args: ["archive"] }),
    );
    for (const [name, text] of Object.entries(files))
      writeFileSync(join(dir, name), text);
    return dir;
  };

  /** Sets the time `file` in the job was last written: the clock these tests read, whatever the machine's is. */
  const touched = (dir: string, file: string, at: number) =>
    utimesSync(join(dir, file), new Date(at), new Date(at));
  const NOW = Date.parse("2026-11-27T10:00:00Z");

  it("runs until its status is written, and is gone once its heartbeat stops for 15 s", () => {
    const repo = createFinishedRepo();
    const dir = job(repo.dir, { alive: "" });
    touched(dir, "alive", NOW - 14_000);
    expect(readJob(dir, NOW)).toMatchObject({ exitCode: null, gone: false });
    expect(runningJobs(repo.dir, "archive", NOW)).toHaveLength(1);
    expect(runningJobs(repo.dir, "verify", NOW)).toEqual([]);
    touched(dir, "alive", NOW - 16_000);
    expect(readJob(dir, NOW)).toMatchObject({ gone: true });
    expect(runningJobs(repo.dir, "archive", NOW)).toEqual([]);
    writeFileSync(join(dir, "status"), "3\n");
    expect(readJob(dir, NOW)).toMatchObject({ exitCode: 3, gone: false });
  });

  it("counts a job whose runner has not started yet as running, from when the hook made it", () => {
    const repo = createFinishedRepo();
    const dir = job(repo.dir, {});
    touched(dir, "command.json", NOW);
    expect(readJob(dir, NOW + 14_000)).toMatchObject({
      exitCode: null,
      gone: false,
    });
    expect(readJob(dir, NOW + 16_000)).toMatchObject({ gone: true });
  });

  it("is not a job without a command of string arguments", () => {
    const repo = createFinishedRepo();
    const dir = job(repo.dir, {});
    writeFileSync(join(dir, "command.json"), '{"args": [1]}');
    expect(readJob(dir, NOW)).toBeNull();
    writeFileSync(join(dir, "command.json"), "not json");
    expect(readJob(dir, NOW)).toBeNull();
  });
});
