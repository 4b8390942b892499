import {
  copyFileSync,
  existsSync,
  readFileSync,
  readdirSync,
  statSync,
} from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { childEnv } from "../helpers/run-cli.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../helpers/sample-docs.ts";
import { HOOK_BUNDLE, runHook } from "../helpers/run-hook.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const CACHE = ".claude/playbook/cache";
const HOOK_MAIN = HOOK_BUNDLE.replace(/hook\.cjs$/, "hook-main.cjs");
const HOOK_SESSION = HOOK_BUNDLE.replace(/hook\.cjs$/, "hook-session.cjs");
// The summaries, and the playbook's chunk trees (chunks/) from the parse on the miss.
const CACHE_FILES = [
  "chunks",
  "plan__playbook-login-form.md.json",
  "state.md.json",
];

function project() {
  return createTempProject({
    "state.md": SAMPLE_STATE,
    "plan/playbook-login-form.md": SAMPLE_PLAYBOOK,
  });
}

function preToolUse(cwd: string) {
  return {
    session_id: "s",
    transcript_path: "/dev/null",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: `${cwd}/src/login-form.tsx` },
  };
}

/** Content and inode of every cache file: a miss rewrites a file through a rename, which changes its inode. */
function snapshotCache(
  dir: string,
): Record<string, { text: string; ino: number }> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((name) => statSync(`${dir}/${name}`).isFile())
      .sort()
      .map((name) => [
        name,
        {
          text: readFileSync(`${dir}/${name}`, "utf8"),
          ino: statSync(`${dir}/${name}`).ino,
        },
      ]),
  );
}

