import { mkdirSync, symlinkSync } from "node:fs";
import { homedir } from "node:os";
import { beforeAll, describe, it } from "vitest";
import {
  createGuardedRepo,
  expectAllowed,
  expectDenied,
  PLAYBOOK,
  type GuardedRepo,
} from "../helpers/guarded-repo.ts";

const WRITE = "mcp__filesystem__write_file";

describe("a tool the hook does not know (an MCP server's)", () => {
  let repo: GuardedRepo;
  beforeAll(() => {
    repo = createGuardedRepo();
    mkdirSync(repo.path("docs"), { recursive: true });
    symlinkSync(repo.path(".claude/playbook"), repo.path("docs/records"));
  });

  it.each([
    [
      "an absolute path into the records",
      (r: GuardedRepo) => ({
        path: r.path(".claude/playbook/records/x/review.playbook.json"),
        content: "{}",
      }),
    ],
    [
      "a relative path",
      () => ({ path: ".claude/playbook/grants/g.json", content: "{}" }),
    ],
    [
      "a file:// URL",
      (r: GuardedRepo) => ({
        uri: `file://${r.path(".claude/playbook.json")}`,
        text: '{"security":"developer"}',
      }),
    ],
    [
      "`..` segments",
      () => ({ path: "src/../.claude/settings.json", content: "{}" }),
    ],
    [
      "a symlinked folder pointing into the records",
      () => ({ path: "docs/records/records/x.json", content: "{}" }),
    ],
    [
      "a nested input",
      () => ({ edits: [{ target: { file: ".git/hooks/pre-commit" } }] }),
    ],
    ["a command naming the folder", () => ({ command: "rm -rf .claude" })],
    [
      "the enforcement code",
      () => ({ path: "node_modules/playbook-kit/dist/hook.cjs", content: "" }),
    ],
  ])(
    "naming a guarded path through %s is refused, naming it",
    (_name, input) => {
      const reply = repo.pre(WRITE, input(repo));
      expectDenied(reply, WRITE, "does not know");
    },
  );

  it("naming state.md or the active playbook is refused with the Edit tool as the way", () => {
    for (const path of ["state.md", repo.path(PLAYBOOK)])
      expectDenied(
        repo.pre("mcp__editor__replace", { path, old: "a", new: "b" }),
        "Edit",
      );
  });

  it("a file protected-files.txt lists (HARD_BLOCK) is refused", () => {
    const guarded = createGuardedRepo({
      files: {
        ".claude/protected-files.txt": "HARD_BLOCK .env*\n",
        ".env": "A=1\n",
      },
    });
    expectDenied(
      guarded.pre(WRITE, { path: guarded.path(".env"), content: "A=2" }),
      ".env",
    );
  });

  it.each([
    ["an ordinary source file", { path: "src/app.ts", content: "x" }],
    ["a path outside the repository", { path: "/tmp/notes.txt" }],
    ["the home folder", { path: `${homedir()}/notes.txt` }],
    ["the repository itself", { repo_path: "." }],
    [
      "prose in a long message that mentions state.md",
      { title: "notes", body: `${"text ".repeat(400)}state.md` },
    ],
    ["no path at all", { query: "how do I run the tests", limit: 5 }],
  ])("naming only %s goes through", (_name, input) => {
    expectAllowed(repo.pre("mcp__thing__do", input));
  });

  it("the built-in tools are judged as before, not as unknown tools", () => {
    expectAllowed(repo.pre("Read", { file_path: repo.path("state.md") }));
    expectAllowed(repo.pre("Grep", { pattern: "x", path: ".claude/playbook" }));
  });
});
