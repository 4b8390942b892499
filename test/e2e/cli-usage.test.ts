import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.ts";
import { stateDoc } from "../helpers/sample-docs.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const ESC = "\u001b";
const MISSING_DIR = "/nonexistent-playbook-dir";

/** citty colours its own output unless it detects a test run or CI; remove those hints as a user's shell would. */
const USER_SHELL = {
  TEST: undefined,
  NODE_ENV: undefined,
  VITEST: undefined,
  VITEST_WORKER_ID: undefined,
  VITEST_POOL_ID: undefined,
};

function project() {
  return createTempProject({
    "state.md": stateDoc({
      active: "null",
      branch: "feat/usage",
      phase: "p1",
    }),
  });
}

interface JsonError {
  error: { code: string; message: string; hint: string };
}

describe("playbook --cwd", () => {
  it.each([["lint"], ["status"]])(
    "%s exits 2 and names a --cwd directory that does not exist",
    (command) => {
      const result = runCli([command, "--cwd", MISSING_DIR], {
        cwd: project().dir,
      });

      expect(result.status).toBe(2);
      expect(result.stdout).toBe("");
      const lines = result.stderr.trimEnd().split("\n");
      expect(lines[0]).toBe(`error No such directory: ${MISSING_DIR}`);
      expect(lines[1]).toContain("--cwd");
      expect(result.stderr).not.toContain("state.md");
    },
  );

  it("exits 2 when --cwd names a file", () => {
    const p = project();

    const result = runCli(["lint", "--cwd", "state.md"], { cwd: p.dir });

    expect(result.status).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe(
      `error Not a directory: ${p.path("state.md")}`,
    );
  });

  it.each([
    [["lint", "--cwd"]],
    [["lint", "--cwd="]],
    [["lint", "--cwd", ""]],
    [["lint", "--cwd", "--json"]],
    [["lint", "--cwd", "--no-json"]],
    [["status", "--cwd", "-x"]],
    [["status", "--cwd=--json"]],
  ])("exits 2 when --cwd has no directory: %j", (args) => {
    const result = runCli(args, { cwd: project().dir });

    expect(result.status).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe("error --cwd needs a directory.");
    expect(result.stdout).not.toContain("state.md");
  });
});

describe("a mistyped command, option or value", () => {
  it.each([
    [
      ["stauts"],
      "Unknown command stauts, expected one of",
      "Did you mean `playbook status`?",
    ],
    [
      ["lint", "--jsno"],
      "Unknown option --jsno for `playbook lint`",
      "Did you mean --json?",
    ],
    [["init", "--lang"], "--lang needs one of en, ja.", "Write `--lang en`."],
    [
      ["init", "--toolstack"],
      "--toolstack needs one of A, B, C.",
      "Write `--toolstack A`.",
    ],
  ])(
    "%j: says what it most likely meant, and exits 2",
    (args, message, next) => {
      const result = runCli(args, { cwd: project().dir });
      expect(result.status).toBe(2);
      const [first, second] = result.stderr.split("\n");
      expect(first).toContain(message);
      expect(`${first} ${second}`).toContain(next);
    },
  );
});

