import { describe, expect, it } from "vitest";
import { writeGrant } from "../../src/adapters/grant-store.ts";
import { readRecords, writeRecord } from "../../src/adapters/record-store.ts";
import { createRecordDeps } from "../../src/app/deps.ts";
import type { RecordDeps } from "../../src/app/records/record-deps.ts";
import { runConfirm, type ConfirmDeps } from "../../src/app/records/confirm.ts";
import { runReview } from "../../src/app/records/review.ts";
import {
  runVerify,
  type CommandRun,
  type VerifyDeps,
} from "../../src/app/records/verify.ts";
import { summarizePlaybook } from "../../src/core/cache/summary.ts";
import { PlaybookError } from "../../src/core/errors.ts";
import { parsePlaybook } from "../../src/core/parse/parse-playbook.ts";
import {
  reviewHash,
  subtaskHash,
} from "../../src/core/records/content-hash.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../helpers/sample-docs.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-login-form.md";
const NOW = new Date("2026-11-21T10:00:00.000Z");

function project(): TempProject {
  return createTempProject({
    "state.md": SAMPLE_STATE,
    [PLAYBOOK]: SAMPLE_PLAYBOOK,
  });
}

/** The reviewer's approval of the plan as it is: `verify` proves nothing in a plan without one. */
function approve(p: TempProject): TempProject {
  const parsed = parsePlaybook(p.read(PLAYBOOK), PLAYBOOK);
  writeRecord(p.dir, {
    kind: "review",
    playbook: PLAYBOOK,
    target: "playbook",
    contentHash: reviewHash(summarizePlaybook(parsed.value, [])),
    verdict: "approve",
    by: "reviewer",
    at: NOW.toISOString(),
    detail: {},
  });
  return p;
}

function hashOf(p: TempProject, id: string): string | null {
  const parsed = parsePlaybook(p.read(PLAYBOOK), PLAYBOOK);
  return subtaskHash(summarizePlaybook(parsed.value, []), id);
}

function confirmDeps(
  answer: string,
  person = true,
): ConfirmDeps & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    prompts,
    now: () => NOW,
    isPersonAtTerminal: () => person,
    ask: (prompt) => {
      prompts.push(prompt);
      return Promise.resolve(answer);
    },
  };
}

function fakeRun(exitCode: number): CommandRun {
  return {
    exitCode,
    signal: null,
    timedOut: false,
    durationMs: 5,
    outputDigest: "sha256:00",
    outputTail: [],
    error: null,
  };
}

async function denial(promise: Promise<unknown>): Promise<PlaybookError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlaybookError);
  return error as PlaybookError;
}

describe("runConfirm", () => {
  it("shows the criterion and the manual checks, then records the person's confirmation", async () => {
    const p = project();
    const deps = confirmDeps("  p1.2 ");

    const report = await runConfirm(p.dir, { subtask: "p1.2" }, deps);

    expect(deps.prompts[0]).toContain(
      'p1.2: `LoginForm` shows "Email is required" when the email is empty',
    );
    expect(deps.prompts[0]).toContain(
      "completeness (hybrid): npx playwright test login + the message is red",
    );
    expect(deps.prompts[0]).toContain("Type the subtask id to confirm (p1.2)");
    expect(report.record).toEqual({
      kind: "confirmation",
      playbook: PLAYBOOK,
      target: "p1.2",
      contentHash: hashOf(p, "p1.2"),
      verdict: "PASS",
      by: "user",
      at: NOW.toISOString(),
      // The plan it was made under; no tree outside a git repository.
      detail: {
        validations: ["completeness"],
        plan: summarizePlaybook(
          parsePlaybook(p.read(PLAYBOOK), PLAYBOOK).value,
          [],
        ).hashes.review,
        tree: null,
      },
    });
    // A hybrid validation without passing evidence of its command is not PASS yet.
    expect(p.read(PLAYBOOK)).toBe(SAMPLE_PLAYBOOK);
  });

  it("marks a hybrid validation PASS when its command's evidence passed", async () => {
    const p = project();
    writeRecord(p.dir, {
      kind: "evidence",
      playbook: PLAYBOOK,
      target: "p1.2",
      validation: "completeness",
      contentHash: hashOf(p, "p1.2") ?? "",
      verdict: "PASS",
      by: "playbook-verify",
      at: NOW.toISOString(),
      detail: {},
    });

    await runConfirm(p.dir, { subtask: "p1.2" }, confirmDeps("p1.2"));

    expect(p.read(PLAYBOOK)).toContain(
      'completeness: "PASS - hybrid - npx playwright test login',
    );
  });

  it.each([
    [
      "no terminal",
      confirmDeps("p1.1", false),
      "E_DENIED",
      /is for a person: run it yourself in a terminal/,
    ],
    [
      "another id typed",
      confirmDeps("p1.2"),
      "E_DENIED",
      /You typed `p1.2`, not `p1.1`/,
    ],
    ["nothing typed", confirmDeps(""), "E_DENIED", /No id typed/],
  ])(
    "refuses with %s and records nothing",
    async (_name, deps, code, message) => {
      const p = project();
      const error = await denial(runConfirm(p.dir, { subtask: "p1.1" }, deps));
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
      expect(readRecords(p.dir, PLAYBOOK)).toEqual([]);
      expect(p.read(PLAYBOOK)).toBe(SAMPLE_PLAYBOOK);
    },
  );

  it("does not ask when the subtask has nothing manual", async () => {
    const p = createTempProject({
      "state.md": SAMPLE_STATE,
      [PLAYBOOK]: SAMPLE_PLAYBOOK.replace(
        "completeness: manual - the error states match docs/design.png",
        'completeness: "automated - npm test"',
      ),
    });
    const deps = confirmDeps("p1.1");
    const error = await denial(runConfirm(p.dir, { subtask: "p1.1" }, deps));
    expect(error.code).toBe("E_CONFIG");
    expect(deps.prompts).toEqual([]);
  });
});

