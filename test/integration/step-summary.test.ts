import { execFileSync } from "node:child_process";
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appendStepSummary } from "../../src/adapters/step-summary.ts";

// $GITHUB_STEP_SUMMARY as an input of a deputy: where check --rerun appends its job summary, and where it never does.

function places() {
  const dir = mkdtempSync(join(tmpdir(), "step-summary-"));
  const project = join(dir, "project");
  const temp = join(dir, "_temp");
  mkdirSync(project);
  mkdirSync(temp);
  writeFileSync(join(project, "state.md"), "# state\n");
  return { dir, project, temp };
}

const actions = (summary: string) => ({
  GITHUB_ACTIONS: "true",
  GITHUB_STEP_SUMMARY: summary,
});

describe("appendStepSummary", () => {
  it("appends to the runner's file, giving the renderer the room left of 1 MiB", () => {
    const { project, temp } = places();
    const summary = join(temp, "step_summary_1");
    writeFileSync(summary, "x".repeat(1000));
    let room = 0;

    const outcome = appendStepSummary(actions(summary), [project], (r) => {
      room = r;
      return "## table\n";
    });

    expect(outcome).toEqual({ status: "written", path: summary });
    expect(room).toBe(1024 * 1024 - 1000);
    expect(readFileSync(summary, "utf8")).toBe(`${"x".repeat(1000)}## table\n`);
  });

  it("does nothing, and says nothing, outside GitHub Actions", () => {
    const { project, temp } = places();
    const summary = join(temp, "step_summary_1");
    writeFileSync(summary, "");
    expect(
      appendStepSummary(
        { GITHUB_STEP_SUMMARY: summary },
        [project],
        () => "## table\n",
      ),
    ).toEqual({ status: "not-in-actions" });
    expect(readFileSync(summary, "utf8")).toBe("");
  });

  it.each<[string, (p: ReturnType<typeof places>) => string, string]>([
    [
      "a missing file (it is never created)",
      (p) => join(p.temp, "none"),
      "it does not exist",
    ],
    [
      "a hard link to a project file",
      (p) => {
        const link = join(p.temp, "step_summary_1");
        linkSync(join(p.project, "state.md"), link);
        return link;
      },
      "has other names (hard links)",
    ],
    [
      "a file in a folder linked into the project",
      (p) => {
        symlinkSync(p.project, join(p.temp, "into"));
        return join(p.temp, "into", "state.md");
      },
      "is inside",
    ],
    ["a folder", (p) => p.temp, "cannot be opened to append"],
    [
      "a named pipe, without waiting for a reader",
      (p) => {
        const fifo = join(p.temp, "fifo");
        execFileSync("mkfifo", [fifo]);
        return fifo;
      },
      "cannot be opened to append",
    ],
  ])("refuses %s", (_, target, why) => {
    const p = places();
    const path = target(p);
    const outcome = appendStepSummary(
      actions(path),
      [p.project],
      () => "## table\n",
    );
    expect(outcome.status).toBe("refused");
    expect(outcome.status === "refused" ? outcome.why : "").toContain(why);
    expect(readFileSync(join(p.project, "state.md"), "utf8")).toBe("# state\n");
  });

  it("refuses a step summary that is already full", () => {
    const { project, temp } = places();
    const summary = join(temp, "step_summary_1");
    writeFileSync(summary, "x".repeat(1024 * 1024 - 100));
    const outcome = appendStepSummary(actions(summary), [project], () => "t");
    expect(outcome).toEqual({
      status: "refused",
      why: "the step's summary is full (GitHub Actions keeps 1 MiB of it)",
    });
  });
});
