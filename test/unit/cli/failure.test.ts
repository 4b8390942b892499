import { describe, expect, expectTypeOf, it } from "vitest";
import {
  GitCommandError,
  PushRejected,
} from "../../../src/adapters/git-port.ts";
import { GitHubError } from "../../../src/adapters/github-port.ts";
import { StepFailure } from "../../../src/app/archive/archive-steps.ts";
import pc from "picocolors";
import {
  formatFailure,
  formatFailureJson,
  toCliFailure,
} from "../../../src/cli/print/failure.ts";
import {
  InterruptedError,
  PlaybookError,
  type PlaybookErrorOptions,
} from "../../../src/core/errors.ts";
import {
  createRenderer,
  TemplateError,
} from "../../../src/render/render-template.ts";

const plain = pc.createColors(false);

/** What `--json` prints on stdout for `error`. */
function json(error: unknown): unknown {
  return JSON.parse(formatFailureJson(toCliFailure(error)));
}

describe("one error model: every failure playbook raises prints as an error with a next step, never as a bug", () => {
  it.each([
    [
      "a token GitHub refused while planning the archive",
      new GitHubError(
        401,
        "reading the repository failed: the token was refused (401); check GITHUB_TOKEN or GH_TOKEN",
      ),
      "E_GITHUB",
      /GITHUB_TOKEN/,
    ],
    [
      "GitHub out of reach",
      new GitHubError(
        0,
        "reading the repository failed: GitHub could not be reached (ECONNREFUSED)",
      ),
      "E_GITHUB",
      /network or GITHUB_API_URL/,
    ],
    [
      "a git command that failed",
      new GitCommandError(
        ["switch", "main"],
        "your local changes would be overwritten",
      ),
      "E_GIT",
      /git/,
    ],
    [
      "a push the remote refused",
      new PushRejected(["push", "origin", "feat/x"], "rejected: fetch first"),
      "E_GIT",
      /git/,
    ],
    [
      "a template that did not render",
      new TemplateError("CLAUDE.md.hbs", '"toolstack" not defined'),
      "E_TEMPLATE",
      /reinstall/i,
    ],
    [
      "an archive step that stopped",
      new StepFailure(
        "HEAD is detached.",
        "`git switch feat/x`, then run `playbook archive --resume`.",
      ),
      "E_ARCHIVE",
      /git switch feat\/x/,
    ],
  ])("%s", (_name, error, code, hint) => {
    expect(error).toBeInstanceOf(PlaybookError);
    const failure = toCliFailure(error);
    expect(failure.code).toBe(code);
    expect(failure.message).toBe(error.message);
    expect(failure.hint).toMatch(hint);
    expect(failure.stack).toBeNull();
    expect(failure.exitCode).toBe(1);
  });

  it("keeps what a caller needs to tell failures apart", () => {
    expect(new GitHubError(409, "x").status).toBe(409);
    expect(new GitCommandError(["push"], "x").args).toEqual(["push"]);
    expect(new StepFailure("x", "do y").next).toBe("do y");
    expect(new TemplateError("a.hbs", "x").message).toBe("a.hbs: x");
  });

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "a command stopped by %s exits %i, as a shell reports the signal, with its one line and no hint",
    (signal, exitCode) => {
      const failure = toCliFailure(
        new InterruptedError(signal, "Interrupted: nothing was recorded."),
      );
      expect(failure).toMatchObject({ code: "E_INTERRUPTED", exitCode });
      expect(formatFailure(failure, pc.createColors(false))).toBe(
        "Interrupted: nothing was recorded.\n",
      );
    },
  );

  it("a PlaybookError cannot be made without a hint: the type requires one (tsc checks this file in `npm run lint`)", () => {
    expectTypeOf<PlaybookErrorOptions["hint"]>().toEqualTypeOf<string>();
    // Never called: each line fails to compile without its directive.
    // @ts-expect-error -- no options, so no hint
    const bare = () => new PlaybookError("E_CONFIG", "it is broken.");
    const withoutHint = { location: { file: "state.md", line: 1 } };
    // @ts-expect-error -- options without a hint
    const located = () => new PlaybookError("E_CONFIG", "x", withoutHint);
    expect([bare, located].every((f) => typeof f === "function")).toBe(true);
  });

  it("an error from elsewhere is still reported as a bug, with its stack", () => {
    const failure = toCliFailure(new TypeError("undefined is not a function"));
    expect(failure.code).toBe("E_INTERNAL");
    expect(failure.stack).not.toBeNull();
  });
});