/** Commands run as given (the fake `run` stands in for them), in a project outside git. */
const UNSANDBOXED: Omit<VerifyDeps, "run"> = {
  now: () => NOW,
  isolate: () =>
    Promise.resolve({ sandboxed: false, why: "a test", next: "nothing" }),
  readTree: () => ({ fingerprint: null, entries: new Map() }),
  securityMode: () => "trusted",
};

describe("runVerify", () => {
  it("runs automated and hybrid commands, and leaves a passing hybrid open until a person confirms", async () => {
    const p = approve(project());
    const commands: string[] = [];

    const report = await runVerify(
      p.dir,
      { subtask: "p1.2", timeoutMs: 1000 },
      {
        ...UNSANDBOXED,
        run: (command) => {
          commands.push(command);
          return Promise.resolve(fakeRun(0));
        },
      },
    );

    expect(commands).toEqual([
      "npx vitest run test/login-form.test.ts -t required",
      "npx tsc --noEmit",
      "npx playwright test login",
    ]);
    expect(report.manual).toEqual(["completeness"]);
    expect(
      readRecords(p.dir, PLAYBOOK)
        .filter((r) => r.kind === "evidence")
        .map((r) => `${r.validation}:${r.verdict}`),
    ).toEqual(["completeness:PASS", "consistency:PASS", "technical:PASS"]);
    const text = p.read(PLAYBOOK);
    expect(text).toContain(
      'technical: "PASS - automated - npx vitest run test/login-form.test.ts -t required"',
    );
    expect(text).toContain(
      'completeness: "hybrid - npx playwright test login + the message is red"',
    );
  });

  it("runs nothing and records nothing in a plan the reviewer has not approved as it is now", async () => {
    const p = approve(project());
    p.write(
      PLAYBOOK,
      p
        .read(PLAYBOOK)
        .replace(
          '"automated - npx vitest run test/login-form.test.ts -t required"',
          '"automated - true"',
        ),
    );
    const commands: string[] = [];
    const run = runVerify(
      p.dir,
      { subtask: "p1.2", timeoutMs: 1000 },
      {
        ...UNSANDBOXED,
        run: (command) => {
          commands.push(command);
          return Promise.resolve(fakeRun(0));
        },
      },
    );
    await expect(run).rejects.toThrow(
      "verify proves only the plan as the reviewer approved it, and in plan/playbook-login-form.md the plan changed after the reviewer approved it. Nothing was run or recorded.",
    );
    expect(commands).toEqual([]);
    expect(
      readRecords(p.dir, PLAYBOOK).filter((r) => r.kind === "evidence"),
    ).toEqual([]);
    expect(p.read(PLAYBOOK)).not.toContain("PASS");
  });
});

describe("the validated stamp", () => {
  it("is written once all three validations read PASS: the person's check, then the commands", async () => {
    const p = approve(project());
    await runConfirm(p.dir, { subtask: "p1.1" }, confirmDeps("p1.1"));
    expect(p.read(PLAYBOOK)).not.toContain("validated:");

    await runVerify(
      p.dir,
      { subtask: "p1.1", timeoutMs: 1000 },
      { ...UNSANDBOXED, run: () => Promise.resolve(fakeRun(0)) },
    );

    const text = p.read(PLAYBOOK);
    expect(text).toContain(
      "completeness: PASS - manual - the error states match docs/design.png",
    );
    expect(text).toContain(`validated: ${NOW.toISOString()}`);
  });

  it("is not written while a validation fails", async () => {
    const p = approve(project());
    await runConfirm(p.dir, { subtask: "p1.1" }, confirmDeps("p1.1"));
    await runVerify(
      p.dir,
      { subtask: "p1.1", timeoutMs: 1000 },
      { ...UNSANDBOXED, run: () => Promise.resolve(fakeRun(1)) },
    );
    expect(p.read(PLAYBOOK)).not.toContain("validated:");
  });
});

describe("runReview", () => {
  function deps(person: boolean): RecordDeps {
    const real = createRecordDeps("/nonexistent");
    return { ...real, now: () => NOW, isPersonAtTerminal: () => person };
  }

  it("records a person at a terminal as the user, without using a grant", () => {
    const p = project();
    writeGrant(p.dir, {
      kind: "review",
      agentType: "reviewer",
      sessionId: null,
      command: "x",
      at: new Date().toISOString(),
    });

    const outcome = runReview(
      p.dir,
      { action: "approve" },
      {
        ...deps(true),
        takeGrant: () => {
          throw new Error("no grant needed");
        },
      },
    );

    expect(outcome).toMatchObject({
      status: "recorded",
      record: { by: "user", verdict: "approve" },
    });
  });

  it("refuses another caller before reading anything", () => {
    const error = (() => {
      try {
        runReview(
          "/nonexistent",
          { action: "reject" },
          { ...deps(false), takeGrant: () => null },
        );
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(PlaybookError);
    expect((error as PlaybookError).code).toBe("E_DENIED");
  });
});
