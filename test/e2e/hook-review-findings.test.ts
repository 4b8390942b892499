import { writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createGuardedRepo,
  expectAllowed,
  expectDenied,
  PLAYBOOK,
  type GuardedRepo,
} from "../helpers/guarded-repo.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../helpers/sample-docs.ts";

// Findings of a hostile review of the hook (PreToolUse), each a regression test written before its fix. Nothing here
// runs the commands: the hook only judges them.

describe("BYPASSES: shell writes to guarded files that the hook lets through", () => {
  let repo: GuardedRepo;
  beforeAll(() => {
    repo = createGuardedRepo();
  });

  // F1: a glob, a variable or a loop variable hides the target; staticFolder() reduces it to `plan` or `.`, which is
  // not a guarded path, so `sed -i` over every playbook (ticking boxes) or over state.md (lowering security) passes.
  it.each([
    [
      "a glob over plan/",
      "sed -i 's/- \\[ \\] \\*\\*p1.1/- [x] **p1.1/' plan/*.md",
    ],
    [
      "a glob that matches state.md",
      "sed -i 's/security: strict/security: developer/' state.m?",
    ],
    [
      "a variable assigned on the same line",
      'F=state.md; sed -i s/strict/developer/ "$F"',
    ],
    [
      "a for loop over plan/*.md",
      `for f in plan/*.md; do sed -i 's/- \\[ \\]/- [x]/' "$f"; done`,
    ],
    [
      "find -exec {} over plan/",
      "find plan -name 'playbook-*.md' -exec sed -i 's/- \\[ \\]/- [x]/' {} +",
    ],
    [
      "xargs fed from a glob",
      "ls plan/*.md | xargs sed -i 's/- \\[ \\]/- [x]/'",
    ],
  ])("F1 dynamic target: %s", (_name, command) => {
    expectDenied(repo.bash(command));
  });

  // F2: cp/mv/install/rsync INTO a folder: the destination is taken as the folder itself (`.`, `plan`, `.claude`),
  // never folder/basename(source), so state.md, a playbook, the records folder, the hook settings and .git are
  // overwritten unchecked.
  it.each([
    ["cp over state.md via `.`", "cp /tmp/state.md ."],
    [
      "mv over the playbook via `plan/`",
      "mv /tmp/playbook-login-form.md plan/",
    ],
    ["cp -t plan", "cp -t plan /tmp/playbook-login-form.md"],
    ["install -t plan/", "install -D /tmp/playbook-login-form.md -t plan/"],
    ["rsync into plan/", "rsync -a /tmp/forged-plan/ plan/"],
    [
      "cp -r a forged records tree into .claude/",
      "cp -r /tmp/fake/playbook .claude/",
    ],
    [
      "cp hook settings into .claude/ (BLOCK in strict)",
      "cp /tmp/settings.json .claude/",
    ],
    ["cp -r hooks into .git/ (HARD_BLOCK)", "cp -r /tmp/hooks .git/"],
  ])("F2 folder destination: %s", (_name, command) => {
    expectDenied(repo.bash(command));
  });

  // F3: deleting or moving a folder that CONTAINS guarded files is not seen: it wipes the post-loop lock, every
  // record and .claude/settings.json (which unregisters the hook itself), or every playbook.
  it.each([
    ["rm -rf .claude", "rm -rf .claude"],
    ["mv .claude away", "mv .claude /tmp/claude-backup"],
    ["find -delete inside .claude", "find .claude -name '*.json' -delete"],
    ["rm -rf plan", "rm -rf plan"],
    ["mv plan away", "mv plan /tmp/plan-backup"],
  ])("F3 parent folder: %s", (_name, command) => {
    expectDenied(repo.bash(command));
  });

  // F4: `cd` targets are each resolved against the starting cwd, not one after the other, so a second cd escapes.
  it("F4 chained cd: `cd src && cd ../plan && echo x > playbook-login-form.md`", () => {
    expectDenied(
      repo.bash("cd src && cd ../plan && echo x > playbook-login-form.md"),
    );
  });

  // F5: symlinks are resolved when the hook runs; a link created by the same line does not exist yet, so the write
  // through it lands in the records folder unseen. `ln -s` pointing AT a guarded folder is not refused either.
  it("F5 symlink made and written through in one line", () => {
    const link = `/tmp/playbook-review-link-${process.pid}-never-created`;
    expectDenied(
      repo.bash(
        `ln -s ${repo.dir}/.claude/playbook ${link} && cp /tmp/forged.json ${link}/records/`,
      ),
    );
  });

  // F6: a hard link gives the playbook a second, unguarded name; `cat x > src/pb.md` (or an Edit of it) then rewrites
  // the playbook's bytes. Only the link NAME is treated as written, never the guarded source.
  it("F6 hard link to the playbook: `ln plan/playbook-login-form.md src/pb.md`", () => {
    expectDenied(repo.bash(`ln ${PLAYBOOK} src/pb.md`));
  });

  // F7: interpreter code that builds the path from parts (pathlib, os.path.join, path.join, chdir) is not seen:
  // pathMentions() only looks at single words with a slash.
  it.each([
    [
      "python pathlib parts",
      "python3 -c \"import pathlib; p=pathlib.Path('plan','playbook-login-form.md'); p.write_text(p.read_text().replace('- [ ]','- [x]'))\"",
    ],
    [
      "python chdir",
      "python3 -c \"import os; os.chdir('plan'); open('playbook-login-form.md','a').write('x')\"",
    ],
    [
      "node path.join",
      "node -e \"const p=require('path').join('plan','playbook-login-form.md'); require('fs').appendFileSync(p,'x')\"",
    ],
  ])("F7 inline code: %s", (_name, command) => {
    expectDenied(repo.bash(command));
  });

  // F8: git subcommands that write the work tree are not classified: `git rm` deletes state.md (after which a Write
  // may create it with any `security`, see F12), `git mv -f` puts an unchecked plan/ file over the playbook, and
  // `git apply` applies a patch written to /tmp.
  it.each([
    ["git rm state.md", "git rm -q state.md"],
    ["git mv -f over the playbook", `git mv -f plan/notes.md ${PLAYBOOK}`],
    ["git apply", "git apply /tmp/tick-p1.1.diff"],
  ])("F8 git writes: %s", (_name, command) => {
    expectDenied(repo.bash(command));
  });

  // F9: in-place editors and extractors other than sed/perl/ruby are not classified at all.
  it.each([
    [
      "gawk -i inplace",
      `awk -i inplace '{sub(/- \\[ \\]/,"- [x]")}1' ${PLAYBOOK}`,
    ],
    ["ed", "ed -s state.md <<< $',s/strict/developer/\\nw'"],
    ["vim -c ... wq", "vim -es -c '%s/strict/developer/|wq' state.md"],
    ["busybox sed -i", "busybox sed -i s/strict/developer/ state.md"],
    ["tar -x into .claude", "tar -xf /tmp/forged.tar -C .claude"],
  ])("F9 unclassified writer: %s", (_name, command) => {
    expectDenied(repo.bash(command));
  });

  // F10: a script written by a here-document and run by a shell on the same line is never analysed (only
  // `sh <<EOF` and `bash -c` are).
  it("F10 here-document script then `bash /tmp/t.sh`", () => {
    expectDenied(
      repo.bash(
        "cat > /tmp/t.sh <<'EOF'\nsed -i s/strict/developer/ state.md\nEOF\nbash /tmp/t.sh",
      ),
    );
  });

  // F11: the PowerShell tool's command goes through the Bash analyzer, which knows no cmdlet: Set-Content,
  // Copy-Item and Remove-Item on guarded files pass.
  it.each([
    [
      "Set-Content state.md",
      "Set-Content -Path state.md -Value 'security: developer'",
    ],
    [
      "Copy-Item over the playbook",
      "Copy-Item C:\\tmp\\forged.md plan\\playbook-login-form.md -Force",
    ],
    ["Remove-Item -Recurse .claude", "Remove-Item -Recurse -Force .claude"],
  ])("F11 PowerShell: %s", (_name, command) => {
    expectDenied(repo.pre("PowerShell", { command }));
  });
});

