import { defineCommand } from "citty";
import { findPackageRoot } from "../../adapters/package-root.ts";
import { applySteps } from "../../app/scaffold/apply-steps.ts";
import { planUninstall } from "../../app/scaffold/plan-uninstall.ts";
import { PlaybookError } from "../../core/errors.ts";
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
    const dir = projectRoot(args);
    const { steps, notes } = planUninstall(dir, findPackageRoot().root);
    const dryRun = args["dry-run"];
    if (!dryRun && !args.yes && !canAsk())
      throw new PlaybookError(
        "E_USAGE",
        "uninstall deletes files and asks first, but no one is at a terminal to answer.",
        {
          hint: "Run it in a terminal, or pass --yes (see the plan with --dry-run).",
        },
      );
    if (args.json) {
      if (!dryRun) applySteps(dir, steps);
      process.stdout.write(
        `${JSON.stringify({ dir, steps: steps.map(({ path, action, detail }) => ({ path, action, detail })), notes, applied: !dryRun }, null, 2)}\n`,
      );
      return;
    }
    const c = createColors();
    const out = (text: string) => process.stdout.write(`${text}\n`);
    out(`${c.bold("playbook uninstall")} ${toTerminalText(dir)}`);
    for (const step of steps)
      out(
        `  ${(step.action === "keep" ? c.yellow : step.action === "remove" ? c.red : c.green)(step.action.padEnd(8))} ${toTerminalText(step.path).padEnd(48)} ${c.dim(step.detail)}`,
      );
    for (const note of notes)
      out(`${c.yellow("note")} ${toTerminalText(note)}`);
    if (dryRun) {
      out(c.dim("dry run: nothing was changed"));
      return;
    }
    if (!args.yes && !(await askYesNo("Remove and restore these?", false))) {
      out("Nothing was changed.");
      return;
    }
    applySteps(dir, steps);
    const kept = steps.filter((s) => s.action === "keep").length;
    out(
      `${c.green("done")}: playbook is uninstalled${kept > 0 ? `; ${kept} file${kept === 1 ? "" : "s"} you changed ${kept === 1 ? "is" : "are"} still there` : ""}. Your playbooks in plan/ are untouched.`,
    );
  },
});
