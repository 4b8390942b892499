import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { describe, expect, it } from "vitest";
import { applyDocumentEdit } from "../../src/app/workspace/apply-document-edit.ts";
import { setTaskChecked } from "../../src/core/edit/playbook-writers.ts";
import { setStateField } from "../../src/core/edit/state-writers.ts";
import { PlaybookError } from "../../src/core/errors.ts";
import { parsePlaybook } from "../../src/core/parse/parse-playbook.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../helpers/sample-docs.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-login-form.md";

describe("applyDocumentEdit", () => {
  it("writes the edited document in place, keeping its mode and leaving no temp file", () => {
    const p = createTempProject({ [PLAYBOOK]: SAMPLE_PLAYBOOK });
    chmodSync(p.path(PLAYBOOK), 0o640);

    const result = applyDocumentEdit(p.path(PLAYBOOK), PLAYBOOK, (text) =>
      setTaskChecked(text, "p1.1", true),
    );

    expect(result).toEqual({ changed: true });
    expect(p.read(PLAYBOOK)).toBe(
      SAMPLE_PLAYBOOK.replace("- [ ] **p1.1**", "- [x] **p1.1**"),
    );
    expect(statSync(p.path(PLAYBOOK)).mode & 0o777).toBe(0o640);
    expect(readdirSync(p.path("plan"))).toEqual(["playbook-login-form.md"]);
  });

  it("does not touch the file when nothing changes", () => {
    const p = createTempProject({ "state.md": SAMPLE_STATE });
    const before = statSync(p.path("state.md"));

    const result = applyDocumentEdit(p.path("state.md"), "state.md", (text) =>
      setStateField(text, "goal", "phase", "p1"),
    );

    expect(result).toEqual({ changed: false });
    expect(statSync(p.path("state.md")).ino).toBe(before.ino);
  });

  it("refuses with the file and the writer's reason, leaving the document as it was", () => {
    const broken = SAMPLE_STATE.replace(
      "status: in_progress",
      "status: [in_progress",
    );
    const p = createTempProject({ "state.md": broken });

    const attempt = () =>
      applyDocumentEdit(p.path("state.md"), "state.md", (text) =>
        setStateField(text, "goal", "phase", "p2"),
      );

    expect(attempt).toThrow(PlaybookError);
    expect(attempt).toThrow(
      /^state\.md: The `## goal` yaml block of state.md is broken/,
    );
    // The error points at the broken line, as `playbook lint` does.
    const line =
      broken.split("\n").findIndex((l) => l.includes("[in_progress")) + 1;
    expect(caught(attempt)).toMatchObject({
      hint: expect.stringMatching(/^Fix state\.md /) as string,
      location: { file: "state.md", line },
    });
    expect(p.read("state.md")).toBe(broken);
  });

  it("refuses to overwrite a change made while it was editing", () => {
    const p = createTempProject({ [PLAYBOOK]: SAMPLE_PLAYBOOK });
    const theirs = SAMPLE_PLAYBOOK.replace(
      "Users can log in",
      "People can log in",
    );

    const attempt = () =>
      applyDocumentEdit(p.path(PLAYBOOK), PLAYBOOK, (text) => {
        writeFileSync(p.path(PLAYBOOK), theirs);
        return setTaskChecked(text, "p1.1", true);
      });

    expect(attempt).toThrow(/changed while it was being edited/);
    expect(p.read(PLAYBOOK)).toBe(theirs);
    expect(parsePlaybook(p.read(PLAYBOOK), PLAYBOOK).value.goal.summary).toBe(
      "People can log in with email and password",
    );
  });

  it("reports a missing document with its path", () => {
    const p = createTempProject({});

    expect(() =>
      applyDocumentEdit(p.path("state.md"), "state.md", (text) =>
        setStateField(text, "goal", "phase", "p1"),
      ),
    ).toThrow(/state\.md does not exist/);
  });
});

function caught(attempt: () => unknown): unknown {
  try {
    attempt();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("applyDocumentEdit through a symlink", () => {
  it("refuses a document that is a link: it is judged under its own name only, and neither name changes", () => {
    const p = createTempProject({ "real/playbook.md": SAMPLE_PLAYBOOK });
    mkdirSync(p.path("plan"), { recursive: true });
    symlinkSync(p.path("real/playbook.md"), p.path(PLAYBOOK));

    expect(() =>
      applyDocumentEdit(p.path(PLAYBOOK), PLAYBOOK, (text) =>
        setTaskChecked(text, "p1.1", true),
      ),
    ).toThrow("is a symbolic link");

    expect(lstatSync(p.path(PLAYBOOK)).isSymbolicLink()).toBe(true);
    expect(p.read("real/playbook.md")).toBe(SAMPLE_PLAYBOOK);
  });
});