describe("BYPASSES: scripts the line does not spell out", () => {
  let repo: GuardedRepo;
  beforeAll(() => {
    repo = createGuardedRepo({
      files: {
        "scripts/tick.sh":
          "#!/bin/sh\nsed -i 's/- \\[ \\]/- [x]/' plan/playbook-login-form.md\n",
        "scripts/lower.py":
          "from pathlib import Path\np = Path('state.md')\np.write_text(p.read_text().replace('strict', 'developer'))\n",
        "scripts/nested.sh": "#!/bin/bash\nbash scripts/tick.sh\n",
        "scripts/ok.sh": "#!/bin/sh\nnpm test\n",
        // playbook's own CLI names its files everywhere; running it is the repair path, not a bypass.
        "node_modules/.bin/playbook":
          "#!/usr/bin/env node\nconst state = 'state.md'; const runtime = '.claude/playbook/records';\n",
        // A bundle names many files; only hand-written programs (64 KB or less) are read for names.
        "tools/bundle.js": `// ${"x".repeat(70 * 1024)}\nwriteFileSync('state.md', '')\n`,
        "scripts/env-python":
          "#!/usr/bin/env python3\nopen('state.md', 'w').write('')\n",
      },
    });
  });

  // F18: a script piped into a shell or an interpreter is never analysed.
  it.each([
    ['echo "sed -i s/strict/developer/ state.md" | bash'],
    ["printf 'rm -f plan/playbook-login-form.md\\n' | sh -s"],
    [`echo "open('state.md','w').write('')" | python3`],
  ])("F18 piped script: %s", (command) => {
    expectDenied(repo.bash(command));
  });

  // F19: a script file written earlier (by Write, which is allowed outside guarded paths) and run now is never read.
  it.each([
    ["bash scripts/tick.sh"],
    ["sh ./scripts/tick.sh"],
    ["./scripts/tick.sh"],
    ["source scripts/tick.sh"],
    ["python3 scripts/lower.py"],
    ["bash scripts/nested.sh"],
    ["scripts/env-python"],
    ["cd scripts && ./tick.sh"],
  ])("F19 script file: %s", (command) => {
    expectDenied(repo.bash(command));
  });

  it.each([
    ["bash scripts/ok.sh"],
    ["./scripts/ok.sh && npm test"],
    ["bash scripts/missing.sh"],
    ["./node_modules/.bin/playbook status"],
    ["node tools/bundle.js"],
  ])("F19 harmless or missing script: %s", (command) => {
    expectAllowed(repo.bash(command));
  });
});

