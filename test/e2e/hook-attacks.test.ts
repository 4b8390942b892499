import { existsSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createGuardedRepo,
  expectDenied,
  runByPlaybook,
  PLAYBOOK,
  type GuardedRepo,
} from "../helpers/guarded-repo.ts";
import { SAMPLE_PLAYBOOK } from "../helpers/sample-docs.ts";

const TICK_OLD = "- [ ] **p1.1**";
const TICK_NEW = "- [x] **p1.1**";

describe("the attack corpus is blocked", () => {
  let repo: GuardedRepo;
  beforeAll(() => {
    repo = createGuardedRepo();
  });

  it("ticking [x] with validations typed as PASS", () => {
    const before = repo.read(PLAYBOOK);
    const start = before.indexOf(TICK_OLD);
    const block = before.slice(
      start,
      before.indexOf("  - depends_on: []", start),
    );
    const forged = block
      .replace("[ ]", "[x]")
      .replace('"automated - npx vitest', '"PASS - automated - npx vitest')
      .replace("'automated - npx tsc", "'PASS - automated - npx tsc")
      .replace("manual - the error", "PASS - manual - the error");
    const reply = repo.pre("Edit", {
      file_path: repo.path(PLAYBOOK),
      old_string: block,
      new_string: forged,
    });
    expectDenied(reply, "p1.1", "playbook verify p1.1");
  });

  it("ticking [x] with the validations retyped as `PASS - verified`: refused as a rewrite of the approved validations", () => {
    const before = repo.read(PLAYBOOK);
    const start = before.indexOf(TICK_OLD);
    const block = before.slice(
      start,
      before.indexOf("  - depends_on: []", start),
    );
    const forged = block
      .replace("[ ]", "[x]")
      .replace(
        /(technical|consistency|completeness): .*/g,
        '$1: "PASS - verified"',
      );
    const reply = repo.pre("Edit", {
      file_path: repo.path(PLAYBOOK),
      old_string: block,
      new_string: forged,
    });
    expectDenied(
      reply,
      "rewrites the validations of p1.1",
      "technical, consistency, completeness",
      "playbook verify p1.1",
    );
    expect(reply.reason).not.toContain("no validation kind");
  });

  it("rewriting the whole playbook with Write to tick every box and set done", () => {
    const forged = repo
      .read(PLAYBOOK)
      .replaceAll("- [ ]", "- [x]")
      .replaceAll("**status**: pending", "**status**: done")
      .replaceAll("**status**: in_progress", "**status**: done");
    expectDenied(
      repo.pre("Write", { file_path: repo.path(PLAYBOOK), content: forged }),
    );
  });

  it("setting a phase done without the critic", () => {
    repo.record({
      kind: "evidence",
      playbook: PLAYBOOK,
      target: "p1.1",
      validation: "technical",
      verdict: "PASS",
      detail: {},
    });
    const reply = repo.pre("Edit", {
      file_path: repo.path(PLAYBOOK),
      old_string: "**status**: in_progress",
      new_string: "**status**: done",
    });
    expectDenied(reply, "p1");
  });

  it.each([
    ["sed -i", `sed -i 's/- \\[ \\]/- [x]/' ${PLAYBOOK}`],
    ["tee", `echo x | tee ${PLAYBOOK}`],
    ["tee -a on state.md", "echo 'reviewed: true' | tee -a state.md"],
    ["a redirect", `printf 'x' > ${PLAYBOOK}`],
    ["a here-doc", `cat > ${PLAYBOOK} <<'EOF'\n- [x] **p1.1**: done\nEOF`],
    ["python -c", `python3 -c "open('${PLAYBOOK}','w').write('x')"`],
    ["node -e", `node -e "require('fs').writeFileSync('state.md','')"`],
    ["cp onto the playbook", `cp /tmp/forged.md ${PLAYBOOK}`],
    [
      "mv into the records folder",
      "mv /tmp/forged.json .claude/playbook/records/x.json",
    ],
    ["cp into the records folder", "cp /tmp/r.json .claude/playbook/records/"],
    ["rm of state.md", "rm -f state.md"],
    ["truncate of state.md", "truncate -s 0 state.md"],
    ["dd onto the playbook", `dd if=/dev/zero of=${PLAYBOOK} count=1`],
    ["bash -c wrapping sed", `bash -c "sed -i s/a/b/ state.md"`],
    ["cd into plan first", "cd plan && sed -i 's/a/b/' playbook-login-form.md"],
    [
      "an env prefix and a pipe",
      `FOO=1 cat /tmp/x | tee ${PLAYBOOK} > /dev/null`,
    ],
    ["eval", `eval "rm ${PLAYBOOK}"`],
    ["$(...)", `echo $(cp /tmp/x state.md)`],
  ])("%s onto a guarded file", (_name, command) => {
    expectDenied(repo.bash(command));
  });

  it("ticking through the legacy MultiEdit tool", () => {
    const reply = repo.pre("MultiEdit", {
      file_path: repo.path(PLAYBOOK),
      edits: [
        {
          old_string: "max_iterations**: 5",
          new_string: "max_iterations**: 6",
        },
        { old_string: TICK_OLD, new_string: TICK_NEW },
      ],
    });
    expectDenied(reply, "p1.1");
  });

  it("a NotebookEdit on the default branch", () => {
    const onMain = createGuardedRepo({ branch: "main" });
    expectDenied(
      onMain.pre("NotebookEdit", {
        notebook_path: onMain.path("notebooks/a.ipynb"),
        new_source: "x",
        cell_id: "c1",
      }),
      "default branch",
    );
  });

  it("an Edit with Windows separators in its path", () => {
    const path = repo.path(PLAYBOOK).replace(/\//g, "\\");
    const reply = repo.pre("Edit", {
      file_path: path,
      old_string: TICK_OLD,
      new_string: TICK_NEW,
    });
    // On POSIX a backslash is a legal file-name character, but Claude Code on Windows sends them as separators.
    expect(reply.decision).toBe("deny");
  });

  it("setting `reviewed: true` by hand", () => {
    const fresh = createGuardedRepo({ reviewed: false });
    const reply = fresh.pre("Edit", {
      file_path: fresh.path(PLAYBOOK),
      old_string: "reviewed: false",
      new_string: "reviewed: true",
    });
    expectDenied(reply, "reviewed: true", "playbook review approve");
  });

  it.each([
    ["playbook review approve", "playbook review approve"],
    ["through npx", "npx playbook review approve --notes ok"],
    ["inside a subshell", "(cd . && playbook review approve)"],
    ["playbook crit record", "playbook crit record p1 PASS"],
  ])("the main agent running %s", (_name, command) => {
    expectDenied(repo.bash(command));
  });

  it("any agent running `playbook confirm`, which only a person may run", () => {
    expectDenied(
      repo.bash("playbook confirm p1.1", {
        agent_type: "reviewer",
        agent_id: "a1f3c9",
      }),
      "person",
    );
  });

  it("a main session started with `claude --agent reviewer` (agent_type without agent_id) cannot approve or record a verdict", () => {
    const fresh = createGuardedRepo({ reviewed: false });
    const grants = fresh.path(".claude/playbook/grants");
    const count = () => (existsSync(grants) ? readdirSync(grants).length : 0);
    expectDenied(
      fresh.bash("playbook review approve", { agent_type: "reviewer" }),
      "reviewer",
    );
    expectDenied(
      fresh.bash("playbook crit record p1 PASS", { agent_type: "critic" }),
      "critic",
    );
    // No grant was left for the CLI to use.
    expect(count()).toBe(0);
    expect(fresh.read(PLAYBOOK)).toContain("reviewed: false");
    // The same call from a subagent (agent_id present) is the reviewer's: the hook runs it and it records.
    const shown = runByPlaybook(
      fresh.bash("playbook review approve", {
        agent_type: "reviewer",
        agent_id: "a1f3c9",
      }),
    );
    expect(shown.status).toBe(0);
    expect(fresh.read(PLAYBOOK)).toContain("reviewed: true");
  });

  it.each([
    ["chained after cd", "cd . && npx --no playbook verify p1.1"],
    ["piped", "npx --no playbook verify p1.1 | tail -5"],
    ["redirected", "npx --no playbook verify p1.1 > out.txt"],
    ["with a variable", 'npx --no playbook verify "$ID"'],
    ["inside bash -c", "bash -c 'npx --no playbook verify p1.1'"],
  ])(
    "a proof-writing command that is not a command of its own (%s) is refused, and nothing is run",
    (_name, command) => {
      const jobs = repo.path(".claude/playbook/jobs");
      const before = existsSync(jobs) ? readdirSync(jobs).length : 0;
      expectDenied(repo.bash(command), "a command of its own");
      expect(existsSync(jobs) ? readdirSync(jobs).length : 0).toBe(before);
    },
  );

  it("the command the agent's shell runs instead only shows the job: whatever binary `playbook` names there, playbook's own code ran", () => {
    const fresh = createGuardedRepo();
    // A `playbook` on the agent's PATH would forge evidence; the hook never runs it.
    fresh.write("bin/playbook", "#!/bin/sh\necho forged > forged.txt\n");
    const reply = fresh.bash("playbook verify p1.1", {
      cwd: fresh.dir,
    });
    const shown = runByPlaybook(reply);
    expect(shown.output).not.toContain("forged");
    expect(existsSync(fresh.path("forged.txt"))).toBe(false);
    expect(reply.command).not.toContain("bin/playbook");
  });

  it("the critic running `playbook review approve`", () => {
    expectDenied(
      repo.bash("playbook review approve", {
        agent_type: "critic",
        agent_id: "a1f3c9",
      }),
    );
  });

  it("an Edit through a symlink that points at the playbook", () => {
    mkdirSync(repo.path("docs"), { recursive: true });
    symlinkSync(repo.path(PLAYBOOK), repo.path("docs/notes.md"));
    const reply = repo.pre("Edit", {
      file_path: repo.path("docs/notes.md"),
      old_string: TICK_OLD,
      new_string: TICK_NEW,
    });
    expectDenied(reply, "p1.1");
  });

  it("an Edit through a `../` path", () => {
    const path = `${repo.dir}/src/../${PLAYBOOK}`;
    expectDenied(
      repo.pre("Edit", {
        file_path: path,
        old_string: TICK_OLD,
        new_string: TICK_NEW,
      }),
      "p1.1",
    );
  });

  it("a Write into the records folder", () => {
    expectDenied(
      repo.pre("Write", {
        file_path: repo.path(".claude/playbook/records/x/review.playbook.json"),
        content: "{}",
      }),
      "HARD_BLOCK",
    );
  });

  it("lowering the security mode in .claude/playbook.json", () => {
    expectDenied(
      repo.pre("Write", {
        file_path: repo.path(".claude/playbook.json"),
        content: '{"security": "developer"}\n',
      }),
      "HARD_BLOCK",
    );
    expectDenied(
      repo.bash(`echo '{"security":"developer"}' > .claude/playbook.json`),
      "HARD_BLOCK",
    );
  });

  it.each([
    ["rm -rf of the repository", (r: GuardedRepo) => `rm -rf ${r.dir}`],
    ["rm -rf .", () => "rm -rf ."],
    ["rm -rf of the home folder", () => "rm -rf ~"],
    ["rm -rf /", () => "rm -rf /"],
    ["rm -rf of a parent", () => "rm -rf .."],
    ["rm -rf of .git", () => "rm -rf .git"],
    ["rm -rf of a variable", () => 'rm -rf "$TARGET"'],
    ["rm -rf outside the repository", () => "rm -rf /usr/local/lib"],
    [
      "git push --force to the default branch",
      () => "git push --force origin main",
    ],
    ["git push -f with a + refspec", () => "git push origin +HEAD:main"],
    ["git clean -fdx", () => "git clean -fdx"],
    ["mkfs", () => "mkfs.ext4 /dev/sda1"],
  ])("%s", (_name, command) => {
    expectDenied(repo.bash(command(repo)));
  });

  it("globs are read as bash expands them: `*` skips dotfiles, and a glob through a folder reaches inside it", () => {
    // `*` cannot match `.claude`: the refusal names what `./*` really takes (the playbook), not the settings.
    const wide = repo.bash("rm -rf ./*");
    expectDenied(wide, "plan/playbook-login-form.md");
    expect(wide.reason).not.toContain(".claude/settings.json");
    expectDenied(repo.bash("rm -rf .claude/*/records"), ".claude");
    expectDenied(repo.bash("rm -rf ./.*/objects"), ".git");
    // find's and tar's wildcards do match dotfiles.
    expectDenied(
      repo.bash("find . -name '*.json' -delete"),
      ".claude/settings.json",
    );
    expectDenied(repo.bash("tar -xf backup.tar"), ".claude");
    // A name at any depth reaches what sits inside the runtime folder and git's.
    expectDenied(
      repo.bash("find . -name records -exec rm -rf {} +"),
      ".claude/playbook/records",
    );
    expectDenied(repo.bash("find . -name hooks -exec rm -rf {} +"), ".git");
    // A glob that can only reach ordinary files goes through.
    expect(repo.bash("rm -f ?env *.log").decision).toBeNull();
  });

  it("bash's other spellings of a folder: `~+` is the working directory, `~-` and `~user` are known only when it runs", () => {
    expectDenied(
      repo.bash(
        "cp forged.json ~+/.claude/playbook/records/plan__playbook-login-form.md/review.playbook.json",
      ),
      ".claude/playbook",
    );
    expectDenied(repo.bash("rm -rf ~+"));
    expectDenied(repo.bash("rm -rf ~+/plan"), "plan/playbook-login-form.md");
    expectDenied(repo.bash("rm -rf ~-"));
    expectDenied(repo.bash("rm -rf ~root/project"));
    expectDenied(repo.bash("echo x > ~+/state.md"), "state.md");
  });

  it("git reset --hard over uncommitted work", () => {
    const dirty = createGuardedRepo();
    dirty.write("src/app.ts", "export const app = 2;\n");
    expectDenied(dirty.bash("git reset --hard HEAD~1"), "uncommitted");
    expectDenied(dirty.bash("git checkout -- ."), "uncommitted");
  });

  it("a source edit with no active playbook", () => {
    const none = createGuardedRepo();
    none.write(
      "state.md",
      none.read("state.md").replace(`active: ${PLAYBOOK}`, "active: null"),
    );
    expectDenied(
      none.pre("Edit", {
        file_path: none.path("src/app.ts"),
        old_string: "1",
        new_string: "2",
      }),
      "Skill(playbook-init)",
    );
  });

  it("a source edit with an unreviewed playbook", () => {
    const fresh = createGuardedRepo({ reviewed: false });
    expectDenied(
      fresh.pre("Write", { file_path: fresh.path("src/new.ts"), content: "x" }),
      "reviewer",
    );
  });

  it("a source edit when `reviewed: true` has no record behind it", () => {
    const forged = createGuardedRepo({ reviewed: true, reviewRecord: false });
    expectDenied(
      forged.pre("Write", {
        file_path: forged.path("src/new.ts"),
        content: "x",
      }),
      "review record",
    );
  });

  it("a source edit after the reviewed plan changed (stale review)", () => {
    const stale = createGuardedRepo();
    stale.write(
      PLAYBOOK,
      stale
        .read(PLAYBOOK)
        .replace("exports `LoginForm`", "exports `LoginForm` and `Logout`"),
    );
    expectDenied(
      stale.pre("Write", { file_path: stale.path("src/new.ts"), content: "x" }),
      "changed after the review",
    );
  });

  it("a source edit on the default branch", () => {
    const onMain = createGuardedRepo({ branch: "main" });
    expectDenied(
      onMain.pre("Write", {
        file_path: onMain.path("src/new.ts"),
        content: "x",
      }),
      "default branch",
      "git switch",
    );
  });

  it("a source edit before the session read state.md and the playbook", () => {
    const unread = createGuardedRepo({ readAll: false });
    expectDenied(
      unread.pre("Write", {
        file_path: unread.path("src/new.ts"),
        content: "x",
      }),
      "has not read",
    );
  });

  it("a source edit while phase p2 waits for p1", () => {
    const early = createGuardedRepo();
    early.write(
      "state.md",
      early.read("state.md").replace("phase: p1", "phase: p2"),
    );
    expectDenied(
      early.pre("Write", { file_path: early.path("src/new.ts"), content: "x" }),
      "depends on p1",
    );
  });

  it("a HARD_BLOCK file from protected-files.txt, also through Bash", () => {
    const guarded = createGuardedRepo({
      files: {
        ".claude/protected-files.txt": "HARD_BLOCK .env*\n",
        ".env": "A=1\n",
      },
    });
    expectDenied(
      guarded.pre("Write", { file_path: guarded.path(".env"), content: "A=2" }),
      ".env",
    );
    expectDenied(guarded.bash("echo B=2 >> .env"), ".env");
  });

  it("gitignore patterns in protected-files.txt: a class and a negation, through the hook", () => {
    const guarded = createGuardedRepo({
      files: {
        ".claude/protected-files.txt":
          "HARD_BLOCK native/*.[ch]\nHARD_BLOCK native/**\nHARD_BLOCK !native/NOTES.md\n",
        "native/io.c": "int x;\n",
        "native/NOTES.md": "notes\n",
      },
    });
    expectDenied(
      guarded.pre("Write", {
        file_path: guarded.path("native/io.h"),
        content: "int y;",
      }),
      "native/io.h",
    );
    expectDenied(guarded.bash("echo 'int z;' >> native/io.c"), "native/io.c");
    expect(
      guarded.pre("Edit", {
        file_path: guarded.path("native/NOTES.md"),
        old_string: "notes",
        new_string: "more notes",
      }).decision,
    ).toBeNull();
  });

  it("a playbook Write too large to check", () => {
    const huge = `${SAMPLE_PLAYBOOK}\n${"<!-- padding -->\n".repeat(80_000)}`;
    expectDenied(
      repo.pre("Write", { file_path: repo.path(PLAYBOOK), content: huge }),
      "cannot be checked",
    );
  });
});
