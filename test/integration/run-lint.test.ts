import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readWorkspaceSummary } from "../../src/app/workspace/read-workspace-summary.ts";
import { runLint } from "../../src/app/lint/lint.ts";
import { summarizeDocument } from "../../src/core/parse/summarize-document.ts";
import { SAMPLE_PLAYBOOK, stateDoc } from "../helpers/sample-docs.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const state = (active: string) =>
  stateDoc({ active, branch: "feat/login-form", phase: "p1" });

describe("runLint on awkward files", () => {
  it.each([
    "plan/./playbook-login-form.md",
    "plan//playbook-login-form.md",
    "./plan/playbook-login-form.md",
  ])("reads active: %s as plan/playbook-login-form.md, once", (active) => {
    const p = createTempProject({
      "state.md": state(active),
      "plan/playbook-login-form.md": SAMPLE_PLAYBOOK,
    });

    const report = runLint(p.dir);

    expect(report.files).toEqual(["state.md", "plan/playbook-login-form.md"]);
    expect(report.active?.file).toBe("plan/playbook-login-form.md");
    expect(report.diagnostics).toEqual([]);
  });

  it("reports a playbook path that is a directory instead of crashing", () => {
    const p = createTempProject({
      "state.md": state("plan/playbook-login-form.md"),
    });
    mkdirSync(p.path("plan/playbook-login-form.md"), { recursive: true });

    const report = runLint(p.dir, ["plan/playbook-login-form.md"]);

    expect(report.diagnostics).toMatchObject([
      {
        code: "file-unreadable",
        file: "plan/playbook-login-form.md",
        line: 1,
        severity: "error",
      },
    ]);
    expect(report.diagnostics[0]?.message).toMatch(/is a directory/);
  });

  it("reports a file that fails to read instead of crashing", () => {
    const p = createTempProject({
      "state.md": state("plan/playbook-login-form.md"),
    });
    mkdirSync(p.path("plan"), { recursive: true });
    // Reading /proc/self/mem from the start fails with EIO: a stand-in for any unreadable file.
    symlinkSync("/proc/self/mem", p.path("plan/playbook-mem.md"));

    const report = runLint(p.dir, ["plan/playbook-mem.md"]);

    expect(report.diagnostics).toMatchObject([
      { code: "file-unreadable", file: "plan/playbook-mem.md" },
    ]);
  });

  it("does not follow an active playbook that a symlink leads out of the repository", () => {
    const outside = join(tmpdir(), `playbook-outside-${process.pid}.md`);
    writeFileSync(outside, "## meta\nTOKEN=abc123\n");
    const p = createTempProject({
      "state.md": state("plan/playbook-login-form.md"),
    });
    mkdirSync(p.path("plan"), { recursive: true });
    symlinkSync(outside, p.path("plan/playbook-login-form.md"));

    const report = runLint(p.dir);
    const workspace = readWorkspaceSummary(p.dir, summarizeDocument);

    expect(report.diagnostics.map((d) => d.code)).toEqual([
      "active-path-unsafe",
    ]);
    expect(report.diagnostics[0]?.message).toMatch(/outside the repository/);
    expect(JSON.stringify(report)).not.toContain("abc123");
    expect(workspace.active).toBeNull();
  });
});

describe("runLint with odd project layouts", () => {
  it("lints state.md when plan is a file, not a directory", () => {
    const p = createTempProject({
      "state.md": stateDoc({ active: "null", branch: "null", phase: "null" }),
      plan: "not a folder",
    });

    const report = runLint(p.dir);

    expect(report.files).toEqual(["state.md"]);
    expect(report.diagnostics).toEqual([]);
  });

  it("says how to fix a missing active playbook with what exists today", () => {
    const p = createTempProject({ "state.md": state("plan/playbook-gone.md") });

    const [diagnostic] = runLint(p.dir).diagnostics;

    expect(diagnostic?.code).toBe("active-missing");
    expect(diagnostic?.message).toContain("plan/template/playbook-format.md");
    expect(diagnostic?.message).not.toContain("playbook new");
  });
});
