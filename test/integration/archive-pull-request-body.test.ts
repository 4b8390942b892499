import { describe, expect, it } from "vitest";
import { createGitHubPort } from "../../src/adapters/github-port.ts";
import { readRecords } from "../../src/adapters/record-store.ts";
import { createArchiveDeps } from "../../src/app/deps.ts";
import {
  runArchive,
  type ArchiveOptions,
} from "../../src/app/archive/run-archive.ts";
import { createRecordSet } from "../../src/core/records/record-set.ts";
import type { PlaybookRecord } from "../../src/core/records/record.ts";
import {
  createFinishedRepo,
  FINISHED_PLAYBOOK,
} from "../helpers/finished-repo.ts";
import type { GitHubServer } from "../../harness/github-server.ts";
import {
  GITHUB_TEST_TOKEN,
  useGitHubServers,
} from "../helpers/github-servers.ts";
import { PLAYBOOK, type GuardedRepo } from "../helpers/guarded-repo.ts";
import { requireSandboxTools } from "../helpers/required-tools.ts";
import { runCliAsync } from "../helpers/run-cli.ts";

// The pull request's body on the local GitHub, compared with the records of the archive that opened it.

const TOKEN = GITHUB_TEST_TOKEN;
const startServer = useGitHubServers();

const envFor = (server: GitHubServer) => ({
  GITHUB_TOKEN: TOKEN,
  GH_TOKEN: undefined,
  GITHUB_API_URL: server.url,
  CLAUDE_CODE_SESSION_ID: "session-1",
});

