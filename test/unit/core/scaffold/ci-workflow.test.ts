import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import {
  CI_CHECK_NAME,
  githubWorkflow,
} from "../../../../src/core/scaffold/ci-workflow.ts";

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  "working-directory"?: string;
  with?: Record<string, unknown>;
}

const workflow = parse(githubWorkflow()) as {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { name: string; steps: Step[] }>;
};
const job = workflow.jobs["rerun"]!;
const checkouts = job.steps.filter((s) =>
  s.uses?.startsWith("actions/checkout@"),
);
const runIn = (dir: string) =>
  job.steps.filter(
    (s) => s.run !== undefined && s["working-directory"] === dir,
  );

describe("the workflow init --ci github writes", () => {
  it("runs as the default branch has it, on pull_request_target only", () => {
    expect(Object.keys(workflow.on)).toEqual(["pull_request_target"]);
  });

  it("may only read the repository, and uses no secret", () => {
    expect(workflow.permissions).toEqual({ contents: "read" });
    expect(githubWorkflow()).not.toMatch(/secrets\./);
  });

  it("reports the check under the name the ruleset requires", () => {
    expect(job.name).toBe(CI_CHECK_NAME);
  });

  it("checks out the base commit as the verifier and the head as data, neither keeping the token", () => {
    expect(checkouts.map((s) => [s.with?.["path"], s.with?.["ref"]])).toEqual([
      ["base", "${{ github.event.pull_request.base.sha }}"],
      ["pr", "${{ github.event.pull_request.head.sha }}"],
    ]);
    for (const checkout of checkouts)
      expect(checkout.with?.["persist-credentials"]).toBe(false);
  });

  it("installs playbook from the base lockfile and the pull request's dependencies without their scripts", () => {
    expect(runIn("base").map((s) => s.run)).toContain("npm ci");
    expect(runIn("pr").map((s) => s.run)).toEqual(["npm ci --ignore-scripts"]);
  });

  it("runs the base's playbook against the pull request's folder", () => {
    const check = job.steps.at(-1)!;
    expect(check["working-directory"]).toBe("base");
    expect(check.run).toBe(
      'npx --no playbook check --rerun --pr ../pr --base "${{ github.event.pull_request.base.sha }}"',
    );
  });
});