describe("dist/hook.cjs", () => {
  it.each(["micromark", "mdast", "unified", "remark", "handlebars", "octokit"])(
    "does not bundle %s (tool or session bundle)",
    (name) => {
      expect(readFileSync(HOOK_MAIN, "utf8").toLowerCase()).not.toContain(name);
      expect(readFileSync(HOOK_SESSION, "utf8").toLowerCase()).not.toContain(
        name,
      );
    },
  );

  it.each(["node:crypto", "node:child_process", "node:os"])(
    "does not load %s on start (each costs the hook 2-4 ms; it is loaded only where needed)",
    (name) => {
      for (const bundle of [HOOK_MAIN, HOOK_SESSION])
        expect(readFileSync(bundle, "utf8")).not.toContain(
          `require("${name}")`,
        );
    },
  );

  it.each([
    [
      "PreToolUse",
      (dir: string) => ({
        ...preToolUse(dir),
        tool_name: "Edit",
        tool_input: {
          file_path: `${dir}/src/login-form.tsx`,
          old_string: "a",
          new_string: "b",
        },
      }),
    ],
    [
      "UserPromptSubmit",
      (dir: string) => ({
        ...preToolUse(dir),
        hook_event_name: "UserPromptSubmit",
        prompt: "add a logout button",
      }),
    ],
    [
      "Stop",
      (dir: string) => ({
        ...preToolUse(dir),
        hook_event_name: "Stop",
        stop_hook_active: false,
        last_assistant_message: "ok",
      }),
    ],
    [
      "SessionStart",
      (dir: string) => ({
        ...preToolUse(dir),
        hook_event_name: "SessionStart",
        source: "startup",
      }),
    ],
  ])(
    "%s loads none of node:crypto, child_process, os, perf_hooks, tty, net or worker_threads when the cache is warm",
    (event, payloadOf) => {
      const p = project();
      const payload = payloadOf(p.dir);
      runHook(event, payload); // fills the parse cache
      // A preload that reports, at exit, every built-in module the process loaded.
      p.write(
        "modules.cjs",
        'process.on("exit", () => require("node:fs").writeSync(2, "\\nMODULES " + JSON.stringify(process.moduleLoadList)));',
      );
      const result = runHook(event, payload, {
        env: { NODE_OPTIONS: `--require ${p.path("modules.cjs")}` },
      });
      const line = /MODULES (.*)/.exec(result.stderr)?.[1];
      expect(line).toBeDefined();
      const loaded = JSON.parse(line!) as string[];
      expect(loaded).toContain("NativeModule vm");
      // tty and net bring Node's stream modules with them, about 3 ms.
      for (const name of [
        "crypto",
        "child_process",
        "os",
        "perf_hooks",
        "tty",
        "net",
        // The watchdog's worker starts only before work that cannot be interrupted (a cold parse).
        "worker_threads",
      ])
        expect(loaded).not.toContain(`NativeModule ${name}`);
    },
  );

  it("is under 128 KB, with the markdown and shell parsers in their own bundles beside it", () => {
    // The tool bundle carries the tree fingerprint (a tick starts hashing while git walks: loading it lazily cost a tick
    // 2-4 ms), the parse cache's reader of subtasks on demand (a source Edit beside a 5,000-subtask playbook went
    // from about 70 ms to 35), the fail-closed checks of the trust boundary (bounded reads, the watchdog, the file
    // tools' reach) and the plan's door (documents under their own names, proof only in the approved plan, the note
    // for a refused shell write): docs/decisions.md. Both carry the check of the sandbox's derived lists against their
    // record (about 6 KB); the settings editor that rewrites them is dist/local-boundary.cjs, loaded only on a change.
    // The hand-over added the list of files the agent wrote (PostToolUse) and the merge policies' pending lock, and
    // to the session events Stop's look for a running archive job (about 1.8 KB). Every setup's spelling of the CLI
    // (replies name commands as the project runs them; the tool guard refuses a misspelled playbook call) added about
    // 2.2 KB to the tool bundle and 1.1 KB to the session bundle. The one error model (a required hint and a location
    // on every error the session events can raise) added 285 bytes to the session bundle.
    expect(statSync(HOOK_MAIN).size).toBeLessThan(128 * 1024);
    expect(statSync(HOOK_SESSION).size).toBeLessThan(118 * 1024);
    // The tool calls never load the session events' code (intent patterns, summaries, the Stop planner).
    expect(readFileSync(HOOK_MAIN, "utf8")).not.toContain("実装");
    // The loader is compiled without V8's code cache on every call: it reads the event, starts a tick's git, and
    // loads the bundle for the event, nothing more.
    expect(statSync(HOOK_BUNDLE).size).toBeLessThan(8 * 1024);
    expect(existsSync(HOOK_BUNDLE.replace(/hook\.cjs$/, "bash.cjs"))).toBe(
      true,
    );
    // The snapshot before a shell command that may change files is its own bundle, loaded only for such a call.
    expect(existsSync(HOOK_BUNDLE.replace(/hook\.cjs$/, "snapshot.cjs"))).toBe(
      true,
    );
    expect(readFileSync(HOOK_MAIN, "utf8")).not.toContain("diff-index");
    const parser = readFileSync(
      HOOK_BUNDLE.replace(/hook\.cjs$/, "parser.cjs"),
      "utf8",
    );
    expect(parser).toContain("micromark");
  });

  it("answers a PreToolUse event silently and caches state.md and the active playbook", () => {
    const p = project();

    const result = runHook("PreToolUse", preToolUse(p.dir));

    expect(result.status).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("");
    expect(readdirSync(p.path(CACHE)).sort()).toEqual(CACHE_FILES);
    const entry = JSON.parse(
      p.read(`${CACHE}/plan__playbook-login-form.md.json`),
    ) as {
      path: string;
      kind: string;
      summary: { goal: { summary: string } };
    };
    expect(entry).toMatchObject({
      path: "plan/playbook-login-form.md",
      kind: "playbook",
      summary: {
        goal: { summary: "Users can log in with email and password" },
      },
    });
  });

  it("answers the same with NODE_EXTRA_CA_CERTS naming a certificate file, as many machines set it, and says nothing on stderr", () => {
    // The suite runs its processes without the variable (test/global-setup.ts): this test keeps it on purpose.
    const certs = join(
      import.meta.dirname,
      "..",
      "fixtures",
      "certs",
      "ca.pem",
    );
    const p = project();
    const env = { NODE_EXTRA_CA_CERTS: certs };
    const read = runHook("PreToolUse", preToolUse(p.dir), { env });
    expect(read.status).toBe(0);
    expect(read.stdout).toBe("");
    expect(read.stderr).toBe("");
    const write = runHook(
      "PreToolUse",
      {
        ...preToolUse(p.dir),
        tool_name: "Write",
        tool_input: {
          file_path: `${p.dir}/.claude/playbook/records/x.json`,
          content: "{}",
        },
      },
      { env },
    );
    expect(write.stderr).toBe("");
    expect(JSON.parse(write.stdout)).toMatchObject({
      hookSpecificOutput: { permissionDecision: "deny" },
    });
  });

  it("answers from the cache on the next event without loading the parser", () => {
    const p = project();
    runHook("PreToolUse", preToolUse(p.dir));
    const before = snapshotCache(p.path(CACHE));
    // A copy of the hook with no parser.cjs beside it can only succeed on cache hits.
    const alone = p.path("hook-alone/hook.cjs");
    p.write("hook-alone/.keep", "");
    copyFileSync(HOOK_BUNDLE, alone);
    copyFileSync(HOOK_MAIN, alone.replace(/hook\.cjs$/, "hook-main.cjs"));

    const result = runHook("PreToolUse", preToolUse(p.dir), { bundle: alone });

    expect(result).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(snapshotCache(p.path(CACHE))).toEqual(before);
  });

  it.each([
    ["parser.cjs", ["hook-main.cjs"]],
    ["yaml.cjs", ["hook-main.cjs", "parser.cjs"]],
  ])(
    "needs dist/%s on a cache miss, and refuses a tool call it cannot check without it, saying to run doctor",
    (missing, present) => {
      const p = project();
      const alone = p.path("hook-alone/hook.cjs");
      p.write("hook-alone/.keep", "");
      copyFileSync(HOOK_BUNDLE, alone);
      for (const name of present)
        copyFileSync(
          HOOK_BUNDLE.replace(/hook\.cjs$/, name),
          alone.replace(/hook\.cjs$/, name),
        );

      const result = runHook("PreToolUse", preToolUse(p.dir), {
        bundle: alone,
      });

      expect(result.status).toBe(0);
      const reply = JSON.parse(result.stdout) as {
        hookSpecificOutput?: Record<string, unknown>;
      };
      expect(reply.hookSpecificOutput?.["permissionDecision"]).toBe("deny");
      const reason = String(
        reply.hookSpecificOutput?.["permissionDecisionReason"],
      );
      expect(reason).toContain(missing);
      // A bundle outside any project names its own CLI: the command works as written.
      expect(reason).toMatch(/run `node \S+\/hook-alone\/cli\.mjs doctor`/);
      expect(existsSync(p.path(`${CACHE}/state.md.json`))).toBe(false);
    },
  );

  it("keeps V8's code cache beside the bundle, and answers the same with a corrupt or missing cache", () => {
    const p = project();
    const copy = p.path("dist-copy/hook.cjs");
    p.write("dist-copy/.keep", "");
    for (const name of ["hook.cjs", "hook-main.cjs", "parser.cjs", "yaml.cjs"])
      copyFileSync(
        HOOK_BUNDLE.replace(/hook\.cjs$/, name),
        copy.replace(/hook\.cjs$/, name),
      );
    const cache = p.path("dist-copy/.hook-main.v8cache");

    const first = runHook("PreToolUse", preToolUse(p.dir), { bundle: copy });
    expect(existsSync(cache)).toBe(true);
    p.write("dist-copy/.hook-main.v8cache", "not a code cache");
    const corrupt = runHook("PreToolUse", preToolUse(p.dir), { bundle: copy });

    expect(first).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(corrupt).toEqual(first);
    expect(readFileSync(cache).length).toBeGreaterThan(1000);
  });

  it("loads the shell parser through its own code cache too, and answers the same with a corrupt one", () => {
    const p = project();
    const copy = p.path("dist-copy/hook.cjs");
    p.write("dist-copy/.keep", "");
    for (const name of [
      "hook.cjs",
      "hook-main.cjs",
      "parser.cjs",
      "yaml.cjs",
      "bash.cjs",
      "ignore.cjs",
      "local-boundary.cjs",
    ])
      copyFileSync(
        HOOK_BUNDLE.replace(/hook\.cjs$/, name),
        copy.replace(/hook\.cjs$/, name),
      );
    const cache = p.path("dist-copy/.bash.v8cache");
    const bash = (command: string) =>
      runHook(
        "PreToolUse",
        {
          ...preToolUse(p.dir),
          tool_name: "Bash",
          tool_input: { command },
        },
        { bundle: copy },
      );

    const allowed = bash("git status");
    expect(existsSync(cache)).toBe(true);
    const refused = bash("rm -rf ~+");
    p.write("dist-copy/.bash.v8cache", "not a code cache");

    expect(bash("git status")).toEqual(allowed);
    expect(bash("rm -rf ~+")).toEqual(refused);
    expect(refused.stdout).toContain('"deny"');
    expect(readFileSync(cache).length).toBeGreaterThan(1000);
  });

  it("does nothing with PLAYBOOK_DISABLE=1", () => {
    const p = project();

    const result = runHook("PreToolUse", preToolUse(p.dir), {
      env: { PLAYBOOK_DISABLE: "1" },
    });

    expect(result).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(existsSync(p.path(".claude"))).toBe(false);
  });

  it.each([
    ["text that is not JSON", "not json"],
    ["truncated JSON", '{"session_id":"s","cwd":'],
    ["nothing", ""],
  ])("exits 0 and tells the user when stdin holds %s", (_name, input) => {
    const result = runHook("PreToolUse", input);

    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      systemMessage: `playbook hook: the PreToolUse event on stdin is ${input === "" ? "empty" : "not JSON"}; nothing was checked.`,
    });
  });

  it.each([["null"], ["42"], ["[]"], ['"x"'], ["true"]])(
    "exits 0 and tells the user when stdin holds JSON that is not an object: %s",
    (input) => {
      const result = runHook("PreToolUse", input);

      expect(result.status).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        systemMessage:
          "playbook hook: the PreToolUse event on stdin is not a JSON object; nothing was checked.",
      });
    },
  );

  it.each([
    ["no argument", []],
    ["an empty argument", [""]],
  ])(
    "exits 0 and says the event name is missing with %s",
    (_name, args: string[]) => {
      const p = project();
      const result = spawnSync(process.execPath, [HOOK_BUNDLE, ...args], {
        cwd: p.dir,
        env: childEnv(),
        input: JSON.stringify(preToolUse(p.dir)),
        encoding: "utf8",
        timeout: 20_000,
      });

      expect(result.status).toBe(0);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(
        /^playbook hook: the event name argument is missing \(.*settings\.json.*\); nothing was checked\.\n$/,
      );
      expect(existsSync(p.path(".claude"))).toBe(false);
    },
  );

  it("reads the project named by CLAUDE_PROJECT_DIR rather than the payload's cwd", () => {
    const named = project();
    const other = project();

    const result = runHook("PreToolUse", preToolUse(other.dir), {
      env: { CLAUDE_PROJECT_DIR: named.dir },
    });

    expect(result).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(readdirSync(named.path(CACHE)).sort()).toEqual(CACHE_FILES);
    expect(existsSync(other.path(".claude"))).toBe(false);
  });
});

