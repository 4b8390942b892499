import { describe, expect, it } from "vitest";
import { planReadOnlyNote } from "../../../../src/core/session/plan-read-only-note.ts";

describe("the note after a shell command could not write the plan", () => {
  it.each([
    "Exit code 1\nerror: unable to unlink old 'plan/playbook-login-form.md': Read-only file system",
    "Exit code 1\nsed: couldn't open file plan/playbook-x.md: Read-only file system",
    "Exit code 2\nsh: 1: cannot create state.md: Read-only file system",
    "Exit code 1\nmv: cannot move 'plan' to 'plan-old': Device or resource busy",
    "Traceback (most recent call last):\nOSError: [Errno 30] Read-only file system: '/repo/state.md'",
  ])("names the way through for %j", (error) => {
    const note = planReadOnlyNote(error);
    expect(note).toContain("read-only to your shell");
    expect(note).toContain("Edit or Write tool");
    expect(note).toContain("the user's terminal");
  });

  it.each([
    "Exit code 1\ncp: cannot create regular file '/usr/lib/x': Read-only file system",
    "Exit code 1\nerror: pathspec 'plan/x.md' did not match any file(s) known to git",
    "Exit code 1\ntests failed",
    "Exit code 1\nsh: cannot create planet.txt: Read-only file system",
  ])("says nothing for %j", (error) => {
    expect(planReadOnlyNote(error)).toBeNull();
  });
});