/** The body GitHub holds for pull request `number`, read as a reviewer's browser would get it. */
async function bodyOf(server: GitHubServer, number: number): Promise<string> {
  const response = await fetch(`${server.url}/repos/acme/app/pulls/${number}`, {
    headers: { authorization: `token ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { body: string }).body;
}

/** Each table line of `body` as its cells, split as GitHub splits them. */
function tableLines(body: string): string[][] {
  return body
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map((line) =>
      line
        .replace(/^\|/, "")
        .replace(/(?<!\\)\|$/, "")
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}

/** The table line of `validation` of `subtask`: its subtask's first line, or a line after it. */
function lineOf(
  lines: string[][],
  subtask: string,
  validation: string,
): string[] | undefined {
  let current = "";
  for (const cells of lines) {
    const id = /\*\*(p\d+\.\d+)\*\*/.exec(cells[0] ?? "")?.[1];
    if (id) current = id;
    else if (cells[0] !== "") current = "";
    if (current === subtask && cells[2]?.startsWith(`${validation} (`))
      return cells;
  }
  return undefined;
}

const short = (hash: unknown) =>
  `\`${String(hash)
    .replace(/^sha256:/, "")
    .slice(0, 12)}\``;
const minute = (at: string) => `${at.slice(0, 10)} ${at.slice(11, 16)} UTC`;

/** The newest record of each key, as the archive judged them. */
function latestRecords(repo: GuardedRepo): PlaybookRecord[] {
  const all = readRecords(repo.dir, PLAYBOOK);
  const set = createRecordSet(all);
  return [
    ...new Set(
      all.map((r) =>
        set.latest({
          kind: r.kind,
          playbook: r.playbook,
          target: r.target,
          ...(r.validation ? { validation: r.validation } : {}),
        }),
      ),
    ),
  ].filter((r): r is PlaybookRecord => r !== null);
}

describe("the pull request's body", () => {
  it("after the final proof, shows what the records prove: each validation's refreshed evidence, the approved plan and the critic", async () => {
    const playbook = FINISHED_PLAYBOOK.replaceAll(
      /(automated|hybrid) - npx (vitest|tsc|playwright)[^"'\n+]*/g,
      "$1 - test -f src/login-form.tsx ",
    );
    requireSandboxTools();
    const repo = createFinishedRepo({
      playbook,
      files: {
        ".claude/playbook.json": JSON.stringify({
          security: "strict",
          archive: {
            repository: "acme/app",
            checkWaitSeconds: 0,
            requireRerun: true,
          },
        }),
      },
    });
    const server = await startServer(repo.remoteDir);

    const result = await runCliAsync(["archive", "--cwd", repo.dir], {
      env: envFor(server),
    });
    expect(result.status, result.stdout + result.stderr).toBe(0);

    const body = await bodyOf(server, 1);
    const lines = tableLines(body);
    const records = latestRecords(repo);
    const evidence = records.filter((r) => r.kind === "evidence");
    expect(evidence.length).toBeGreaterThan(0);
    for (const record of evidence) {
      // The final proof ran each validation again on the commit and wrote its evidence: that is what the body shows.
      expect(record.by).toBe("playbook-reprove");
      const cells = lineOf(lines, record.target, record.validation ?? "");
      expect(cells, `${record.target} ${record.validation}`).toBeDefined();
      expect(cells?.[3]).toBe(`\`${String(record.detail["command"])}\``);
      // A hybrid validation shows the user's confirmation beside its evidence.
      expect(cells?.[4]).toMatch(
        /^✅ PASS, exit 0 by `playbook-reprove`(?:$|; confirmed by `user` at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$)/,
      );
      expect(cells?.[5]).toBe(short(record.detail["outputDigest"]));
      expect(cells?.[6]).toBe(short(record.detail["tree"]));
      expect(cells?.[7]).toBe(minute(record.at));
    }
    const review = records.find((r) => r.kind === "review");
    expect(body).toContain(
      `✅ The reviewer (\`reviewer\`) approved plan ${short(review?.contentHash)} at ${minute(review?.at ?? "")}: the plan as it is now.`,
    );
    for (const critic of records.filter((r) => r.kind === "critic"))
      expect(body).toContain(
        `Critic: ✅ PASS by \`critic\` at ${minute(critic.at)}: ran the tests`,
      );
  });
});

describe("a resumed archive", () => {
  /** The archive in this process, with Octokit's retries off. */
  async function archiveIn(
    repo: GuardedRepo,
    server: GitHubServer,
    options: Partial<ArchiveOptions> = {},
  ) {
    const deps = createArchiveDeps(repo.dir, {
      ...envFor(server),
      PATH: process.env["PATH"],
    });
    return runArchive(
      repo.dir,
      {
        dryRun: false,
        resume: false,
        provider: null,
        session: "session-1",
        ...options,
      },
      {
        ...deps,
        pollIntervalMs: 10,
        createGitHub: (o) =>
          createGitHubPort({ ...o, retries: 0, throttle: false }),
      },
    );
  }

  it("brings the open pull request's body up to date with the records (PATCH, checked against GitHub's description)", async () => {
    const repo = createFinishedRepo({
      files: {
        ".claude/playbook.json": JSON.stringify({
          archive: { repository: "acme/app", checkWaitSeconds: 0 },
        }),
      },
    });
    const server = await startServer(repo.remoteDir);
    await expect(
      archiveIn(repo, server, {
        onProgress: (report) => {
          if (report.id === "open-pr") throw new Error("killed after open-pr");
        },
      }),
    ).rejects.toThrow("killed after open-pr");
    expect(await bodyOf(server, 1)).toContain(": ran the tests");

    // The critic looked again before the resume.
    repo.record({
      kind: "critic",
      playbook: PLAYBOOK,
      target: "p1",
      verdict: "PASS",
      by: "critic",
      detail: { evidence: "looked again | all green" },
    });
    const resumed = await archiveIn(repo, server, { resume: true });
    expect(resumed.status, resumed.next ?? "").toBe("success");
    expect(resumed.steps[2]).toMatchObject({
      id: "open-pr",
      status: "done",
      detail:
        "#1 already open, its body updated (https://github.com/acme/app/pull/1)",
    });
    const patched = server.requests.filter(
      (r) => r.method === "PATCH" && r.path === "/repos/acme/app/pulls/1",
    );
    expect(patched.map((r) => r.status)).toEqual([200]);
    const body = await bodyOf(server, 1);
    expect(body).toContain(": looked again \\| all green");
    expect(
      server.requests.filter((r) => r.method === "POST" && r.status === 201),
    ).toHaveLength(1);
  });
});
