import { describe, expect, it } from "vitest";
import {
  HISTORY_LIMIT,
  toArchiveHistory,
  withArchive,
  type ArchiveHistory,
} from "../../../../src/core/archive/archive-history.ts";
import { sampleJournal } from "../../../helpers/archive-journal.ts";
import {
  archivedPlaybooks,
  toArchiveJournalView,
} from "../../../../src/core/view/page-parts.ts";
import {
  archivedSection,
  archiveJournalSection,
  worktreesSection,
} from "../../../../src/core/view/page-sections.ts";
import { parseWorktreeList } from "../../../../src/core/view/worktree-list.ts";

const AT = "2026-11-28T10:00:00.000Z";

const journal = sampleJournal;

describe("the archive history", () => {
  it("keeps an archive once its playbook was moved, not before", () => {
    const before = journal({
      steps: { commit: { status: "done", at: AT, detail: "" } },
    });
    expect(withArchive(null, before, AT)).toBeNull();
    const failed = journal({
      steps: { "archive-playbook": { status: "failed", at: AT, detail: "" } },
    });
    expect(withArchive(null, failed, AT)).toBeNull();
    expect(withArchive(null, journal(), AT)?.entries).toEqual([
      {
        id: "j1",
        playbook: "plan/playbook-login.md",
        archivePath: "plan/archive/playbook-login.md",
        branch: "feat/login",
        title: "Users can log in",
        pr: { number: 7, url: "https://github.com/acme/app/pull/7" },
        status: "running",
        startedAt: "2026-11-28T09:00:00.000Z",
        at: AT,
      },
    ]);
  });

  it("updates an archive's entry as it goes on, and writes nothing when nothing changed", () => {
    const first = withArchive(null, journal(), AT);
    expect(withArchive(first, journal(), "2026-11-28T11:00:00Z")).toBeNull();
    const done = withArchive(first, journal({ status: "success" }), "later");
    expect(done?.entries.map((e) => [e.id, e.status, e.at])).toEqual([
      ["j1", "success", "later"],
    ]);
    const next = withArchive(
      done,
      journal({ id: "j2", archivePath: "plan/archive/playbook-b.md" }),
      AT,
    );
    expect(next?.entries.map((e) => e.id)).toEqual(["j1", "j2"]);
  });

  it("keeps the newest archives only", () => {
    let history: ArchiveHistory | null = null;
    for (let i = 0; i < HISTORY_LIMIT + 3; i++)
      history = withArchive(history, journal({ id: `j${i}` }), AT) ?? history;
    expect(history?.entries).toHaveLength(HISTORY_LIMIT);
    expect(history?.entries[0]?.id).toBe("j3");
  });

  it("reads back what it wrote, and refuses anything else", () => {
    const history = withArchive(null, journal(), AT);
    expect(toArchiveHistory(JSON.parse(JSON.stringify(history)))).toEqual(
      history,
    );
    expect(toArchiveHistory({ version: 1, entries: [{ id: 1 }] })).toBeNull();
    expect(toArchiveHistory([])).toBeNull();
  });
});