describe("BYPASSES: package scripts a line runs by name", () => {
  let repo: GuardedRepo;
  beforeAll(() => {
    repo = createGuardedRepo({
      files: {
        "package.json": JSON.stringify({
          name: "app",
          scripts: {
            tick: "sed -i 's/- \\[ \\]/- [x]/' plan/playbook-login-form.md",
            pretest: "echo ok",
            test: "node --test",
            prelint: "rm -f plan/playbook-login-form.md",
            lint: "eslint .",
            chain: "npm run tick",
            start: "node server.js",
          },
        }),
        "web/package.json": JSON.stringify({
          scripts: {
            build: "echo done > plan/playbook-login-form.md",
            postinstall: "touch .claude/playbook/post-loop.json",
          },
        }),
      },
    });
  });

  // F20: `npm run X` runs whatever package.json says X is; the line itself names no file.
  it.each([
    ["npm run tick"],
    ["npm run-script tick"],
    ["npm run tick -- --silent"],
    ["yarn tick"],
    ["yarn run tick"],
    ["pnpm tick"],
    ["pnpm run tick"],
    ["bun run tick"],
    ["npm run lint"],
    ["npm run chain"],
    ["cd web && npm run build"],
    ["npm --prefix web run build"],
    ["cd web && npm ci"],
    ["yarn --cwd web"],
  ])("F20 package script: %s", (command) => {
    expectDenied(repo.bash(command), "package.json");
  });

  it.each([
    ["npm test"],
    ["npm run test"],
    ["npm start"],
    ["yarn install"],
    ["npm run missing"],
    ["npm install"],
  ])("F20 harmless or missing package script: %s", (command) => {
    expectAllowed(repo.bash(command));
  });
});

