import type { ArchiveJournal } from "../../src/core/archive/journal.ts";

/** A journal of a GitHub archive of `plan/playbook-login.md` whose playbook was moved: what a history keeps. */
export function sampleJournal(
  over: Partial<ArchiveJournal> = {},
): ArchiveJournal {
  const at = "2026-11-28T10:00:00.000Z";
  return {
    version: 1,
    id: "j1",
    playbook: "plan/playbook-login.md",
    archivePath: "plan/archive/playbook-login.md",
    branch: "feat/login",
    defaultBranch: "main",
    provider: "github",
    title: "Users can log in",
    body: "",
    session: null,
    startedAt: "2026-11-28T09:00:00.000Z",
    status: "running",
    pr: { number: 7, url: "https://github.com/acme/app/pull/7" },
    steps: {
      commit: { status: "done", at, detail: "1 file" },
      "archive-playbook": { status: "done", at, detail: "moved" },
    },
    next: null,
    ...over,
  };
}
