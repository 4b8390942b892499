import { diagnosticAt, type Diagnostic } from "../model/diagnostic.ts";
import { EXECUTORS, ROLE_NAMES } from "../model/playbook.ts";

/** Checks a `roles` mapping: known role names, each held by a known executor. */
export function checkRoles(
  roles: Record<string, string>,
  file: string,
  at: { line: number; column: number },
  where: string,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const report = (message: string) =>
    diagnostics.push(diagnosticAt(file, at, "role-invalid", "error", message));
  for (const [role, holder] of Object.entries(roles)) {
    if (!(ROLE_NAMES as readonly string[]).includes(role)) {
      report(
        `Unexpected role \`${role}\` in ${where}, expected one of ${ROLE_NAMES.join(", ")}. Fix the role name.`,
      );
    } else if (!(EXECUTORS as readonly string[]).includes(holder)) {
      report(
        `Unexpected \`${role}: ${holder}\` in ${where}, expected one of ${EXECUTORS.join(", ")}. Fix the value.`,
      );
    }
  }
  return diagnostics;
}

/** Whether `executor` names an agent, a tool, the user or a role. */
export function isKnownExecutor(executor: string): boolean {
  return (
    (EXECUTORS as readonly string[]).includes(executor) ||
    (ROLE_NAMES as readonly string[]).includes(executor)
  );
}