describe("BYPASSES: make targets a line runs by name", () => {
  let repo: GuardedRepo;
  beforeAll(() => {
    repo = createGuardedRepo({
      files: {
        Makefile: [
          "PLAYBOOK := plan/playbook-login-form.md",
          "",
          "all: build",
          "",
          "build:",
          "\tnpm run build",
          "",
          "tick: prepare",
          "\t@sed -i 's/- \\[ \\]/- [x]/' plan/playbook-login-form.md",
          "",
          "prepare:",
          "\techo preparing",
          "",
          "tick-var:",
          "\tsed -i 's/- \\[ \\]/- [x]/' $(PLAYBOOK)",
          "",
          "clean-plan:",
          "\t-rm -f plan/playbook-login-form.md",
          "",
          "release: tick",
          "\techo released",
          "",
          "test:",
          "\tnode --test",
          "",
        ].join("\n"),
        "tools/Makefile": "lower:\n\tsed -i s/strict/developer/ ../state.md\n",
        "package.json": JSON.stringify({ scripts: { build: "tsc" } }),
      },
    });
  });

  // F21: `make X` runs the recipe the Makefile gives X (and its prerequisites); the line names no file.
  it.each([
    ["make tick"],
    ["make clean-plan"],
    ["make tick-var"],
    ["make release"],
    ["make -C tools lower"],
    ["cd tools && make lower"],
    ["make -f Makefile tick"],
    ["make -j4 test tick"],
  ])("F21 make target: %s", (command) => {
    expectDenied(repo.bash(command), "Makefile");
  });

  it.each([["make"], ["make test"], ["make build"], ["make missing"]])(
    "F21 harmless or missing make target: %s",
    (command) => {
      expectAllowed(repo.bash(command));
    },
  );
});

describe("BYPASSES: just recipes a line runs by name", () => {
  let repo: GuardedRepo;
  beforeAll(() => {
    repo = createGuardedRepo({
      files: {
        justfile: [
          'book := "plan/playbook-login-form.md"',
          "alias t := tick",
          "",
          "default: test",
          "",
          "test:",
          "    node --test",
          "",
          "tick: test",
          "    @sed -i 's/- \\[ \\]/- [x]/' {{book}}",
          "",
          "release: tick",
          "    echo released",
          "",
          "lower:",
          "    #!/usr/bin/env python3",
          "    open('state.md', 'w').write('')",
          "",
        ].join("\n"),
        "tools/sub/.keep": "",
      },
    });
  });

  // F22: `just X` runs what the justfile says X is.
  it.each([
    ["just tick"],
    ["just t"],
    ["just release"],
    ["just lower"],
    ["cd tools/sub && just tick"],
    ["just --justfile justfile tick"],
  ])("F22 just recipe: %s", (command) => {
    expectDenied(repo.bash(command), "justfile");
  });

  it.each([["just"], ["just test"], ["just --list"], ["just missing"]])(
    "F22 harmless or listing just command: %s",
    (command) => {
      expectAllowed(repo.bash(command));
    },
  );
});

describe("BYPASS: lowering security through state.md", () => {
  // F12: the mode lived in state.md, which the agent may always write. It lives in .claude/playbook.json now, so a
  // state.md that says `developer` lowers nothing.
  it("F12 a state.md saying `security: developer` leaves the guards strict", () => {
    const repo = createGuardedRepo();
    const state = SAMPLE_STATE.replace(
      "toolstack: A",
      "security: developer\ntoolstack: A",
    );
    expect(state).toContain("security: developer");
    writeFileSync(repo.path("state.md"), state);
    expectDenied(
      repo.pre("Write", {
        file_path: repo.path(".claude/settings.json"),
        content: "{}\n",
      }),
      "security is strict",
    );
  });
});

