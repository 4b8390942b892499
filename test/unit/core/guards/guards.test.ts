import { describe, expect, it } from "vitest";
import { bashCheckGuard } from "../../../../src/core/guards/bash-check.ts";
import { coherenceGuard } from "../../../../src/core/guards/coherence.ts";
import { criticGuard } from "../../../../src/core/guards/critic.ts";
import { dependsGuard } from "../../../../src/core/guards/depends.ts";
import { GUARDS } from "../../../../src/core/guards/evaluate.ts";
import { executorGuard } from "../../../../src/core/guards/executor.ts";
import { initGuard } from "../../../../src/core/guards/init.ts";
import { mainBranchGuard } from "../../../../src/core/guards/main-branch.ts";
import { pendingGuard } from "../../../../src/core/guards/pending.ts";
import { playbookGuard } from "../../../../src/core/guards/playbook.ts";
import {
  parseProtectedRules,
  BUILT_IN_RULES,
} from "../../../../src/core/guards/protected-rules.ts";
import { protectedGuard } from "../../../../src/core/guards/protected.ts";
import { scopeGuard } from "../../../../src/core/guards/scope.ts";
import { subtaskGuard } from "../../../../src/core/guards/subtask.ts";
import type {
  FileChange,
  Guard,
  GuardContext,
} from "../../../../src/core/guards/types.ts";
import { createRecordSet } from "../../../../src/core/records/record-set.ts";
import {
  bashChanges,
  approvedRecords,
  BOOK,
  fileChange,
  guardContext,
  playbookEdit,
  playbookOf,
  recordFor,
  REVIEWED,
  stateOf,
} from "../../../helpers/guard-context.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../../../helpers/sample-docs.ts";

type Case = [
  name: string,
  overrides: () => Partial<GuardContext>,
  expected: "allow" | "block" | "context",
  /** For a block: words its reason must say, so a block for the wrong reason fails. */
  says?: string,
];

function verdictOf(guard: Guard, overrides: Partial<GuardContext>) {
  return guard.check(guardContext(overrides)).decision;
}

function table(guard: Guard, cases: Case[]) {
  describe(`${guard.number}. ${guard.id}`, () => {
    it.each(
      cases.map(
        ([name, overrides, expected, says]) =>
          [`${name} → ${expected}`, overrides, expected, says] as const,
      ),
    )("%s", (_name, overrides, expected, says) => {
      const decision = verdictOf(guard, overrides());
      expect(decision.kind).toBe(expected);
      if (decision.kind === "block") {
        expect(says, "a block case names what its reason says").toBeDefined();
        expect(decision.reason).toContain(says);
        expect(decision.reason).toMatch(/Next: /);
        expect(decision.reason).toContain("PLAYBOOK_DISABLE=1");
      }
    });
  });
}

const src = () => [fileChange("src/a.ts")];
const lock = {
  status: "success",
  playbook: "plan/archive/playbook-a.md",
  pr: "#3",
  at: null,
  session: "x",
};
const tick = (text: string, id: string) =>
  text.replace(`- [ ] **${id}**`, `- [x] **${id}**`);
const unticked = REVIEWED.replace("- [X] **p1.2**", "- [ ] **p1.2**");

it("runs the twelve guards of docs/guards.md in their order", () => {
  expect(GUARDS.map((g) => `${g.number}:${g.id}`)).toEqual([
    "1:pending",
    "2:protected",
    "3:main-branch",
    "4:playbook",
    "5:depends",
    "6:executor",
    "7:subtask",
    "8:critic",
    "9:scope",
    "10:bash-check",
    "11:coherence",
    "12:init",
  ]);
});

table(pendingGuard, [
  ["no lock", () => ({ changes: src() }), "allow"],
  [
    "lock, source edit",
    () => ({ lock, changes: src() }),
    "block",
    "the post-loop lock is set because",
  ],
  [
    "lock, state.md edit",
    () => ({ lock, changes: [fileChange("state.md")] }),
    "allow",
  ],
  [
    "lock, plan/** edit",
    () => ({ lock, changes: [fileChange("plan/playbook-next.md")] }),
    "allow",
  ],
  ["lock, read-only call", () => ({ lock }), "allow"],
  [
    "lock, developer mode",
    () => ({ lock, changes: src(), security: "developer" }),
    "allow",
  ],
]);

const listed = parseProtectedRules(
  "HARD_BLOCK .env\nBLOCK package.json\nWARN README.md\nBLOCK state.md\n",
  ".claude/protected-files.txt",
).rules;
const rules = [...BUILT_IN_RULES, ...listed];

describe("protected: playbook's own files", () => {
  it("a write under .claude/playbook/ names the commands that write there instead", () => {
    const decision = verdictOf(protectedGuard, {
      protectedRules: rules,
      changes: [
        fileChange(
          ".claude/playbook/records/plan__playbook-x.md/evidence.p1.1.technical.json",
        ),
      ],
    });
    expect(decision.kind).toBe("block");
    const reason = decision.kind === "block" ? decision.reason : "";
    expect(reason).toContain("playbook verify");
    expect(reason).toContain("playbook post-loop");
  });
});
const outside = (absolute: string, tool: FileChange["tool"] = "Write") =>
  fileChange("", { path: null, absolute, raw: absolute, tool, op: "write" });
