import { defineCommand } from "citty";
import { findPackageRoot } from "../../adapters/package-root.ts";
import { runInstall } from "../../app/scaffold/run-install.ts";
import { cliSpelling } from "../../core/scaffold/setup-kind.ts";
import { createColors } from "../print/colors.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const installCommand = defineCommand({
  meta: {
    name: "install",
    description:
      "Install the playbook-kit a project's committed setup names into this clone (`npx playbook-kit@<version> install`)",
  },
  args: { ...sharedArgs },
  run({ args }) {
    const dir = projectRoot(args, { here: true });
    const done = runInstall(dir, findPackageRoot());
    const out = (text: string) => process.stdout.write(`${text}\n`);
    if (args.json) return out(JSON.stringify({ dir, ...done }, null, 2));
    const c = createColors();
    for (const note of done.boundaryNotes) out(`${c.yellow("note")}: ${note}`);
    out(
      `${c.green("done")}: playbook-kit ${done.version} is installed in ${done.copy}/, and playbook's hooks guard Claude Code's next session here. \`${cliSpelling("runtime")} doctor\` checks the setup.`,
    );
  },
});
