import type { Diagnostic, Point } from "../model/diagnostic.ts";
import { diagnosticAt } from "../model/diagnostic.ts";
import type { Playbook } from "../model/playbook.ts";
import type { StateDoc } from "../model/state.ts";
import { explainUnsafeActivePath } from "./active-path.ts";

export interface WorkspaceFacts {
  stateFile: string;
  /** Whether the file `state.playbook.active` names exists; undefined when it was not checked (unsafe path). */
  activeExists?: boolean;
  /** Whether a symlink leads the active playbook out of the repository. */
  activeOutside?: boolean;
  /** The active playbook, when it was read. */
  active?: { file: string; playbook: Playbook };
}

/** Checks that `state.md` and its active playbook agree (docs/playbook-format.md, §3.2). Pure: existence comes in as a fact. */
export function validateWorkspace(
  state: StateDoc,
  facts: WorkspaceFacts,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const fields = state.sections.playbook?.fields ?? {};
  const at = (key: string): Point =>
    fields[key]?.start ?? { line: 1, column: 1, offset: 0 };
  const active = state.playbook.active;
  if (active !== null) {
    const reason =
      explainUnsafeActivePath(active) ??
      (facts.activeOutside
        ? "a symlink leads it outside the repository"
        : null);
    if (reason) {
      diagnostics.push(
        diagnosticAt(
          facts.stateFile,
          at("active"),
          "active-path-unsafe",
          "error",
          `Unexpected \`active: ${active}\` (${reason}), expected a relative path under plan/ such as plan/playbook-<name>.md. Fix \`active\` in state.md; it is not followed until then.`,
        ),
      );
    } else if (facts.activeExists === false) {
      diagnostics.push(
        diagnosticAt(
          facts.stateFile,
          at("active"),
          "active-missing",
          "error",
          `Unexpected \`active: ${active}\`: the file does not exist, expected an existing playbook. Write the playbook there (plan/template/playbook-format.md shows the format) or set \`active: null\`.`,
        ),
      );
    }
  }
  const loaded = facts.active;
  if (loaded) {
    const playbookBranch = loaded.playbook.meta.branch;
    const stateBranch = state.playbook.branch;
    if (
      playbookBranch !== null &&
      stateBranch !== null &&
      playbookBranch !== stateBranch
    ) {
      diagnostics.push(
        diagnosticAt(
          loaded.file,
          loaded.playbook.sections.meta?.fields["branch"]?.start ?? {
            line: 1,
            column: 1,
          },
          "branch-mismatch",
          "error",
          `Unexpected branch \`${playbookBranch}\` in the playbook while state.md says \`${stateBranch}\`, expected the same branch in both. Set one to match the other.`,
        ),
      );
    }
    const phase = state.goal.phase;
    if (phase !== null && !loaded.playbook.phases.some((p) => p.id === phase)) {
      diagnostics.push(
        diagnosticAt(
          facts.stateFile,
          state.sections.goal?.fields["phase"]?.start ?? { line: 1, column: 1 },
          "phase-unknown",
          "error",
          `Unexpected \`phase: ${phase}\` in state.md, expected a phase id of ${loaded.file} (${loaded.playbook.phases.map((p) => p.id).join(", ") || "none"}). Fix the phase id.`,
        ),
      );
    }
  }
  return diagnostics;
}