describe("the archived playbooks the page lists", () => {
  const entry = (id: string, path: string, at: string) => ({
    id,
    playbook: path.replace("archive/", ""),
    archivePath: path,
    branch: "feat/x",
    title: id,
    pr: null,
    status: "success" as const,
    startedAt: at,
    at,
  });

  it("lists recorded archives newest first, once each, then the files no history names", () => {
    const list = archivedPlaybooks(
      [
        {
          worktree: null,
          entries: [entry("a", "plan/archive/playbook-a.md", "2026-01-01")],
        },
        {
          worktree: "/w/b",
          entries: [
            entry("b", "plan/archive/playbook-b.md", "2026-02-01"),
            entry("a", "plan/archive/playbook-a.md", "2026-01-01"),
          ],
        },
      ],
      [
        "plan/archive/playbook-a.md",
        "plan/archive/playbook-b.md",
        "plan/archive/playbook-old.md",
        "plan/archive/playbook-c.md",
      ],
    );
    expect(list.map((a) => [a.archivePath, a.worktree, a.status])).toEqual([
      ["plan/archive/playbook-b.md", "/w/b", "success"],
      ["plan/archive/playbook-a.md", null, "success"],
      ["plan/archive/playbook-old.md", null, null],
      ["plan/archive/playbook-c.md", null, null],
    ]);
  });

  it("shows a pull request's address as a link only when it is http(s), and escapes what the agent named", () => {
    const html = archivedSection(
      [
        {
          archivePath: "plan/archive/playbook-<b>x</b>.md",
          title: "<img src=x onerror=alert(1)>",
          pr: { number: 3, url: "javascript:alert(1)" },
          status: "success",
          at: AT,
          worktree: null,
        },
        {
          archivePath: "plan/archive/playbook-y.md",
          title: null,
          pr: { number: 4, url: "https://github.com/acme/app/pull/4" },
          status: "pending",
          at: AT,
          worktree: null,
        },
      ],
      2,
    );
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('<td class="pr">#3</td>');
    expect(html).toContain('href="https://github.com/acme/app/pull/4"');
    expect(html).toContain("waiting for its merge");
    expect(html).toContain("and 2 older.");
  });
});

describe("an unfinished archive's journal", () => {
  it("lists every step in order, those not reached as not yet, with where it stopped and what to do", () => {
    const view = toArchiveJournalView(
      journal({
        status: "partial",
        next: "resolve the conflicts, then run `playbook archive --resume`",
        steps: {
          commit: { status: "done", at: AT, detail: "1 file" },
          push: { status: "failed", at: AT, detail: "rejected" },
        },
      }),
    );
    expect(view.steps.map((s) => [s.id, s.status])).toEqual([
      ["commit", "done"],
      ["push", "failed"],
      ["open-pr", "not yet"],
      ["archive-playbook", "not yet"],
      ["reset-state", "not yet"],
      ["merge", "not yet"],
      ["cleanup", "not yet"],
      ["lock", "not yet"],
    ]);
    const html = archiveJournalSection({ journal: view });
    expect(html).toContain('data-archive="partial"');
    expect(html).toContain('<tr data-step="open-pr" class="not-yet">');
    expect(html).toContain(
      "Next: resolve the conflicts, then run `playbook archive --resume`",
    );
    expect(archiveJournalSection({ problem: "not JSON <x>" })).toContain(
      "not JSON &lt;x&gt;",
    );
    expect(archiveJournalSection(null)).toBe("");
  });
});

describe("the repository's worktrees", () => {
  it("reads git's porcelain list: branch or detached, and the ones that cannot be read", () => {
    const text = [
      "worktree /r/main",
      "HEAD abc",
      "branch refs/heads/main",
      "",
      "worktree /r/with space",
      "HEAD def",
      "detached",
      "",
      "worktree /r/gone",
      "HEAD 123",
      "branch refs/heads/feat/x",
      "prunable gitdir file points to non-existent location",
      "",
      "",
    ].join("\0");
    expect(parseWorktreeList(text)).toEqual([
      { path: "/r/main", branch: "main", head: "abc", unusable: false },
      { path: "/r/with space", branch: null, head: "def", unusable: false },
      { path: "/r/gone", branch: "feat/x", head: "123", unusable: true },
    ]);
    expect(parseWorktreeList("")).toEqual([]);
  });

  it("renders each with its progress, escaped", () => {
    const html = worktreesSection([
      {
        path: "/r/<script>",
        branch: "feat/<i>",
        here: true,
        playbook: "plan/playbook-x.md",
        progress: { subtasks: 5, ticked: 3, proven: 2, unbacked: 1 },
        locked: false,
        archive: "partial",
      },
    ]);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<i>");
    expect(html).toContain("3/5 ticked, 2/5 proven");
    expect(html).toContain("1 claimed, not proven");
    expect(html).toContain("archive stopped");
    expect(worktreesSection([])).toBe("");
  });
});
