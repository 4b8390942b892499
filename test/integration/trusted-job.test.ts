import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createTempProject } from "../helpers/temp-project.ts";

const JOB = join(import.meta.dirname, "..", "..", "dist", "job.cjs");

describe("dist/job.cjs", () => {
  it("runs a command and the waiter shows its output and exit code", () => {
    const p = createTempProject({
      "fake-cli.mjs":
        'console.log("line one"); console.error("to stderr"); process.exit(3);\n',
    });
    const job = p.path("job");
    mkdirSync(job);
    const run = spawnSync(
      process.execPath,
      [JOB, "run", job, p.path("fake-cli.mjs"), "verify", "p1.1"],
      {
        encoding: "utf8",
      },
    );
    expect(run.status).toBe(0);
    const wait = spawnSync(process.execPath, [JOB, "wait", job], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(wait.stdout).toContain("line one");
    expect(wait.stdout).toContain("to stderr");
    expect(wait.status).toBe(3);
  });

  it("gives up with a message when the job stopped without a result, instead of waiting forever", () => {
    const p = createTempProject({});
    const job = p.path("job");
    mkdirSync(job);
    writeFileSync(join(job, "output"), "half of it\n");
    const wait = spawnSync(process.execPath, [JOB, "wait", job], {
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, PLAYBOOK_JOB_STALE_MS: "500" },
    });
    expect(wait.stdout).toContain("half of it");
    expect(wait.stderr).toContain("stopped without a result");
    expect(wait.status).toBe(1);
  });
});
