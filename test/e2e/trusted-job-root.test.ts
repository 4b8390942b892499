import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createGuardedRepo,
  expectDenied,
  runByPlaybook,
  type GuardedRepo,
} from "../helpers/guarded-repo.ts";
import { SAMPLE_PLAYBOOK } from "../helpers/sample-docs.ts";

const RECORDS = ".claude/playbook/records";

function recordFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/**
 * A trusted job runs at the project the hook was started for (docs/trust-boundary.md, "One project, fixed
 * arguments"): not where the agent's shell is, not where a `--cwd` points. The agent's copy of the project has a git
 * configuration whose clean filter leaves a mark outside the project, and its own `.claude/playbook.json` lets
 * validations write the real records folder.
 */
describe("a trusted job runs at the project's root, with its own arguments only", () => {
  let repo: GuardedRepo;
  const outside = mkdtempSync(join(tmpdir(), "playbook-deputy-"));
  const mark = join(outside, "filter-ran");
  const evil = () => repo.path("scratch/evil");

  beforeAll(() => {
    repo = createGuardedRepo({
      playbook: SAMPLE_PLAYBOOK.replace(
        "npx vitest run test/login-form.test.ts",
        "test -f src/app.ts",
      ).replace("npx tsc --noEmit", "true"),
    });
    // What the agent can do from its sandbox: a copy with its own git configuration and settings.
    execFileSync("git", ["clone", "-q", repo.dir, evil()]);
    writeFileSync(
      join(evil(), ".git", "config"),
      `${readFileSync(join(evil(), ".git", "config"), "utf8")}[filter "x"]\n\tclean = sh -c 'touch ${mark}; cat'\n`,
    );
    writeFileSync(join(evil(), ".gitattributes"), "* filter=x\n");
    writeFileSync(join(evil(), "src", "new.ts"), "export const n = 1;\n");
    mkdirSync(join(evil(), ".claude"), { recursive: true });
    writeFileSync(
      join(evil(), ".claude", "playbook.json"),
      `${JSON.stringify({ verify: { allowWrite: [repo.path(RECORDS)] } })}\n`,
    );
  });

  it("with the agent's shell in the copy, `playbook verify p1.1` proves the real project, and the copy's git runs nothing", () => {
    const before = recordFiles(repo.path(RECORDS)).length;
    const shown = runByPlaybook(
      repo.bash("npx --no playbook verify p1.1", { cwd: evil() }),
    );
    expect(shown.output).toContain("p1.1");
    expect(existsSync(mark)).toBe(false);
    expect(recordFiles(repo.path(RECORDS)).length).toBeGreaterThan(before);
    expect(recordFiles(join(evil(), RECORDS))).toEqual([]);
    const jobs = repo.path(".claude/playbook/jobs");
    const command = JSON.parse(
      readFileSync(
        join(jobs, readdirSync(jobs)[0] ?? "", "command.json"),
        "utf8",
      ),
    ) as { cwd: string; args: string[] };
    expect(command.cwd).toBe(repo.dir);
    expect(command.args).toEqual(["verify", "p1.1", "--cwd", repo.dir]);
  });

  it.each([
    [
      "--cwd scratch/evil",
      "npx --no playbook verify p1.1 --cwd scratch/evil",
      "--cwd",
    ],
    ["--cwd=…", "npx --no playbook verify p1.1 --cwd=scratch/evil", "--cwd"],
    [
      "a playbook in the copy",
      "npx --no playbook verify p1.1 --playbook scratch/evil/plan/playbook-login-form.md",
      "not a playbook under plan/",
    ],
    [
      "a playbook outside the project",
      `npx --no playbook verify p1.1 --playbook ${outside}/plan/playbook-x.md`,
      "outside the project",
    ],
    [
      "an option the command does not have",
      "npx --no playbook archive --provider local",
      "--provider",
    ],
  ])("%s is refused, and no job starts", (_name, command, why) => {
    const jobs = repo.path(".claude/playbook/jobs");
    const before = existsSync(jobs) ? readdirSync(jobs).length : 0;
    expectDenied(repo.bash(command), why);
    expect(existsSync(jobs) ? readdirSync(jobs).length : 0).toBe(before);
    expect(existsSync(mark)).toBe(false);
  });

  it("from a subfolder, `playbook verify p1.1` works", () => {
    const shown = runByPlaybook(
      repo.bash("npx --no playbook verify p1.1", { cwd: repo.path("src") }),
    );
    expect(shown.output).not.toContain("No state.md");
    expect(shown.status).toBe(0);
  });

  it("from a subfolder, a person's `playbook status` finds the project", () => {
    const out = execFileSync(
      process.execPath,
      [join(import.meta.dirname, "../../dist/cli.mjs"), "status"],
      { cwd: repo.path("src"), encoding: "utf8" },
    );
    expect(out).toContain("plan/playbook-login-form.md");
  });
});
