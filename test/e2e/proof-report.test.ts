import { describe, expect, it } from "vitest";
import {
  createGuardedRepo,
  PLAYBOOK,
  runByPlaybook,
} from "../helpers/guarded-repo.ts";
import { runCli } from "../helpers/run-cli.ts";

/** The rows of the page for one subtask's validation: its status word and the text of its result cell. */
function row(html: string, subtask: string, validation: string) {
  const tr = new RegExp(
    `<tr data-subtask="${subtask.replace(".", "\\.")}" data-validation="${validation}" data-status="([a-z]+)"[^>]*>([\\s\\S]*?)</tr>`,
  ).exec(html);
  if (tr === null) throw new Error(`no row for ${subtask} ${validation}`);
  const result = /<td class="result">([^<]*)<\/td>/.exec(tr[2] ?? "")?.[1];
  return { status: tr[1], result };
}

describe("playbook report --html", () => {
  it("shows each claim beside its proof, and marks proof stale once the code it proved changes", () => {
    const repo = createGuardedRepo();
    repo.record({
      kind: "evidence",
      playbook: PLAYBOOK,
      target: "p1.1",
      validation: "technical",
      verdict: "PASS",
      detail: {
        command: "npx vitest run test/login-form.test.ts",
        exitCode: 0,
        outputDigest: "sha256:aaaabbbbccccdddd",
      },
    });
    const report = () => {
      const result = runCli(
        ["report", "--html", "proof.html", "--cwd", repo.dir],
        {
          cwd: repo.dir,
        },
      );
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      return repo.read("proof.html");
    };
    const first = report();
    expect(first).toMatch(/^<!doctype html>/);
    expect(first).not.toMatch(/<script|https?:\/\//);
    expect(row(first, "p1.1", "technical")).toEqual({
      status: "proven",
      result: "proven",
    });
    expect(first).toContain("<code>aaaabbbbcccc</code>");
    expect(row(first, "p1.1", "consistency").status).toBe("none");
    expect(first).toContain('data-approval="approved"');
    // p1.2 is checked in the sample with no evidence: the claim outruns its proof, and the page says so.
    expect(first).toMatch(
      /<td class="claim unbacked"[^>]*data-unbacked[^>]*>☑ <small>claimed, not proven<\/small><\/td><td class="subtask"[^>]*><b>p1\.2<\/b>/,
    );
    expect(first).not.toMatch(
      /data-unbacked[^>]*>[^<]*<small>[^<]*<\/small><\/td><td class="subtask"[^>]*><b>p1\.1</,
    );

    // The code the evidence proved changes: the same record is stale now, and says why.
    repo.write("src/login-form.tsx", "export const LoginForm = () => null;\n");
    const after = report();
    expect(row(after, "p1.1", "technical")).toEqual({
      status: "code",
      result: "stale: the code changed since",
    });
  });

  it("escapes what the agent wrote: a criterion cannot put markup on the page", () => {
    const repo = createGuardedRepo();
    const text = repo
      .read(PLAYBOOK)
      .replace(
        "`src/login-form.tsx` exports `LoginForm`",
        "<img src=x onerror=alert(1)> exports LoginForm",
      );
    repo.write(PLAYBOOK, text);
    const result = runCli(["report", "--html", "p.html", "--cwd", repo.dir], {
      cwd: repo.dir,
    });
    expect(result.status).toBe(0);
    const html = repo.read("p.html");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  it("needs --html, and says how to write it", () => {
    const repo = createGuardedRepo();
    const result = runCli(["report", "--cwd", repo.dir], { cwd: repo.dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("playbook report --html proof.html");
  });

  it("sets the plan as the reviewer approved it against the plan now: what changed is what made proof stale", () => {
    const repo = createGuardedRepo({ reviewRecord: false, reviewed: false });
    // The reviewer subagent approves: the hook runs the review as its own job, which keeps the plan's outline.
    const approve = runByPlaybook(
      repo.bash("playbook review approve", {
        agent_type: "reviewer",
        agent_id: "a1f3c9",
      }),
    );
    expect(approve.status).toBe(0);
    const page = () => {
      expect(
        runCli(["report", "--html", "p.html", "--cwd", repo.dir], {
          cwd: repo.dir,
        }).status,
      ).toBe(0);
      return repo.read("p.html");
    };
    expect(page()).toContain('data-changes="0"');
    repo.write(
      PLAYBOOK,
      repo
        .read(PLAYBOOK)
        .replace('npx vitest run test/login-form.test.ts"', 'true"'),
    );
    const after = page();
    expect(after).toContain('data-changes="1"');
    expect(after).toMatch(
      /<tr data-change="p1\.1"><td>p1\.1<\/td><td>validation technical<\/td><td class="before">automated - npx vitest run test\/login-form\.test\.ts<\/td><td class="after">automated - true<\/td><\/tr>/,
    );
    expect(after).toContain('data-approval="stale"');
  });

  it("lists what the hook refused lately, and why, newest first", () => {
    const repo = createGuardedRepo();
    repo.write(".claude/playbook.json", "{}\n");
    const refused = repo.pre("Write", {
      file_path: repo.path(".claude/playbook.json"),
      content: '{ "security": "developer" }\n',
    });
    expect(refused.decision).toBe("deny");
    expect(
      runCli(["report", "--html", "p.html", "--cwd", repo.dir], {
        cwd: repo.dir,
      }).status,
    ).toBe(0);
    const html = repo.read("p.html");
    expect(html).toContain('data-blocks="1"');
    const row =
      /<tr data-block="[^"]+"><td>[^<]+<\/td><td>Write<\/td><td>[^<]+<\/td><td>([^<]+)<\/td><\/tr>/.exec(
        html,
      );
    expect(row?.[1]).toContain(".claude/playbook.json");
  });
});
