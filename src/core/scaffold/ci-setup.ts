import { parse } from "yaml";
import type { BranchRule } from "../ports.ts";
import { CI_CHECK_NAME, GITHUB_WORKFLOW } from "./ci-workflow.ts";

/** One thing `playbook doctor` says about CI's setup (docs/ci.md). */
export interface CiSetupFinding {
  level: "ok" | "warn" | "error";
  message: string;
  fix: string | null;
}

/**
 * Whether GitHub re-proves pull requests into `branch` with the base branch's verifier (docs/ci.md): the workflow is
 * on the default branch as a `pull_request_target` one, a ruleset requires its check, and a ruleset requires a code
 * owner's review (so a workflow change reaches a person even if another workflow reports a check of the same name).
 * `workflow` is the file's text on the default branch, null when it is not there.
 */
export function evaluateCiSetup(input: {
  branch: string;
  workflow: string | null;
  rules: readonly BranchRule[];
}): CiSetupFinding[] {
  const { branch } = input;
  const findings: CiSetupFinding[] = [];
  const trigger = input.workflow === null ? null : triggerOf(input.workflow);
  if (input.workflow === null)
    findings.push({
      level: "error",
      message: `${GITHUB_WORKFLOW} is not on ${branch}: pull requests are not re-proved`,
      fix: `Run \`playbook init --ci github\`, then commit the workflow to ${branch} yourself.`,
    });
  else if (trigger !== "pull_request_target")
    findings.push({
      level: "error",
      message: `${GITHUB_WORKFLOW} on ${branch} runs on ${trigger ?? "an event playbook cannot read"}, so a branch can redefine its own check`,
      fix: `Run \`playbook init --ci github\` to write the pull_request_target workflow, then commit it to ${branch} yourself.`,
    });
  else
    findings.push({
      level: "ok",
      message: `${GITHUB_WORKFLOW} on ${branch} runs on pull_request_target`,
      fix: null,
    });
  const required = requiredCheckNames(input.rules);
  findings.push(
    required.includes(CI_CHECK_NAME)
      ? {
          level: "ok",
          message: `a ruleset requires the check ${CI_CHECK_NAME} on ${branch}`,
          fix: null,
        }
      : {
          level: "error",
          message: `no ruleset requires the check ${CI_CHECK_NAME} on ${branch}: a pull request can be merged without it`,
          fix: `On GitHub: Settings > Rules > Rulesets, target ${branch}, "Require status checks to pass" with ${CI_CHECK_NAME} (docs/ci.md).`,
        },
  );
  const codeOwners = input.rules.some(
    (rule) =>
      rule.type === "pull_request" &&
      rule.parameters["require_code_owner_review"] === true,
  );
  findings.push(
    codeOwners
      ? {
          level: "ok",
          message: `a ruleset requires a code owner's review on ${branch}`,
          fix: null,
        }
      : {
          level: "warn",
          message: `no ruleset requires a code owner's review on ${branch}: a pull request adding a workflow could report a passing check of the same name`,
          fix: `Add .github/CODEOWNERS naming a person for /.github/ and /.claude/, and turn on "Require review from Code Owners" in the ruleset (docs/ci.md).`,
        },
  );
  return findings;
}

/** The checks the rulesets' `required_status_checks` rules require, by name. */
export function requiredCheckNames(rules: readonly BranchRule[]): string[] {
  return rules
    .filter((rule) => rule.type === "required_status_checks")
    .flatMap((rule) => {
      const checks = rule.parameters["required_status_checks"];
      return Array.isArray(checks)
        ? checks.map((c: unknown) =>
            typeof c === "object" && c !== null && "context" in c
              ? String(c.context)
              : "",
          )
        : [];
    });
}

/** The workflow's one trigger event, `several` when it has more, or null when the text is not a workflow. */
function triggerOf(text: string): string | null {
  let workflow: unknown;
  try {
    workflow = parse(text);
  } catch {
    return null;
  }
  if (typeof workflow !== "object" || workflow === null || !("on" in workflow))
    return null;
  const on = workflow.on;
  const events =
    typeof on === "string"
      ? [on]
      : Array.isArray(on)
        ? on.map(String)
        : typeof on === "object" && on !== null
          ? Object.keys(on)
          : [];
  return events.length === 1
    ? (events[0] ?? null)
    : events.length > 1
      ? events.join(" and ")
      : null;
}