table(protectedGuard, [
  ["unlisted file", () => ({ protectedRules: rules, changes: src() }), "allow"],
  [
    "the user's Claude Code settings through the Write tool, in developer mode",
    () => ({
      security: "developer",
      changes: [outside("/home/u/.claude/settings.json")],
    }),
    "block",
    "`/home/u/.claude/settings.json` is Claude Code's own configuration",
  ],
  [
    "Claude Code's global state (user-scope MCP servers)",
    () => ({ changes: [outside("/home/u/.claude.json")] }),
    "block",
    "Next: ask the user to make this change themselves.",
  ],
  [
    "a plugin's hooks under the user's Claude Code folder, from the shell",
    () => ({
      changes: [outside("/home/u/.claude/plugins/x/hooks/hooks.json", "Bash")],
    }),
    "block",
    "decides whether playbook's hooks and sandbox run",
  ],
  [
    "the managed settings",
    () => ({ changes: [outside("/etc/claude-code/managed-settings.json")] }),
    "block",
    "`/etc/claude-code/managed-settings.json` is Claude Code's own configuration",
  ],
  [
    "a file beside them that is not theirs (~/.claude-notes.txt): outside the project and the temporary folders",
    () => ({ changes: [outside("/home/u/.claude-notes.txt")] }),
    "block",
    "outside the project and the temporary folders",
  ],
  [
    "the user's git configuration (~/.gitconfig)",
    () => ({ security: "developer", changes: [outside("/home/u/.gitconfig")] }),
    "block",
    "`/home/u/.gitconfig` is outside the project",
  ],
  [
    "a folder on PATH (~/.local/bin/git), with the Edit tool",
    () => ({
      security: "admin",
      changes: [outside("/home/u/.local/bin/git", "Edit")],
    }),
    "block",
    "programs that run outside the sandbox",
  ],
  [
    "a file in a temporary folder",
    () => ({ changes: [outside("/tmp/notes.txt")] }),
    "allow",
  ],
  [
    "the user's folder, where it lies inside a temporary folder",
    () => ({
      homeDir: "/tmp/home",
      changes: [outside("/tmp/home/.gitconfig")],
    }),
    "block",
    "outside the project and the temporary folders",
  ],
  [
    "a temporary folder inside the user's folder",
    () => ({
      homeDir: "/home/u",
      tempDirs: ["/tmp", "/home/u/tmp"],
      changes: [outside("/home/u/tmp/x.txt")],
    }),
    "allow",
  ],
  [
    "a folder the sandbox lets the shell write (sandbox.filesystem.allowWrite)",
    () => ({
      sandboxAllowWrite: ["/srv/shared"],
      changes: [outside("/srv/shared/out.txt")],
    }),
    "allow",
  ],
  [
    "a folder whose name starts like an allowed one",
    () => ({
      sandboxAllowWrite: ["/srv/shared"],
      changes: [outside("/srv/shared-other/out.txt")],
    }),
    "block",
    "outside the project",
  ],
  [
    "an MCP tool naming the user's settings",
    () => ({
      toolName: "mcp__files__write_file",
      unknownToolOutsidePaths: ["/home/u/.claude/settings.local.json"],
    }),
    "block",
    "`/home/u/.claude/settings.local.json` is Claude Code's own configuration",
  ],
  [
    "the project's .mcp.json, in strict mode",
    () => ({ changes: [fileChange(".mcp.json")] }),
    "block",
    "`.mcp.json` is listed as BLOCK (built-in, pattern `.mcp.json`)",
  ],
  [
    "HARD_BLOCK in developer mode",
    () => ({
      protectedRules: rules,
      security: "developer",
      changes: [fileChange(".env")],
    }),
    "block",
    "`.env` is listed as HARD_BLOCK (.claude/protected-files.txt:1, pattern `.env`)",
  ],
  [
    "BLOCK in strict",
    () => ({ protectedRules: rules, changes: [fileChange("package.json")] }),
    "block",
    "`package.json` is listed as BLOCK (.claude/protected-files.txt:2, pattern `package.json`);",
  ],
  [
    "BLOCK in trusted",
    () => ({
      protectedRules: rules,
      security: "trusted",
      changes: [fileChange("package.json")],
    }),
    "allow",
  ],
  [
    "BLOCK in admin",
    () => ({
      protectedRules: rules,
      security: "admin",
      changes: [fileChange("package.json")],
    }),
    "allow",
  ],
  [
    "WARN",
    () => ({ protectedRules: rules, changes: [fileChange("README.md")] }),
    "context",
  ],
  [
    "WARN in developer mode",
    () => ({
      protectedRules: rules,
      security: "developer",
      changes: [fileChange("README.md")],
    }),
    "allow",
  ],
  [
    "state.md listed as BLOCK (repair path wins)",
    () => ({ protectedRules: rules, changes: [fileChange("state.md")] }),
    "allow",
  ],
  [
    "records folder",
    () => ({ changes: [fileChange(".claude/playbook/records/a.json")] }),
    "block",
    "`.claude/playbook/records/a.json` is listed as HARD_BLOCK (built-in, pattern `.claude/playbook/**`):",
  ],
  [
    "the security mode's file, in developer mode",
    () => ({
      security: "developer",
      changes: [fileChange(".claude/playbook.json")],
    }),
    "block",
    "`.claude/playbook.json` is listed as HARD_BLOCK (built-in, pattern `.claude/playbook.json`)",
  ],
  [
    "the installed package, in developer mode",
    () => ({
      security: "developer",
      changes: [fileChange("node_modules/playbook-kit/dist/hook.cjs")],
    }),
    "block",
    "`node_modules/playbook-kit/dist/hook",
  ],
  [
    "the hook loader",
    () => ({ changes: [fileChange(".claude/hooks/playbook.cjs")] }),
    "block",
    "`.claude/hooks/playbook.cjs` is listed as HARD_BLOCK (built-in, pattern `.claude/hooks/playbook.cjs`)",
  ],
  [
    "state.md naming a mode: only a document now",
    () => ({ changes: [fileChange("state.md")] }),
    "allow",
  ],
]);

