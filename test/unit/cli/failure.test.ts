import { describe, expect, it } from "vitest";
import {
  GitCommandError,
  PushRejected,
} from "../../../src/adapters/git-port.ts";
import { GitHubError } from "../../../src/adapters/github-port.ts";
import { StepFailure } from "../../../src/app/archive/archive-steps.ts";
import pc from "picocolors";
import { formatFailure, toCliFailure } from "../../../src/cli/print/failure.ts";
import { InterruptedError, PlaybookError } from "../../../src/core/errors.ts";
import { TemplateError } from "../../../src/render/render-template.ts";

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

  it("an error from elsewhere is still reported as a bug, with its stack", () => {
    const failure = toCliFailure(new TypeError("undefined is not a function"));
    expect(failure.code).toBe("E_INTERNAL");
    expect(failure.stack).not.toBeNull();
  });
});