/**
 * Starts the hook, writes `input`, and closes stdin only when `close` is set; resolves when the hook exits, or when
 * the test ends a hook that never would (`endedBy: "the test"`, after a minute).
 */
async function runHookStreaming(input: string, close: boolean) {
  const child = spawn(process.execPath, [HOOK_BUNDLE, "PreToolUse"], {
    cwd: tmpdir(),
    env: childEnv(),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // The hook may stop reading before the input is written: that is the behaviour under test.
  child.stdin.on("error", () => undefined);
  child.stdin.write(input);
  if (close) child.stdin.end();
  const { status, endedBy } = await new Promise<{
    status: number | null;
    endedBy: "itself" | "the test";
  }>((resolve) => {
    const guard = setTimeout(() => {
      child.kill("SIGKILL");
      resolve({ status: null, endedBy: "the test" });
    }, 60_000);
    child.on("exit", (code) => {
      clearTimeout(guard);
      resolve({ status: code, endedBy: "itself" });
    });
  });
  child.stdin.destroy();
  return { status, endedBy, stdout, stderr };
}

describe("dist/hook.cjs stdin bounds", () => {
  it("reads a shell pipe, and gives up on one that stays open, exiting 0", () => {
    const p = project();
    const event = JSON.stringify(preToolUse(p.dir)).replace(/'/g, "'\\''");
    const piped = spawnSync(
      "sh",
      [
        "-c",
        `printf '%s' '${event}' | "${process.execPath}" "${HOOK_BUNDLE}" PreToolUse`,
      ],
      { env: childEnv({ CLAUDE_PROJECT_DIR: p.dir }), encoding: "utf8" },
    );
    expect(piped).toMatchObject({ status: 0, stdout: "", stderr: "" });
    expect(readdirSync(p.path(CACHE)).sort()).toEqual(CACHE_FILES);

    const open = spawnSync(
      "sh",
      [
        "-c",
        `(printf '{"a":'; sleep 6) | "${process.execPath}" "${HOOK_BUNDLE}" PreToolUse; echo "exit $?" >&2`,
      ],
      { env: childEnv(), encoding: "utf8", timeout: 15_000 },
    );
    expect(JSON.parse(open.stdout)).toEqual({
      systemMessage:
        "playbook hook: no complete event on stdin within 3 s; nothing was checked.",
    });
    expect(open.stderr).toBe("exit 0\n");
  });

  it("gives up on a socket stdin that never closes, says so and ends by itself", async () => {
    const result = await runHookStreaming('{"session_id":"s",', false);

    // A read left pending in libuv's thread pool would keep process.exit waiting: the hook ends with SIGKILL after
    // its reply, which Claude Code reads whatever the exit status.
    expect(result.endedBy).toBe("itself");
    expect(JSON.parse(result.stdout)).toEqual({
      systemMessage:
        "playbook hook: no complete event on stdin within 3 s; nothing was checked.",
    });
  });

  it("refuses a PreToolUse call larger than 64 MiB without reading it all: it cannot be checked", async () => {
    const result = await runHookStreaming(
      `{"padding":"${"x".repeat(65 * 1024 * 1024)}"}`,
      false,
    );

    expect(result.status).toBe(0);
    const reply = JSON.parse(result.stdout) as {
      hookSpecificOutput: Record<string, string>;
    };
    expect(reply.hookSpecificOutput["permissionDecision"]).toBe("deny");
    expect(reply.hookSpecificOutput["permissionDecisionReason"]).toContain(
      "larger than 64 MiB",
    );
  });
});

describe("dist/hook.cjs and the lint configuration", () => {
  it("caches diagnostics made with .claude/playbook.json, as playbook lint reports them", () => {
    const project = createTempProject({
      "state.md": SAMPLE_STATE,
      "plan/playbook-login-form.md": SAMPLE_PLAYBOOK,
      ".claude/playbook.json": JSON.stringify({
        lint: { bannedPhrases: ["exports"] },
      }),
    });

    const result = runHook("SessionStart", {
      session_id: "s",
      cwd: project.dir,
      hook_event_name: "SessionStart",
      source: "startup",
    });

    expect(result.status).toBe(0);
    const entry = JSON.parse(
      project.read(".claude/playbook/cache/plan__playbook-login-form.md.json"),
    ) as {
      summary: { diagnostics: { code: string }[] };
    };
    expect(entry.summary.diagnostics.map((d) => d.code)).toEqual([
      "criterion-vague",
    ]);
  });
});
