import { PlaybookError } from "../../core/errors.ts";
import { applySteps } from "./apply-steps.ts";
import { planUninstall, type UninstallStep } from "./plan-uninstall.ts";

export interface UninstallDeps {
  packageRoot: string;
  /** Whether someone can answer the confirmation; without `--yes`, uninstall asks before deleting. */
  canAsk: boolean;
  /** Shows the plan as soon as it is known (before anything is changed). */
  show: (plan: { steps: UninstallStep[]; notes: string[] }) => void;
  confirm: () => Promise<boolean>;
}

/**
 * `playbook uninstall` in `dir`: plans from the manifest, shows the plan, and applies it once confirmed (or at once
 * with `yes`). Returns the plan and whether it was applied.
 *
 * @throws PlaybookError E_USAGE when it would have to ask and no one can answer.
 */
export async function runUninstall(
  dir: string,
  options: { dryRun: boolean; yes: boolean },
  deps: UninstallDeps,
): Promise<{ steps: UninstallStep[]; notes: string[]; applied: boolean }> {
  const plan = planUninstall(dir, deps.packageRoot);
  if (!options.dryRun && !options.yes && !deps.canAsk)
    throw new PlaybookError(
      "E_USAGE",
      "uninstall deletes files and asks first, but no one is at a terminal to answer.",
      {
        hint: "Run it in a terminal, or pass --yes (see the plan with --dry-run).",
      },
    );
  deps.show(plan);
  if (options.dryRun) return { ...plan, applied: false };
  if (!options.yes && !(await deps.confirm()))
    return { ...plan, applied: false };
  applySteps(dir, plan.steps);
  return { ...plan, applied: true };
}
