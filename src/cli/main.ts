import { defineCommand, runCommand, showUsage, type CommandDef } from "citty";
import { PlaybookError } from "../core/errors.ts";
import { createColors } from "./print/colors.ts";

declare const __PLAYBOOK_VERSION__: string | undefined;
const version =
  typeof __PLAYBOOK_VERSION__ === "string"
    ? __PLAYBOOK_VERSION__
    : "0.0.0-source";

const main = defineCommand({
  meta: {
    name: "playbook",
    version,
    description:
      "Plan before editing, prove before done, hand over as a merged PR",
  },
  subCommands: {
    lint: () => import("./commands/lint.ts").then((m) => m.lintCommand),
    status: () => import("./commands/status.ts").then((m) => m.statusCommand),
  },
});

async function run(argv: string[]): Promise<void> {
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h") {
    await showUsage(main as CommandDef);
    return;
  }
  if (argv[0] === "--version" || argv[0] === "-v") {
    process.stdout.write(`${version}\n`);
    return;
  }
  await runCommand(main as CommandDef, { rawArgs: argv });
}

run(process.argv.slice(2)).catch((error: unknown) => {
  const c = createColors();
  if (error instanceof PlaybookError) {
    process.stderr.write(`${c.red("error")} ${error.message}\n`);
    if (error.hint) process.stderr.write(`${c.dim(error.hint)}\n`);
    process.exitCode = error.code === "E_USAGE" ? 2 : 1;
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (
    /Unknown command|Missing required|Invalid value|Unknown argument/i.test(
      message,
    )
  ) {
    process.stderr.write(
      `${c.red("error")} ${message}\nRun \`playbook --help\` for the commands.\n`,
    );
    process.exitCode = 2;
    return;
  }
  process.stderr.write(
    `${c.red("internal error")} ${message}\nThis is a bug in playbook; please report it with the output of \`playbook --version\`.\n`,
  );
  if (error instanceof Error && error.stack)
    process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
});
