import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  planInit,
  type InitQuestion,
} from "../../src/app/scaffold/plan-init.ts";
import { PlaybookError } from "../../src/core/errors.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/** init's questions answered by `answers` (by key), as the terminal prompt would return them. */
function plan(answers: Partial<Record<InitQuestion["key"], string>>) {
  const p = createTempProject({ "package.json": '{"name":"acme"}\n' });
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: p.dir });
  const asked: string[] = [];
  return {
    asked,
    plan: planInit(
      p.dir,
      { toolstack: null, lang: null, yes: false, force: false, plugin: false },
      {
        packageRoot: ROOT,
        packageVersion: "0.0.0",
        now: () => new Date("2026-11-24T00:00:00Z"),
        localeLang: "en",
        locate: () => ({ hookPath: "/x/hook.cjs", cli: "npx playbook" }),
        ask: (question) => {
          asked.push(question.key);
          return Promise.resolve(answers[question.key] ?? "");
        },
      },
    ),
  };
}

describe("init's answers", () => {
  it.each([
    [
      "toolstack",
      "x",
      'Unexpected answer `x` to "Toolstack", expected one of A, B, C.',
    ],
    [
      "lang",
      "fr",
      'Unexpected answer `fr` to "Language of the agents, skills and rules", expected one of en, ja.',
    ],
  ] as const)(
    "refuses %s %s: a choice outside the list is never rendered",
    async (key, value, message) => {
      const { plan: planned } = plan({ [key]: value });
      const error = await planned.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PlaybookError);
      expect((error as PlaybookError).code).toBe("E_USAGE");
      expect((error as PlaybookError).message).toBe(message);
    },
  );

  it("an empty answer takes the detected default", async () => {
    const { plan: planned, asked } = plan({});
    const result = await planned;
    expect(asked).toEqual(["toolstack", "lang", "testCommand", "lintCommand"]);
    expect(result.answers).toMatchObject({ toolstack: "A", lang: "en" });
  });
});
