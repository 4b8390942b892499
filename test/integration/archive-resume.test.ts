import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { GitPort } from "../../src/core/ports.ts";
import { createArchiveDeps } from "../../src/app/deps.ts";
import {
  runArchive,
  type ArchiveOptions,
} from "../../src/app/archive/run-archive.ts";
import { ARCHIVE_STEPS } from "../../src/core/archive/journal.ts";
import { createFinishedRepo } from "../helpers/finished-repo.ts";
import type { GuardedRepo } from "../helpers/guarded-repo.ts";

/** Stands for the process dying: nothing after it runs, the journal keeps what was saved before. */
class Crash extends Error {}

const OPTIONS: ArchiveOptions = {
  dryRun: false,
  resume: false,
  provider: "local",
  session: "s1",
};

const bare = (repo: GuardedRepo, ...args: string[]) =>
  execFileSync("git", args, { cwd: repo.remoteDir, encoding: "utf8" }).trim();

/** What a user sees after the archive: the remote's main, the clone's branch, the lock; never commit times. */
function endState(repo: GuardedRepo) {
  const lock = JSON.parse(
    repo.read(".claude/playbook/post-loop.json"),
  ) as Record<string, unknown>;
  return {
    mainTree: bare(repo, "rev-parse", "main^{tree}"),
    mainShape: bare(repo, "log", "--topo-order", "--format=%P|%s", "main")
      .split("\n")
      .map(
        (line) =>
          `${line.split("|")[0]!.split(" ").length} parents: ${line.split("|")[1]}`,
      ),
    remoteBranches: bare(repo, "branch", "--format=%(refname:short)"),
    cloneBranch: repo.git("branch", "--show-current").trim(),
    cloneAtRemote:
      repo.git("rev-parse", "HEAD").trim() === bare(repo, "rev-parse", "main"),
    cloneClean: repo.git("status", "--porcelain").trim(),
    lock: { ...lock, at: "(time)" },
  };
}

async function archiveIn(
  repo: GuardedRepo,
  options: ArchiveOptions,
  git?: (real: GitPort) => GitPort,
) {
  const deps = createArchiveDeps(repo.dir, { PATH: process.env["PATH"] });
  return runArchive(
    repo.dir,
    options,
    git ? { ...deps, git: git(deps.git) } : deps,
  );
}

describe("an interrupted local archive resumes to the same end", () => {
  const reference = (async () => {
    const repo = createFinishedRepo();
    const outcome = await archiveIn(repo, OPTIONS);
    expect(outcome.status).toBe("success");
    return endState(repo);
  })();

  it.each(ARCHIVE_STEPS.map((step) => [step]))(
    "killed right after %s, before the journal records it",
    async (step) => {
      const repo = createFinishedRepo();
      await expect(
        archiveIn(repo, {
          ...OPTIONS,
          onProgress: (report) => {
            if (report.id === step) throw new Crash(step);
          },
        }),
      ).rejects.toBeInstanceOf(Crash);
      const resumed = await archiveIn(repo, { ...OPTIONS, resume: true });
      expect(resumed.status, resumed.next ?? "").toBe("success");
      expect(JSON.stringify(endState(repo), null, 1)).toBe(
        JSON.stringify(await reference, null, 1),
      );
    },
  );

  it.each([
    ["before the push reaches the remote", false],
    ["after the push reached the remote", true],
  ])("killed in the middle of a push (%s)", async (_name, pushFirst) => {
    const repo = createFinishedRepo();
    let pushes = 0;
    // The connection drops: the step fails (the remote may or may not have the commits) and the archive stops.
    const stopped = await archiveIn(repo, OPTIONS, (real) => ({
      ...real,
      push: async (remote, refspec) => {
        if (++pushes === 2) {
          if (pushFirst) await real.push(remote, refspec);
          throw new Error("connection reset by peer");
        }
        return real.push(remote, refspec);
      },
    }));
    expect(stopped.status).toBe("partial");
    expect(stopped.next).toContain("playbook archive --resume");
    const resumed = await archiveIn(repo, { ...OPTIONS, resume: true });
    expect(resumed.status, resumed.next ?? "").toBe("success");
    expect(JSON.stringify(endState(repo), null, 1)).toBe(
      JSON.stringify(await reference, null, 1),
    );
  });

  it("running it again after success, plain or --resume, changes nothing and says it is already archived", async () => {
    const repo = createFinishedRepo();
    const first = await archiveIn(repo, OPTIONS);
    const before = endState(repo);
    for (const options of [
      OPTIONS,
      { ...OPTIONS, resume: true },
      { ...OPTIONS, dryRun: true },
    ]) {
      const again = await archiveIn(repo, options);
      expect(again).toMatchObject({
        status: "already-archived",
        journal: { playbook: first.journal.playbook, status: "success" },
        steps: [],
        next: "Run /post-loop (`playbook post-loop`) to pick the next task.",
      });
    }
    expect(endState(repo)).toEqual(before);
    // Once the lock is lifted, the next step is the next task.
    rmSync(repo.path(".claude/playbook/post-loop.json"));
    expect((await archiveIn(repo, OPTIONS)).next).toBe(
      "Start the next task with /playbook-init.",
    );
  });
});