describe("a failure about a place in a file: where it is, on stderr as lint prints it and in --json apart from the message", () => {
  const atLine = new PlaybookError(
    "E_CONFIG",
    'playbook cannot merge its settings into .claude/settings.json: "hooks.Stop" is not a list.',
    {
      hint: "Fix .claude/settings.json, then run `playbook init` again.",
      location: { file: ".claude/settings.json", line: 3, column: 5 },
    },
  );

  it("stderr starts with file:line:column, then error and the message, as a lint diagnostic does; the hint follows", () => {
    expect(formatFailure(toCliFailure(atLine), plain)).toBe(
      '.claude/settings.json:3:5  error  playbook cannot merge its settings into .claude/settings.json: "hooks.Stop" is not a list.\n' +
        "Fix .claude/settings.json, then run `playbook init` again.\n",
    );
  });

  it("--json carries code, message, hint and the location with file, line and column", () => {
    expect(json(atLine)).toEqual({
      error: {
        code: "E_CONFIG",
        message: atLine.message,
        hint: atLine.hint,
        location: { file: ".claude/settings.json", line: 3, column: 5 },
      },
    });
  });

  it.each([
    [{ file: "CLAUDE.md", line: 12 }, "CLAUDE.md:12"],
    [{ file: "plan/playbook-x.md" }, "plan/playbook-x.md"],
  ])(
    "a location without a column or line (%j) prints and serialises only what it has",
    (location, where) => {
      const error = new PlaybookError("E_CONFIG", "it is broken.", {
        hint: "Fix it.",
        location,
      });
      expect(formatFailure(toCliFailure(error), plain)).toBe(
        `${where}  error  it is broken.\nFix it.\n`,
      );
      expect(json(error)).toEqual({
        error: {
          code: "E_CONFIG",
          message: "it is broken.",
          hint: "Fix it.",
          location,
        },
      });
    },
  );

  it("without a location, stderr reads `error <message>` and --json has no location key", () => {
    const error = new PlaybookError("E_USAGE", "--pr needs --rerun.", {
      hint: "Run `playbook check --rerun --pr <dir> --base <base commit>`.",
    });
    expect(formatFailure(toCliFailure(error), plain)).toBe(
      "error --pr needs --rerun.\nRun `playbook check --rerun --pr <dir> --base <base commit>`.\n",
    );
    const printed = json(error) as { error: Record<string, unknown> };
    expect(Object.keys(printed.error)).toEqual(["code", "message", "hint"]);
  });

  it("a file name with control characters cannot write to the terminal; --json keeps it as it is", () => {
    const error = new PlaybookError("E_TOO_LARGE", "it is too large.", {
      hint: "Shrink it.",
      location: { file: "plan/\u001b[2Jx.md" },
    });
    expect(formatFailure(toCliFailure(error), plain)).toBe(
      "plan/\u241b[2Jx.md  error  it is too large.\nShrink it.\n",
    );
    expect(json(error)).toMatchObject({
      error: { location: { file: "plan/\u001b[2Jx.md" } },
    });
  });

  it("with colours, the location is bold and the label red, as in lint's output", () => {
    expect(formatFailure(toCliFailure(atLine), pc.createColors(true))).toBe(
      `${pc.createColors(true).bold(".claude/settings.json:3:5")}  ${pc.createColors(true).red("error")}  ${atLine.message}\n${pc.createColors(true).dim(atLine.hint)}\n`,
    );
  });

  it("a template that does not render names its line and column (1-based) from Handlebars", () => {
    const render = createRenderer();
    let thrown: unknown;
    try {
      render("templates/en/x.md.hbs", "a\nb {{toolstack}}", {} as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TemplateError);
    expect(json(thrown)).toMatchObject({
      error: {
        code: "E_TEMPLATE",
        location: { file: "templates/en/x.md.hbs", line: 2, column: 5 },
      },
    });
  });

  it("a template with a syntax error names its line", () => {
    const render = createRenderer();
    expect(() =>
      render("templates/en/y.md.hbs", "a\n\nb {{foo", {} as never),
    ).toThrow(
      expect.objectContaining({
        location: { file: "templates/en/y.md.hbs", line: 3 },
      }) as Error,
    );
  });
});
