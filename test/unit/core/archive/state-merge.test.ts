import { describe, expect, it } from "vitest";
import { resolveStateConflicts } from "../../../../src/core/archive/state-merge.ts";

/** A diff3 conflict hunk as git writes it into state.md. */
const hunk = (ours: string, base: string, theirs: string) =>
  `<<<<<<< HEAD\n${ours}\n||||||| merged common ancestors\n${base}\n=======\n${theirs}\n>>>>>>> feat/beta`;

const wrap = (body: string) =>
  `# state\n\n## playbook\n\n\`\`\`yaml\n${body}\n\`\`\`\n`;

describe("resolveStateConflicts: two archives of one base rewrite the same lines of state.md", () => {
  it("last_archived changed on both sides: the archived branch's value wins, on whichever side it is", () => {
    const text = wrap(
      `active: null\nbranch: null\n${hunk(
        "last_archived: plan/archive/playbook-alpha.md",
        "last_archived: null",
        "last_archived: plan/archive/playbook-beta.md",
      )}`,
    );
    expect(resolveStateConflicts(text, "theirs")).toBe(
      wrap(
        "active: null\nbranch: null\nlast_archived: plan/archive/playbook-beta.md",
      ),
    );
    expect(resolveStateConflicts(text, "ours")).toBe(
      wrap(
        "active: null\nbranch: null\nlast_archived: plan/archive/playbook-alpha.md",
      ),
    );
  });

  it("session stamps keep the later time; a key only one side changed keeps that change", () => {
    const text = hunk(
      "last_start: 2026-11-21T10:05:00Z\nlast_end: null",
      "last_start: 2026-11-21T10:00:00Z\nlast_end: null",
      "last_start: 2026-11-21T10:01:00Z\nlast_end: 2026-11-21T11:00:00Z",
    );
    expect(resolveStateConflicts(text, "theirs")).toBe(
      "last_start: 2026-11-21T10:05:00Z\nlast_end: 2026-11-21T11:00:00Z",
    );
  });

  it("a goal list value moves as one entry with its items", () => {
    const text = hunk(
      "phase: null\ndone_criteria: []\nstatus: idle",
      'phase: p2\ndone_criteria:\n  - "npm test"\nstatus: in_progress',
      "phase: null\ndone_criteria: []\nstatus: idle",
    );
    expect(resolveStateConflicts(text, "ours")).toBe(
      "phase: null\ndone_criteria: []\nstatus: idle",
    );
  });

  it("leaves real conflicts to a person: a key the archive does not own, prose, a key one side lacks, no base", () => {
    expect(
      resolveStateConflicts(
        hunk("toolstack: B", "toolstack: A", "toolstack: C"),
        "theirs",
      ),
    ).toBeNull();
    expect(
      resolveStateConflicts(
        hunk("Where we stand.", "Where it stands.", "Where things stand."),
        "theirs",
      ),
    ).toBeNull();
    expect(
      resolveStateConflicts(
        hunk("active: null\nbranch: null", "active: x", "active: null"),
        "theirs",
      ),
    ).toBeNull();
    expect(
      resolveStateConflicts(
        "<<<<<<< HEAD\nlast_archived: a\n=======\nlast_archived: b\n>>>>>>> x",
        "theirs",
      ),
    ).toBeNull();
  });

  it("keeps everything outside the hunks byte for byte, CRLF line endings included", () => {
    const text = `a: 1\r\n${hunk("last_archived: x\r", "last_archived: null\r", "last_archived: y\r")}\r\nz\r\n`;
    expect(resolveStateConflicts(text, "theirs")).toBe(
      "a: 1\r\nlast_archived: y\r\nz\r\n",
    );
  });
});