describe("FALSE BLOCKS: ordinary work that is denied", () => {
  let repo: GuardedRepo;
  beforeAll(() => {
    repo = createGuardedRepo();
  });

  // F13: the inner `rm` of `find -exec` shares the find's text, so targetsOf() hands it the find ROOT (`.`) and the
  // very common cleanup is refused as "would delete the whole repository" (the `-delete` form is allowed).
  it("F13 `find . -type d -name __pycache__ -exec rm -rf {} +`", () => {
    expectAllowed(
      repo.bash("find . -type d -name __pycache__ -exec rm -rf {} +"),
    );
  });

  // F17: the folder a glob starts in was judged as the deleted path, so `rm -rf *.pyc` at the root read as "would
  // delete the whole repository".
  it.each([
    "rm -rf *.pyc",
    "rm -rf build/*",
    "rm -f ./**/*.orig",
    "find . -name '*.pyc' -exec rm -f {} \\;",
    "find src -iname '*.TMP' -exec rm {} +",
  ])("F17 narrow glob delete: %s", (command) => {
    expectAllowed(repo.bash(command));
  });

  it.each([
    ["rm -rf ../*", "`rm -rf ../*`"],
    ["rm -rf ~/*", "your home folder"],
    ["find . -name .git -exec rm -rf {} +", ".git"],
    [
      "find . -type d -name plan -exec rm -rf {} +",
      "plan/playbook-login-form.md",
    ],
    ["find . -name '*.md' -o -name x -exec rm {} +", "only when it runs"],
  ])("F17 a glob that still reaches what matters: %s", (command, reason) => {
    const reply = repo.bash(command);
    expectDenied(reply);
    expect(reply.reason).toContain(reason);
  });

  // F14 (decided, docs/decisions.md; revisited with the trust boundary): a `$VAR` target set by `mktemp` in the same
  // line is a fresh folder in the temp directory, so deleting it is routine; one the line does not set stays refused,
  // and the reason must say so.
  it('F14 `tmp=$(mktemp -d) && ... && rm -rf "$tmp"` runs; `rm -rf "$TMP_DIR"` from elsewhere stays refused, with the reason', () => {
    const fresh = repo.bash(
      'tmp=$(mktemp -d) && cp src/app.ts "$tmp"/ && rm -rf "$tmp"',
    );
    expect(fresh.reason).toBe("");
    expect(fresh.decision).toBeNull();
    const reply = repo.bash('cp src/app.ts "$TMP_DIR"/ && rm -rf "$TMP_DIR"');
    expect(reply.decision).toBe("deny");
    expect(reply.reason).toContain("only when it runs");
  });

  // F15 (decided): copying onto a playbook path from the shell stays refused; the reason names the Write tool.
  it("F15 `cp plan/template/... plan/playbook-new.md` stays refused, pointing at the Write tool", () => {
    const withTemplate = createGuardedRepo({
      files: {
        "plan/template/playbook-format.md": SAMPLE_PLAYBOOK,
      },
    });
    const reply = withTemplate.bash(
      "cp plan/template/playbook-format.md plan/playbook-new.md",
    );
    expect(reply.decision).toBe("deny");
    expect(reply.reason).toContain("Edit or Write tool");
  });

  // F16: for a CRLF playbook, a multi-line Edit goes through simulateToolEdit's "loose" path, which also rewrites
  // every typographic quote in the WHOLE file; a criterion with “…” then looks changed and strict scope blocks an
  // edit that touches no criterion at all.
  it("F16 multi-line Edit of max_iterations in a CRLF playbook with typographic quotes", () => {
    const playbook = SAMPLE_PLAYBOOK.replace(
      '"Email is required"',
      "\u201CEmail is required\u201D",
    )
      .replace("reviewed: false", "reviewed: true")
      .replace(/\n/g, "\r\n");
    const crlf = createGuardedRepo({ playbook });
    expectAllowed(
      crlf.pre("Edit", {
        file_path: crlf.path(PLAYBOOK),
        old_string: "**status**: in_progress\n**max_iterations**: 5",
        new_string: "**status**: in_progress\n**max_iterations**: 6",
      }),
    );
  });
});