table(mainBranchGuard, [
  ["feature branch", () => ({ changes: src() }), "allow"],
  [
    "default branch, source edit",
    () => ({
      git: { branch: "main", defaultBranch: "main", dirtyTracked: null },
      changes: src(),
    }),
    "block",
    "you are on the default branch",
  ],
  [
    "master without origin/HEAD",
    () => ({
      git: { branch: "master", defaultBranch: null, dirtyTracked: null },
      changes: src(),
    }),
    "block",
    "you are on the default branch",
  ],
  [
    "default branch, state.md",
    () => ({
      git: { branch: "main", defaultBranch: "main", dirtyTracked: null },
      changes: [fileChange("state.md")],
    }),
    "allow",
  ],
  [
    "detached HEAD",
    () => ({
      git: { branch: null, defaultBranch: "main", dirtyTracked: null },
      changes: src(),
    }),
    "allow",
  ],
  [
    "default branch in developer mode",
    () => ({
      git: { branch: "main", defaultBranch: "main", dirtyTracked: null },
      security: "developer",
      changes: src(),
    }),
    "allow",
  ],
]);

const fresh = playbookOf(SAMPLE_PLAYBOOK);
table(playbookGuard, [
  ["reviewed and recorded", () => ({ changes: src() }), "allow"],
  [
    "no state.md",
    () => ({
      state: null,
      stateProblem: "state.md is missing.",
      changes: src(),
    }),
    "block",
    "state.md is missing.",
  ],
  [
    "no active playbook",
    () => ({
      active: null,
      state: stateOf(SAMPLE_STATE.replace(`active: ${BOOK}`, "active: null")),
      changes: src(),
    }),
    "block",
    "no playbook is active, and work",
  ],
  [
    "no active playbook, the archive stopped on this branch (fixing failed checks)",
    () => ({
      active: null,
      state: stateOf(SAMPLE_STATE.replace(`active: ${BOOK}`, "active: null")),
      unfinishedArchive: { branch: "feat/login-form", playbook: BOOK },
      changes: src(),
    }),
    "context",
  ],
  [
    "no active playbook, the stopped archive is another branch's",
    () => ({
      active: null,
      state: stateOf(SAMPLE_STATE.replace(`active: ${BOOK}`, "active: null")),
      unfinishedArchive: { branch: "feat/other", playbook: BOOK },
      changes: src(),
    }),
    "block",
    "no playbook is active, and work",
  ],
  [
    "active file missing",
    () => ({
      active: null,
      activeProblem: "`plan/x.md` (active in state.md) does not exist.",
      changes: src(),
    }),
    "block",
    "`plan/x.md` (active in state.md) does not exist.",
  ],
  [
    "not reviewed",
    () => ({ active: { path: BOOK, summary: fresh }, changes: src() }),
    "block",
    "`plan/playbook-login-form",
  ],
  [
    "reviewed without a record",
    () => ({ records: createRecordSet([]), changes: src() }),
    "block",
    "`reviewed: true` in `plan/playbook-login-form",
  ],
  [
    "reviewed, the review rejected it",
    () => ({
      records: createRecordSet([
        recordFor(playbookOf(REVIEWED), {
          kind: "review",
          target: "playbook",
          verdict: "reject",
        }),
      ]),
      changes: src(),
    }),
    "block",
    "`reviewed: true` in `plan/playbook-login-form",
  ],
  [
    "no ## context",
    () => {
      const s = playbookOf(REVIEWED.replace(/## context\n.*\n/, ""));
      return {
        active: { path: BOOK, summary: s },
        records: createRecordSet([
          recordFor(s, {
            kind: "review",
            target: "playbook",
            verdict: "approve",
          }),
        ]),
        changes: src(),
      };
    },
    "block",
    "`plan/playbook-login-form",
  ],
  [
    "no playbook, but only plan/** changes",
    () => ({ active: null, changes: [fileChange("plan/playbook-new.md")] }),
    "allow",
  ],
  [
    "`reviewed: true` typed by hand",
    () => ({
      records: createRecordSet([]),
      changes: [playbookEdit(SAMPLE_PLAYBOOK, REVIEWED)],
    }),
    "block",
    "this edit sets `reviewed: true` in",
  ],
  [
    "`reviewed: true` in developer mode (records hold in every mode)",
    () => ({
      security: "developer",
      records: createRecordSet([]),
      changes: [playbookEdit(SAMPLE_PLAYBOOK, REVIEWED)],
    }),
    "block",
    "this edit sets `reviewed: true` in",
  ],
]);

const phase2 = () => ({
  state: stateOf(SAMPLE_STATE.replace("phase: p1", "phase: p2")),
});
table(dependsGuard, [
  ["phase without dependencies", () => ({ changes: src() }), "allow"],
  [
    "p2 while p1 is open",
    () => ({ ...phase2(), changes: src() }),
    "block",
    "phase p2 depends on p1, which",
  ],
  [
    "p2 while p1 is open, plan edit",
    () => ({ ...phase2(), changes: [fileChange("plan/notes.md")] }),
    "allow",
  ],
  [
    "p2 once p1 is done",
    () => {
      const s = playbookOf(
        REVIEWED.replace("**status**: in_progress", "**status**: done"),
      );
      return {
        ...phase2(),
        active: { path: BOOK, summary: s },
        changes: src(),
      };
    },
    "allow",
  ],
  [
    "p2 while p1 is open, developer mode",
    () => ({ ...phase2(), security: "developer", changes: src() }),
    "allow",
  ],
]);

const executorBook = (executor: string) =>
  playbookOf(
    REVIEWED.replace(
      "  - executor: claudecode",
      `  - executor: ${executor}`,
    ).replace("- [X] **p1.2**", `- [X] **p1.2**`),
  );
table(executorGuard, [
  ["claudecode", () => ({ changes: src() }), "allow"],
  [
    "user's subtasks",
    () => ({
      active: { path: BOOK, summary: executorBook("user") },
      changes: src(),
    }),
    "block",
    "the open subtasks of phase p1",
  ],
  [
    "codex's subtasks",
    () => ({
      active: { path: BOOK, summary: executorBook("codex") },
      changes: src(),
    }),
    "context",
  ],
  [
    "codex's subtasks, written by codex-delegate",
    () => ({
      agentType: "codex-delegate",
      active: { path: BOOK, summary: executorBook("codex") },
      changes: src(),
    }),
    "allow",
  ],
  [
    "user's subtasks, a markdown file",
    () => ({
      active: { path: BOOK, summary: executorBook("user") },
      changes: [fileChange("docs/notes.md")],
    }),
    "allow",
  ],
  [
    "the human role resolves to user",
    () => ({
      active: { path: BOOK, summary: executorBook("human") },
      changes: src(),
    }),
    "block",
    "the open subtasks of phase p1",
  ],
]);

const proofs = (book: string) => {
  const s = playbookOf(book);
  return [
    recordFor(s, {
      kind: "evidence",
      target: "p1.1",
      validation: "technical",
      verdict: "PASS",
    }),
    recordFor(s, {
      kind: "evidence",
      target: "p1.1",
      validation: "consistency",
      verdict: "PASS",
    }),
    recordFor(s, { kind: "confirmation", target: "p1.1", verdict: "PASS" }),
  ];
};
describe("subtask: the next step names only the proof that is missing", () => {
  const reasonOf = (overrides: Partial<GuardContext>) => {
    const decision = verdictOf(subtaskGuard, overrides);
    return decision.kind === "block" ? decision.reason : "";
  };
  it("evidence recorded, confirmation missing: only `playbook confirm`", () => {
    const reason = reasonOf({
      records: approvedRecords(proofs(tick(REVIEWED, "p1.1")).slice(0, 2)),
      changes: [playbookEdit(REVIEWED, tick(REVIEWED, "p1.1"))],
    });
    expect(reason).toContain("the user runs `playbook confirm p1.1`");
    expect(reason).not.toContain("playbook verify");
  });
  it("an all-automated subtask: only `playbook verify`, no confirmation", () => {
    const automated = REVIEWED.replace(
      "completeness: manual - the error states match docs/design.png",
      'completeness: "automated - npm test"',
    );
    const reason = reasonOf({
      changes: [playbookEdit(automated, tick(automated, "p1.1"))],
    });
    expect(reason).toContain("run `playbook verify p1.1`");
    expect(reason).not.toContain("playbook confirm");
  });
});

describe("subtask and critic: evidence proves the tree git reads now, and nothing while git cannot read it", () => {
  const words =
    "git ls-files: fatal: not a git repository (or any of the parent directories): .git";
  const reasonOf = (guard: Guard, overrides: Partial<GuardContext>) => {
    const decision = verdictOf(guard, overrides);
    return decision.kind === "block" ? decision.reason : decision.kind;
  };
  const proved = (book: string, tree: string | undefined) =>
    approvedRecords(
      proofs(book).map((r) =>
        r.kind === "evidence" && tree !== undefined
          ? { ...r, detail: { tree } }
          : r,
      ),
    );
  const ticked = tick(REVIEWED, "p1.1");

  it("a tick with every proof of the tree as it is now goes through", () => {
    expect(
      reasonOf(subtaskGuard, {
        records: proved(ticked, "sha256:now"),
        changes: [playbookEdit(REVIEWED, ticked)],
        tree: "sha256:now",
      }),
    ).toBe("allow");
  });

  it("the same tick while git cannot read the tree is refused with git's words and the next step", () => {
    const reason = reasonOf(subtaskGuard, {
      records: proved(ticked, "sha256:now"),
      changes: [playbookEdit(REVIEWED, ticked)],
      tree: { unreadable: words },
    });
    expect(reason).toContain("checking p1.1");
    expect(reason).toContain("git could not read the working tree");
    expect(reason).toContain(words);
    expect(reason).toContain("`git status`");
    expect(reason).toContain("npx --no playbook verify p1.1");
  });

  it("evidence recorded without a fingerprint does not count in a git repository", () => {
    const reason = reasonOf(subtaskGuard, {
      records: proved(ticked, undefined),
      changes: [playbookEdit(REVIEWED, ticked)],
      tree: "sha256:now",
    });
    expect(reason).toContain("it names no code it proved");
  });

  it("a phase turning done while git cannot read the tree is refused with git's words", () => {
    const book = tick(REVIEWED, "p1.1").replace(
      "**status**: in_progress",
      "**status**: done",
    );
    const summary = playbookOf(book);
    const evidence = ["p1.1", "p1.2"].flatMap((target) =>
      (["technical", "consistency", "completeness"] as const).map(
        (validation) => ({
          ...recordFor(summary, {
            kind: "evidence",
            target,
            validation,
            verdict: "PASS",
          }),
          detail: { tree: "sha256:now" },
        }),
      ),
    );
    const records = approvedRecords([
      ...evidence,
      recordFor(summary, { kind: "critic", target: "p1", verdict: "PASS" }),
    ]);
    const changes = [playbookEdit(allChecked, book)];
    expect(
      reasonOf(criticGuard, { records, changes, tree: "sha256:now" }),
    ).toBe("allow");
    const reason = reasonOf(criticGuard, {
      records,
      changes,
      tree: { unreadable: words },
    });
    expect(reason).toContain("phase p1 cannot be done");
    expect(reason).toContain(words);
    expect(reason).toContain("`git status`");
  });
});

table(subtaskGuard, [
  [
    "ticking with every proof",
    () => ({
      records: approvedRecords(proofs(tick(REVIEWED, "p1.1"))),
      changes: [playbookEdit(REVIEWED, tick(REVIEWED, "p1.1"))],
    }),
    "allow",
  ],
  [
    "ticking with no proof",
    () => ({ changes: [playbookEdit(REVIEWED, tick(REVIEWED, "p1.1"))] }),
    "block",
    "checking p1.1 in `plan/playbook-login-form.md` needs proof that is",
  ],
  [
    "ticking without the user's confirmation",
    () => ({
      records: approvedRecords(proofs(tick(REVIEWED, "p1.1")).slice(0, 2)),
      changes: [playbookEdit(REVIEWED, tick(REVIEWED, "p1.1"))],
    }),
    "block",
    "checking p1.1 in `plan/playbook-login-form.md` needs proof that is",
  ],
  [
    "ticking with PASS typed into the validations",
    () => ({
      changes: [
        playbookEdit(
          REVIEWED,
          tick(REVIEWED, "p1.1").replace(
            '"automated - npx vitest run test/login-form.test.ts"',
            '"PASS - automated - npx vitest run test/login-form.test.ts"',
          ),
        ),
      ],
    }),
    "block",
    "checking p1.1 in `plan/playbook-login-form.md` needs proof that is",
  ],
  [
    "typing PASS without ticking",
    () => ({
      changes: [
        playbookEdit(
          REVIEWED,
          REVIEWED.replace(
            "'automated - npx tsc --noEmit'",
            "'PASS - automated - npx tsc --noEmit'",
          ),
        ),
      ],
    }),
    "block",
    "marking validations of p1",
  ],
  [
    "a new playbook with a ticked box",
    () => ({ changes: [playbookEdit(null, REVIEWED)] }),
    "block",
    "checking p1.2 in `plan/playbook-login-form.md` needs proof that is",
  ],
  [
    "a new playbook with open boxes",
    () => ({ changes: [playbookEdit(null, unticked)] }),
    "allow",
  ],
  [
    "unticking",
    () => ({
      changes: [
        playbookEdit(
          REVIEWED,
          REVIEWED.replace("- [X] **p1.2**", "- [ ] **p1.2**"),
        ),
      ],
    }),
    "allow",
  ],
  [
    "ticking in developer mode",
    () => ({
      security: "developer",
      changes: [playbookEdit(REVIEWED, tick(REVIEWED, "p1.1"))],
    }),
    "block",
    "checking p1.1 in `plan/playbook-login-form.md` needs proof that is",
  ],
  [
    "a checked duplicate of a proven subtask id",
    () => {
      const proven = tick(REVIEWED, "p1.1");
      const dup = proven.replace("- [ ] **p2.1**", "- [x] **p1.1**");
      return {
        records: approvedRecords(proofs(proven)),
        changes: [playbookEdit(proven, dup)],
      };
    },
    "block",
    "`p1.1` appears more than once in `plan/playbook-login-form.md` and",
  ],
  [
    "an edit whose result cannot be computed",
    () => ({
      changes: [
        fileChange(BOOK, {
          document: {
            kind: "playbook",
            before: playbookOf(REVIEWED),
            after: null,
            afterProblem: "old_string is not in the file",
          },
        }),
      ],
    }),
    "block",
    "the new content of `plan/playbook-login-form",
  ],
]);

const allChecked = tick(REVIEWED, "p1.1");
const done = allChecked.replace("**status**: in_progress", "**status**: done");
table(criticGuard, [
  [
    "done with the critic's PASS",
    () => ({
      records: approvedRecords([
        recordFor(playbookOf(done), {
          kind: "critic",
          target: "p1",
          verdict: "PASS",
        }),
      ]),
      changes: [playbookEdit(allChecked, done)],
    }),
    "allow",
  ],
  [
    "done without the critic",
    () => ({ changes: [playbookEdit(allChecked, done)] }),
    "block",
    "setting phase p1 in `plan/playbook-login-form",
  ],
  [
    "done with the critic's FAIL",
    () => ({
      records: approvedRecords([
        recordFor(playbookOf(done), {
          kind: "critic",
          target: "p1",
          verdict: "FAIL",
        }),
      ]),
      changes: [playbookEdit(allChecked, done)],
    }),
    "block",
    "setting phase p1 in `plan/playbook-login-form",
  ],
  [
    "done with a stale PASS (judged before p1.1 was ticked)",
    () => ({
      records: approvedRecords([
        recordFor(playbookOf(REVIEWED), {
          kind: "critic",
          target: "p1",
          verdict: "PASS",
        }),
      ]),
      changes: [playbookEdit(allChecked, done)],
    }),
    "block",
    "setting phase p1 in `plan/playbook-login-form",
  ],
  [
    "done with open subtasks",
    () => ({
      changes: [
        playbookEdit(
          REVIEWED,
          REVIEWED.replace("**status**: in_progress", "**status**: done"),
        ),
      ],
    }),
    "block",
    "phase p1 in `plan/playbook-login-form",
  ],
  [
    "another edit",
    () => ({
      changes: [
        playbookEdit(
          REVIEWED,
          REVIEWED.replace("**max_iterations**: 5", "**max_iterations**: 6"),
        ),
      ],
    }),
    "allow",
  ],
  [
    "done for a phase id used twice",
    () => {
      const twice = done.replace("### p2: Submit", "### p1: Submit");
      return {
        records: approvedRecords([
          recordFor(playbookOf(done), {
            kind: "critic",
            target: "p1",
            verdict: "PASS",
          }),
        ]),
        changes: [playbookEdit(allChecked, twice)],
      };
    },
    "block",
    "phase p1 appears more than once",
  ],
]);

const creep = REVIEWED.replace(
  "exports `LoginForm`",
  "exports `LoginForm` and `Logout`",
);
table(scopeGuard, [
  [
    "unchanged scope",
    () => ({ changes: [playbookEdit(REVIEWED, tick(REVIEWED, "p1.1"))] }),
    "allow",
  ],
  [
    "criterion changed, strict",
    () => ({ changes: [playbookEdit(REVIEWED, creep)] }),
    "block",
    "this edit changes subtask criteria of",
  ],
  [
    "criterion changed, trusted",
    () => ({ security: "trusted", changes: [playbookEdit(REVIEWED, creep)] }),
    "context",
  ],
  [
    "criterion changed with reviewed: false",
    () => ({
      changes: [
        playbookEdit(
          REVIEWED,
          creep.replace("reviewed: true", "reviewed: false"),
        ),
      ],
    }),
    "context",
  ],
  [
    "done_when changed, strict",
    () => ({
      changes: [
        playbookEdit(
          REVIEWED,
          REVIEWED.replace("npm test passes", "npm test mostly passes"),
        ),
      ],
    }),
    "block",
    "this edit changes the goal or",
  ],
  [
    "before review",
    () => ({
      changes: [
        playbookEdit(
          SAMPLE_PLAYBOOK,
          SAMPLE_PLAYBOOK.replace("exports `LoginForm`", "exports x"),
        ),
      ],
    }),
    "allow",
  ],
]);

const bash =
  (command: string, extra: Partial<GuardContext> = {}) =>
  () => ({ ...bashChanges(command), ...extra });
table(bashCheckGuard, [
  ["git status", bash("git status"), "allow"],
  ["npm test", bash("npm test 2>&1 | tail -5"), "allow"],
  [
    "sed -i on the playbook",
    bash(`sed -i 's/a/b/' ${BOOK}`),
    "block",
    "`sed -i 's/a/b/' plan/playbook-login-form",
  ],
  [
    "sed -i on the playbook in developer mode",
    bash(`sed -i 's/a/b/' ${BOOK}`, { security: "developer" }),
    "block",
    "`sed -i 's/a/b/' plan/playbook-login-form",
  ],
  [
    "review by the main agent",
    bash("playbook review approve"),
    "block",
    "`playbook review` records the reviewer's verdict",
  ],
  [
    "review by the reviewer",
    bash("playbook review approve", { agentType: "reviewer" }),
    "allow",
  ],
  [
    "review by a plugin reviewer",
    bash("playbook review reject", { agentType: "myplugin:reviewer" }),
    "allow",
  ],
  [
    "crit by the critic",
    bash("playbook crit record p1 PASS", { agentType: "critic" }),
    "allow",
  ],
  [
    "confirm by the reviewer",
    bash("playbook confirm p1.1", { agentType: "reviewer" }),
    "block",
    "`playbook confirm` records that a person",
  ],
  [
    "uninstall by the agent",
    bash("npx playbook uninstall --yes"),
    "block",
    "`playbook uninstall` changes the hook wiring",
  ],
  [
    "init by the setup guide",
    bash("playbook init --yes --toolstack B", { agentType: "setup-guide" }),
    "block",
    "`playbook init` changes the hook wiring",
  ],
  [
    "new by the pm",
    bash("npx playbook new login-form", { agentType: "pm" }),
    "allow",
  ],
  [
    "confirm through script -c",
    bash("script -qc 'playbook confirm p1.1' /dev/null"),
    "block",
    "`playbook confirm` records that a person",
  ],
  [
    "confirm through a python pseudo-terminal",
    bash(`python3 -c "import pty; pty.spawn(['playbook','confirm','p1.1'])"`),
    "block",
    "python3 code that runs `playbook review`",
  ],
  [
    "python code that mentions nothing guarded",
    bash(`python3 -c "print(1 + 1)"`),
    "allow",
  ],
  [
    "rm -rf of the repository",
    bash("rm -rf /repo"),
    "block",
    "`rm -rf /repo` would delete the",
  ],
  ["rm -rf of a build folder", bash("rm -rf dist"), "allow"],
  ["rm -rf of *.pyc at the root", bash("rm -rf *.pyc"), "allow"],
  [
    "rm -rf of everything at the root",
    bash("rm -rf *"),
    "block",
    "`rm -rf *` would delete every",
  ],
  [
    "rm -rf of the parent's contents",
    bash("rm -rf ../*"),
    "block",
    "`rm -rf ../*` would delete `/*`, which takes",
  ],
  [
    "rm -rf of a glob naming .git",
    bash("rm -rf .g?t"),
    "block",
    "`rm -rf .g?t` would delete git's own data",
  ],
  [
    "rm -rf of a glob outside",
    bash("rm -rf /usr/lib/*.so"),
    "block",
    "`rm -rf /usr/lib/*",
  ],
  ["rm -rf of a glob in a temp folder", bash("rm -rf /tmp/build-*"), "allow"],
  [
    "rm -rf outside, in developer mode",
    bash("rm -rf /usr/lib", { security: "developer" }),
    "context",
  ],
  [
    "force-push to main",
    bash("git push -f origin main"),
    "block",
    "`git push -f origin main` would",
  ],
  [
    "force-push to a feature branch",
    bash("git push -f origin feat/x"),
    "context",
  ],
  [
    "delete the default branch remotely",
    bash("git push origin :main"),
    "block",
    "`git push origin :main` would delete",
  ],
  [
    "reset --hard with uncommitted work",
    bash("git reset --hard", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "`git reset --hard` would throw away",
  ],
  [
    "reset --hard on a clean tree",
    bash("git reset --hard", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: false },
    }),
    "allow",
  ],
  [
    "git clean -fdx",
    bash("git clean -fdx"),
    "block",
    "`git clean -fdx` deletes ignored files",
  ],
  [
    "git clean -e '!*' un-ignores every ignored file",
    bash("git clean -fd -e '!*'"),
    "block",
    "`git clean -fd -e '!*'` deletes ignored files",
  ],
  [
    "git clean --exclude='!.env' un-ignores .env",
    bash("git clean -f --exclude='!.env'"),
    "block",
    "deletes ignored files",
  ],
  [
    "git clean --exclude '!*' (value as the next word)",
    bash("git clean -f --exclude '!*'"),
    "block",
    "deletes ignored files",
  ],
  [
    "git clean -fde'!*' (the pattern glued to a cluster)",
    bash("git clean -fde'!*'"),
    "block",
    "deletes ignored files",
  ],
  [
    "git clean -e with a plain pattern keeps ignored files",
    bash("git clean -fd -e build"),
    "context",
  ],
  [
    "git clean -ex is the pattern x, not -x",
    bash("git clean -f -ex"),
    "context",
  ],
  [
    "read-tree -u --reset with uncommitted work",
    bash("git read-tree -u --reset HEAD", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "`git read-tree -u --reset HEAD` would throw away uncommitted changes",
  ],
  [
    "read-tree -m -u with uncommitted work",
    bash("git read-tree -m -u HEAD", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "would throw away uncommitted changes",
  ],
  [
    "read-tree --reset -u on a clean tree",
    bash("git read-tree --reset -u HEAD", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: false },
    }),
    "allow",
  ],
  [
    "read-tree without -u touches only the index",
    bash("git read-tree HEAD", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "allow",
  ],
  [
    "checkout-index -a -f with uncommitted work",
    bash("git checkout-index -a -f", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "`git checkout-index -a -f` would throw away uncommitted changes",
  ],
  [
    "checkout-index -af (a cluster)",
    bash("git checkout-index -af", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "would throw away uncommitted changes",
  ],
  [
    "checkout-index --force --stdin",
    bash("git ls-files | git checkout-index --force --stdin", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "would throw away uncommitted changes",
  ],
  [
    "checkout-index -f of one named file",
    bash("git checkout-index -f -- src/app.ts", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "allow",
  ],
  [
    "checkout-index -a without -f overwrites nothing",
    bash("git checkout-index -a", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "allow",
  ],
  [
    "git -C src checkout -- .. (the parent of src: the whole tree)",
    bash("git -C src checkout -- ..", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "`git -C src checkout -- ..` would throw away uncommitted changes",
  ],
  [
    "checkout -- ../.. from a subfolder",
    bash("git checkout -- ../..", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "would throw away uncommitted changes",
  ],
  [
    "restore src/.. (the whole tree, spelt through a folder)",
    bash("git restore src/..", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "would throw away uncommitted changes",
  ],
  [
    "checkout -- ../lib names one folder",
    bash("git checkout -- ../lib", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "allow",
  ],
  [
    "a -c alias hides checkout -- .",
    bash("git -c alias.fresh='checkout -- .' fresh", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "`git -c alias",
  ],
  [
    "a -c shell alias",
    bash("git -c alias.x='!rm -rf src' x", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "`git -c alias",
  ],
  [
    "switch -f with uncommitted work",
    bash("git switch -f main", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "`git switch -f main` would throw",
  ],
  [
    "switch --discard-changes",
    bash("git switch --discard-changes main", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "`git switch --discard-changes main` would throw",
  ],
  [
    "restore :/ (the whole tree)",
    bash("git restore :/", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "`git restore :/` would throw away",
  ],
  [
    "restore .",
    bash("git restore .", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "`git restore",
  ],
  [
    "checkout -- :(top)",
    bash("git checkout -- ':(top)'", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "block",
    "`git checkout -- '",
  ],
  [
    "restore one file",
    bash("git restore src/app.ts", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "allow",
  ],
  [
    "restore --staged . (index only)",
    bash("git restore --staged .", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "allow",
  ],
  [
    "switch to another branch",
    bash("git switch other", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "allow",
  ],
  [
    "a -c alias for log",
    bash("git -c alias.l='log --oneline' l", {
      git: { branch: "feat/x", defaultBranch: "main", dirtyTracked: true },
    }),
    "allow",
  ],
  [
    "git stash drop",
    bash("git stash drop"),
    "block",
    "`git stash drop` deletes stashed work",
  ],
  [
    "git stash clear",
    bash("git stash clear"),
    "block",
    "`git stash clear` deletes stashed work",
  ],
  ["git stash pop", bash("git stash pop"), "allow"],
  ["git clean -fd", bash("git clean -fd"), "context"],
  ["git rebase -i", bash("git rebase -i HEAD~3"), "context"],
  ["git rebase --abort", bash("git rebase --abort"), "allow"],
  [
    "chmod -R 777 /",
    bash("chmod -R 777 /"),
    "block",
    "`chmod -R 777 /` changes permissions",
  ],
  [
    "unparsable, mentioning state.md",
    bash("echo 'state.md"),
    "block",
    "playbook could not analyse this command",
  ],
  [
    "unparsable, naming no playbook file",
    bash("echo 'x"),
    "block",
    "playbook could not analyse this command",
  ],
]);

table(coherenceGuard, [
  ["agreeing state and git", bash("git commit -m x"), "allow"],
  [
    "branch mismatch at commit",
    bash("git commit -m x", {
      git: { branch: "other", defaultBranch: "main", dirtyTracked: null },
    }),
    "context",
  ],
  [
    "branch mismatch, not a commit",
    bash("git status", {
      git: { branch: "other", defaultBranch: "main", dirtyTracked: null },
    }),
    "allow",
  ],
  [
    "phase not in the playbook at session start",
    () => ({
      event: "SessionStart",
      state: stateOf(SAMPLE_STATE.replace("phase: p1", "phase: p9")),
    }),
    "context",
  ],
  [
    "a broken protected-files.txt at session start",
    () => ({
      event: "SessionStart",
      protectedProblems: [".claude/protected-files.txt:1: Unexpected x"],
    }),
    "context",
  ],
]);

table(initGuard, [
  ["everything read", () => ({ changes: src() }), "allow"],
  [
    "nothing read",
    () => ({ reads: [], changes: src() }),
    "block",
    "this session has not read `CLAUDE",
  ],
  [
    "nothing read, state.md edit",
    () => ({ reads: [], changes: [fileChange("state.md")] }),
    "allow",
  ],
  [
    "nothing read, admin mode",
    () => ({ reads: [], security: "admin", changes: src() }),
    "allow",
  ],
  ["unknown session", () => ({ reads: null, changes: src() }), "allow"],
]);

describe("init guard remembers reads", () => {
  it("records a Read of a required file as an effect", () => {
    const result = initGuard.check(
      guardContext({
        reads: [],
        toolName: "Read",
        toolInput: { file_path: "/repo/state.md" },
      }),
    );
    expect(result.effects).toEqual([
      { kind: "session-read", path: "state.md" },
    ]);
  });
});

describe("proof counts only for the plan as the reviewer approved it", () => {
  // The attack: p1.1's validations rewritten to `true`, `reviewed: false`, `playbook verify` run on that, then the tick.
  const rewritten = REVIEWED.replace(
    '"automated - npx vitest run test/login-form.test.ts"',
    '"automated - true"',
  )
    .replace("'automated - npx tsc --noEmit'", '"automated - true"')
    .replace(
      "manual - the error states match docs/design.png",
      '"automated - true"',
    )
    .replace("reviewed: true", "reviewed: false");
  const evidenceOf = (book: string) => {
    const s = playbookOf(book);
    return (["technical", "consistency", "completeness"] as const).map(
      (validation) =>
        recordFor(s, {
          kind: "evidence",
          target: "p1.1",
          validation,
          verdict: "PASS",
        }),
    );
  };
  const ticked = tick(rewritten, "p1.1");

  it("a tick backed by evidence of validations changed after the approval is refused, naming the review as the step", () => {
    const decision = verdictOf(subtaskGuard, {
      records: approvedRecords(evidenceOf(ticked)),
      changes: [playbookEdit(rewritten, ticked)],
    });
    expect(decision.kind).toBe("block");
    if (decision.kind !== "block") return;
    expect(decision.reason).toContain(
      "counts only for the plan as the reviewer approved it, and the plan changed after the reviewer approved it",
    );
    expect(decision.reason).toContain("/playbook-review");
  });

  it("the same tick is refused when no review was ever recorded", () => {
    const decision = verdictOf(subtaskGuard, {
      records: createRecordSet(evidenceOf(ticked)),
      changes: [playbookEdit(rewritten, ticked)],
    });
    expect(decision.kind).toBe("block");
    if (decision.kind === "block")
      expect(decision.reason).toContain(
        "and the reviewer has not approved the plan",
      );
  });

  it("a phase turning done in a plan changed after its approval is refused", () => {
    const changed = allChecked.replace(
      "exports `LoginForm`",
      "exports `LoginForm` and `LoginPage`",
    );
    const doneChanged = changed.replace(
      "**status**: in_progress",
      "**status**: done",
    );
    const decision = verdictOf(criticGuard, {
      records: approvedRecords([
        recordFor(playbookOf(doneChanged), {
          kind: "critic",
          target: "p1",
          verdict: "PASS",
        }),
      ]),
      changes: [playbookEdit(changed, doneChanged)],
    });
    expect(decision.kind).toBe("block");
    if (decision.kind === "block")
      expect(decision.reason).toContain(
        "can be done only in the plan as the reviewer approved it",
      );
  });
});
