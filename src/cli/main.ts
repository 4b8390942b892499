import {
  defineCommand,
  runCommand,
  showUsage,
  type ArgsDef,
  type CommandDef,
} from "citty";
import { PlaybookError } from "../core/errors.ts";
import { createColors } from "./print/colors.ts";
import { findUnknownOption } from "./unknown-option.ts";

const ANSI_ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

declare const __PLAYBOOK_VERSION__: string | undefined;
const version =
  typeof __PLAYBOOK_VERSION__ === "string"
    ? __PLAYBOOK_VERSION__
    : "0.0.0-source";

const subCommands: Record<string, () => Promise<CommandDef>> = {
  lint: () =>
    import("./commands/lint.ts").then(
      (m) => m.lintCommand as unknown as CommandDef,
    ),
  status: () =>
    import("./commands/status.ts").then(
      (m) => m.statusCommand as unknown as CommandDef,
    ),
};

const main = defineCommand({
  meta: {
    name: "playbook",
    version,
    description:
      "Plan before editing, prove before done, hand over as a merged PR",
  },
  subCommands,
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
  const name = argv[0] ?? "";
  const load = subCommands[name];
  if (load) {
    const command = await load();
    const rest = argv.slice(1);
    if (rest.includes("--help") || rest.includes("-h")) {
      await showUsage(command, main as CommandDef);
      return;
    }
    const unknown = findUnknownOption(rest, (command.args ?? {}) as ArgsDef);
    if (unknown) {
      throw new PlaybookError(
        "E_USAGE",
        `Unknown option ${unknown.option} for \`playbook ${name}\`, expected ${unknown.known.join(", ")}.`,
        { hint: `Run \`playbook ${name} --help\`.` },
      );
    }
  }
  await runCommand(main as CommandDef, { rawArgs: argv });
}

run(process.argv.slice(2)).catch((error: unknown) => {
  const c = createColors();
  // citty colours some of its messages by itself; keep stderr plain when colours are off.
  const plain = (text: string) =>
    c.isColorSupported ? text : text.replace(ANSI_ESCAPE, "");
  if (error instanceof PlaybookError) {
    process.stderr.write(`${c.red("error")} ${plain(error.message)}\n`);
    if (error.hint) process.stderr.write(`${c.dim(error.hint)}\n`);
    process.exitCode = error.code === "E_USAGE" ? 2 : 1;
    return;
  }
  const message = plain(error instanceof Error ? error.message : String(error));
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
