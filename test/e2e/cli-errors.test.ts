import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.ts";
import { SAMPLE_PLAYBOOK, SAMPLE_STATE } from "../helpers/sample-docs.ts";
import {
  createTempProject,
  createTempRepository,
  type TempProject,
} from "../helpers/temp-project.ts";

const PLAYBOOK = "plan/playbook-login-form.md";

/** Not a person in Claude Code's shell: the commands judge only what each test sets up. */
const ENV = { CLAUDECODE: undefined };

interface Location {
  file: string;
  line?: number;
  column?: number;
}

interface JsonError {
  error: { code: string; message: string; hint: string; location?: Location };
}

function cli(p: TempProject, args: string[]) {
  return runCli(args, { cwd: p.dir, env: ENV });
}

/** The one JSON object `--json` prints on stdout when the command fails. */
function failure(stdout: string): JsonError["error"] {
  const json = JSON.parse(stdout) as JsonError;
  expect(Object.keys(json)).toEqual(["error"]);
  return json.error;
}

describe("one error model, end to end: every failure says what to do next, and where when it is about a place in a file", () => {
  it("a malformed .claude/settings.json: init --json names the file, line and column, stderr starts with them, nothing is written", () => {
    const settings = '{\n  "model": "opus",\n  oops\n}\n';
    const p = createTempRepository({ ".claude/settings.json": settings });

    const result = cli(p, ["init", "--yes", "--json"]);

    expect(result.status).toBe(1);
    const error = failure(result.stdout);
    expect(error).toEqual({
      code: "E_CONFIG",
      message: expect.stringMatching(
        /^playbook cannot merge its settings into \.claude\/settings\.json: it is not valid JSON/,
      ) as string,
      hint: expect.stringContaining("then run `playbook init` again") as string,
      location: { file: ".claude/settings.json", line: 3, column: 3 },
    });
    expect(result.stderr.split("\n")[0]).toBe(
      `.claude/settings.json:3:3  error  ${error.message}`,
    );
    expect(result.stderr.split("\n")[1]).toBe(error.hint);
    expect(p.read(".claude/settings.json")).toBe(settings);
  });

  it("a playbook whose YAML does not parse: verify --json points where `playbook lint` points", () => {
    const p = createTempProject({
      "state.md": SAMPLE_STATE,
      [PLAYBOOK]: SAMPLE_PLAYBOOK.replace("issue: null", "issue: [unclosed"),
    });

    const result = cli(p, ["verify", "p1.1", "--json"]);

    expect(result.status).toBe(1);
    const error = failure(result.stdout);
    const lint = JSON.parse(cli(p, ["lint", PLAYBOOK, "--json"]).stdout) as {
      diagnostics: {
        code: string;
        file: string;
        line: number;
        column: number;
        message: string;
      }[];
    };
    const yaml = lint.diagnostics.find((d) => d.code.startsWith("yaml-"));
    expect(yaml).toBeDefined();
    expect(error).toEqual({
      code: "E_CONFIG",
      message: yaml?.message,
      hint: `Fix the YAML (\`playbook lint ${PLAYBOOK}\` lists every problem), then run the command again.`,
      location: { file: PLAYBOOK, line: yaml?.line, column: yaml?.column },
    });
  });

  it("state.md that names no active playbook points at its `active:` line", () => {
    const state = SAMPLE_STATE.replace(
      /active: .*/,
      "active: null # put aside",
    );
    const p = createTempProject({
      "state.md": state,
      [PLAYBOOK]: SAMPLE_PLAYBOOK,
    });

    const result = cli(p, ["verify", "p1.1", "--json"]);

    expect(result.status).toBe(1);
    const line =
      state.split("\n").findIndex((l) => l.startsWith("active:")) + 1;
    expect(failure(result.stdout)).toMatchObject({
      code: "E_CONFIG",
      hint: expect.stringContaining("Set `active:`") as string,
      location: { file: "state.md", line },
    });
  });

  it.each([
    [["frobnicate"], /^Unknown command frobnicate/],
    [["verify", "p1.1", "--timeout", "soon"], /^Unexpected --timeout soon/],
    [["review", "maybe"], /^Unexpected verdict maybe/],
  ])(
    "a usage error (%j) exits 2 with a hint and no location",
    (args, message) => {
      const p = createTempProject({ "state.md": SAMPLE_STATE });

      const result = cli(p, [...args, "--json"]);

      expect(result.status).toBe(2);
      const error = failure(result.stdout);
      expect(Object.keys(error)).toEqual(["code", "message", "hint"]);
      expect(error.code).toBe("E_USAGE");
      expect(error.message).toMatch(message);
      expect(error.hint).toMatch(/^(Did you mean [^?]+\? )?(Run|Write) /);
      expect(result.stderr.split("\n").slice(0, 2)).toEqual([
        `error ${error.message}`,
        error.hint,
      ]);
    },
  );
});
