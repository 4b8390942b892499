import { defineCommand } from "citty";
import { findPackageRoot } from "../../adapters/package-root.ts";
import type { UninstallStep } from "../../app/scaffold/plan-uninstall.ts";
import { runUninstall } from "../../app/scaffold/run-uninstall.ts";
import { createColors } from "../print/colors.ts";
import { toTerminalText } from "../print/terminal-text.ts";
import { askYesNo, canAsk } from "../prompt.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const uninstallCommand = defineCommand({
  meta: {
    name: "uninstall",
    description:
      "Remove what `playbook init` installed (per its manifest); keep your files, your changes and your playbooks",
  },
  args: {
    ...sharedArgs,
    yes: {
      type: "boolean",
      description: "Apply without asking",
      default: false,
    },
    "dry-run": {
      type: "boolean",
      description: "Print the plan; change nothing",
      default: false,
    },
  },
  async run({ args }) {
    const dir = projectRoot(args, { here: true });
    const dryRun = args["dry-run"];
    const c = createColors();
    const out = (text: string) => process.stdout.write(`${text}\n`);
    const { steps, notes, applied } = await runUninstall(
      dir,
      { dryRun, yes: args.yes },
      {
        packageRoot: findPackageRoot().root,
        canAsk: canAsk(),
        show: (plan) => {
          if (!args.json) printPlan(dir, plan, c, out);
        },
        // --json prints one document: no prompt in the middle of it.
        confirm: () =>
          args.json
            ? Promise.resolve(true)
            : askYesNo("Remove and restore these?", false),
      },
    );
    if (args.json) {
      out(
        JSON.stringify(
          {
            dir,
            steps: steps.map(({ path, action, detail }) => ({
              path,
              action,
              detail,
            })),
            notes,
            applied,
          },
          null,
          2,
        ),
      );
      return;
    }
    if (dryRun) return out(c.dim("dry run: nothing was changed"));
    if (!applied) return out("Nothing was changed.");
    const kept = steps.filter((s) => s.action === "keep").length;
    out(
      `${c.green("done")}: playbook is uninstalled${kept > 0 ? `; ${kept} file${kept === 1 ? "" : "s"} you changed ${kept === 1 ? "is" : "are"} still there` : ""}. Your playbooks in plan/ are untouched.`,
    );
  },
});

function printPlan(
  dir: string,
  plan: { steps: UninstallStep[]; notes: string[] },
  c: ReturnType<typeof createColors>,
  out: (text: string) => void,
): void {
  out(`${c.bold("playbook uninstall")} ${toTerminalText(dir)}`);
  for (const step of plan.steps)
    out(
      `  ${(step.action === "keep" ? c.yellow : step.action === "remove" ? c.red : c.green)(step.action.padEnd(8))} ${toTerminalText(step.path).padEnd(48)} ${c.dim(step.detail)}`,
    );
  for (const note of plan.notes)
    out(`${c.yellow("note")} ${toTerminalText(note)}`);
}