describe("playbook usage errors with --json", () => {
  it.each([
    [
      ["lint", "--bogus", "--json"],
      "Unknown option --bogus for `playbook lint`",
    ],
    [
      ["status", "--json", "--jsn"],
      "Unknown option --jsn for `playbook status`",
    ],
    [
      ["lint", "--json", "--cwd", MISSING_DIR],
      `No such directory: ${MISSING_DIR}`,
    ],
    [["status", "--json", "--cwd"], "--cwd needs a directory"],
    [["lint", "--cwd", "--json"], "--cwd needs a directory"],
    [["frobnicate", "--json"], "Unknown command frobnicate"],
    [["--json"], "Unexpected option --json before the command"],
  ])(
    "prints one JSON error object on stdout and exits 2: %j",
    (args, message) => {
      const result = runCli(args, { cwd: project().dir, env: USER_SHELL });

      expect(result.status).toBe(2);
      const json = JSON.parse(result.stdout) as JsonError;
      expect(Object.keys(json)).toEqual(["error"]);
      expect(Object.keys(json.error)).toEqual(["code", "message", "hint"]);
      expect(json.error.code).toBe("E_USAGE");
      expect(json.error.message).toContain(message);
      expect(json.error.message).not.toContain(ESC);
      expect(json.error.hint).toMatch(
        /^(Did you mean [^?]+\? )?Run `playbook|--cwd/,
      );
      expect(result.stderr).toContain(message);
    },
  );

  it("prints nothing on stdout for a usage error without --json", () => {
    const result = runCli(["lint", "--bogus"], { cwd: project().dir });

    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
  });

  it("reports an unexpected error as E_INTERNAL JSON with exit 1", () => {
    const p = project();
    // Fault injection: a preloaded module makes the first thing the command asks of node throw.
    p.write(
      "boom.cjs",
      'process.cwd = () => { throw new TypeError("injected failure"); };\n',
    );

    const result = runCli(["lint", "--json"], {
      cwd: p.dir,
      env: { NODE_OPTIONS: `--require ${p.path("boom.cjs")}` },
    });

    expect(result.status).toBe(1);
    const json = JSON.parse(result.stdout) as JsonError;
    expect(json.error.code).toBe("E_INTERNAL");
    expect(json.error.message).toContain("injected failure");
    expect(json.error.hint).toContain("bug in playbook");
    // It says where to report, and the version to report, without another command.
    const version = runCli(["--version"]).stdout.trim();
    expect(json.error.hint).toContain(`playbook ${version}`);
    expect(json.error.hint).toMatch(
      /report it at https:\/\/|npm bugs playbook-kit/,
    );
    expect(result.stderr).toContain("internal error");
  });
});

describe("playbook with no command", () => {
  it.each([[["--bogus"]], [["--json", "lint"]]])(
    "exits 2 on an option before the command: %j",
    (args) => {
      const result = runCli(args, { cwd: project().dir });

      expect(result.status).toBe(2);
      expect(result.stderr).not.toContain("internal error");
      expect(result.stderr).toContain("Run `playbook --help`");
    },
  );
});

describe("playbook help colours", () => {
  it.each([
    ["no colour variable", {}, false],
    ["FORCE_COLOR=0", { FORCE_COLOR: "0" }, false],
    ["FORCE_COLOR=false", { FORCE_COLOR: "false" }, false],
    [
      "NO_COLOR=1 and FORCE_COLOR=1",
      { NO_COLOR: "1", FORCE_COLOR: "1" },
      false,
    ],
    ["FORCE_COLOR=1", { FORCE_COLOR: "1" }, true],
  ])(
    "piped help is coloured or not with %s",
    (_name, env: Record<string, string>, coloured) => {
      for (const args of [["--help"], ["lint", "--help"], ["status", "-h"]]) {
        const result = runCli(args, {
          cwd: project().dir,
          env: { ...USER_SHELL, ...env },
        });

        expect(result.status).toBe(0);
        expect(result.stdout).toContain("USAGE");
        expect(result.stdout.includes(ESC)).toBe(coloured);
      }
    },
  );
});

describe("CLI conventions", () => {
  const COMMANDS = [
    "lint",
    "status",
    "review",
    "crit",
    "verify",
    "confirm",
    "hook",
    "archive",
    "post-loop",
    "loop",
    "init",
    "check",
    "doctor",
    "new",
    "uninstall",
    "undo",
    "statusline",
  ];

  it.each(COMMANDS)("`playbook %s --version` prints the version", (command) => {
    const root = runCli(["--version"]);
    const result = runCli([command, "--version"], { cwd: project().dir });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(root.stdout);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("`playbook help` and `playbook help <command>` show the same text as --help", () => {
    expect(runCli(["help"]).stdout).toBe(runCli(["--help"]).stdout);
    const help = runCli(["help", "verify"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(runCli(["verify", "--help"]).stdout);
    expect(help.stdout).toContain("USAGE playbook verify");
  });

  it("`playbook help <typo>` suggests the command", () => {
    const result = runCli(["help", "verfy"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Unknown command verfy");
    expect(result.stderr).toContain("playbook help verify");
  });

  it.each([
    ["verify", "playbook verify [OPTIONS] <SUBTASK>"],
    ["confirm", "playbook confirm [OPTIONS] <SUBTASK>"],
    ["crit", "playbook crit [OPTIONS] <ACTION> <PHASE> <VERDICT>"],
    ["review", "playbook review [OPTIONS] <ACTION>"],
    ["loop", "playbook loop [OPTIONS] <ACTION> [PROMPT]"],
    ["new", "playbook new [OPTIONS] <NAME>"],
    ["init", "playbook init [OPTIONS] [DIR]"],
  ])(
    "the usage of %s marks required arguments as required",
    (command, usage) => {
      const result = runCli([command, "--help"], { env: USER_SHELL });
      expect(
        result.stdout.replace(new RegExp(`${ESC}\\[[0-9;]*m`, "g"), ""),
      ).toContain(usage);
    },
  );

  it("a missing required argument still gets the command's own message, not the parser's", () => {
    const result = runCli(["verify"], { cwd: project().dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Missing the subtask id");
  });

  it("`playbook statusline --cwd <dir>` shows that project, as the README says every command does", () => {
    const p = project();
    const elsewhere = createTempProject({});
    const result = runCli(["statusline", "--cwd", p.dir], {
      cwd: elsewhere.dir,
      env: { NO_COLOR: "1", CLAUDE_PROJECT_DIR: undefined },
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain("no state.md");
    expect(
      runCli(["statusline"], {
        cwd: elsewhere.dir,
        env: { NO_COLOR: "1", CLAUDE_PROJECT_DIR: undefined },
      }).stdout,
    ).toContain("no state.md");
  });
});
