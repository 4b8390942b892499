import {
  defineCommand,
  renderUsage,
  runCommand,
  type ArgsDef,
  type CommandDef,
} from "citty";
import { didYouMean } from "../core/text/did-you-mean.ts";
import { PlaybookError } from "../core/errors.ts";
import { toTrustWriteFailure } from "../core/records/trust-write-failure.ts";
import { findMissingValue } from "./missing-value.ts";
import { createColors, stripColors } from "./print/colors.ts";
import {
  formatFailure,
  formatFailureJson,
  toCliFailure,
} from "./print/failure.ts";
import { findUnknownOption } from "./unknown-option.ts";
import { readCliSetup } from "../adapters/cli-setup.ts";
import { findPackageRoot } from "../adapters/package-root.ts";
import { spellCommands, type CliSetup } from "../core/scaffold/cli-spelling.ts";

declare const __PLAYBOOK_VERSION__: string | undefined;
const version =
  typeof __PLAYBOOK_VERSION__ === "string"
    ? __PLAYBOOK_VERSION__
    : "0.0.0-source";

/**
 * A subcommand loaded on first use. citty's `CommandDef<T>` is invariant in its arguments, so a map of commands of
 * every shape needs this one widening.
 */
function command<T extends ArgsDef>(
  load: () => Promise<CommandDef<T>>,
): () => Promise<CommandDef> {
  return () => load() as Promise<unknown> as Promise<CommandDef>;
}

const subCommands: Record<string, () => Promise<CommandDef>> = {
  lint: command(() => import("./commands/lint.ts").then((m) => m.lintCommand)),
  status: command(() =>
    import("./commands/status.ts").then((m) => m.statusCommand),
  ),
  review: command(() =>
    import("./commands/review.ts").then((m) => m.reviewCommand),
  ),
  crit: command(() => import("./commands/crit.ts").then((m) => m.critCommand)),
  verify: command(() =>
    import("./commands/verify.ts").then((m) => m.verifyCommand),
  ),
  confirm: command(() =>
    import("./commands/confirm.ts").then((m) => m.confirmCommand),
  ),
  hook: command(() => import("./commands/hook.ts").then((m) => m.hookCommand)),
  archive: command(() =>
    import("./commands/archive.ts").then((m) => m.archiveCommand),
  ),
  "post-loop": command(() =>
    import("./commands/post-loop.ts").then((m) => m.postLoopCommand),
  ),
  loop: command(() => import("./commands/loop.ts").then((m) => m.loopCommand)),
  init: command(() => import("./commands/init.ts").then((m) => m.initCommand)),
  upgrade: command(() =>
    import("./commands/init.ts").then((m) => m.upgradeCommand),
  ),
  install: command(() =>
    import("./commands/install.ts").then((m) => m.installCommand),
  ),
  check: command(() =>
    import("./commands/check.ts").then((m) => m.checkCommand),
  ),
  doctor: command(() =>
    import("./commands/doctor.ts").then((m) => m.doctorCommand),
  ),
  new: command(() => import("./commands/new.ts").then((m) => m.newCommand)),
  uninstall: command(() =>
    import("./commands/uninstall.ts").then((m) => m.uninstallCommand),
  ),
  undo: command(() => import("./commands/undo.ts").then((m) => m.undoCommand)),
  report: command(() =>
    import("./commands/report.ts").then((m) => m.reportCommand),
  ),
  view: command(() => import("./commands/view.ts").then((m) => m.viewCommand)),
  statusline: command(() =>
    import("./commands/statusline.ts").then((m) => m.statuslineCommand),
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

/** citty's usage text on stdout, without its colour codes when our colour decision is off. */
async function showUsage(command: CommandDef, parent?: CommandDef) {
  const usage = await renderUsage(command, parent);
  const c = createColors();
  process.stdout.write(
    `${c.isColorSupported ? usage : stripColors(usage)}\n\n`,
  );
}

const COMMANDS_HINT = "Run `playbook --help` for the commands.";

/** Node.js 20.19 is what playbook is built and tested for; Claude Code runs its hooks with the same `node`. */
const MIN_NODE = [20, 19] as const;

function checkNode(): void {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]))
    return;
  throw new PlaybookError(
    "E_CONFIG",
    `playbook needs Node.js ${MIN_NODE.join(".")} or later, and this is Node.js ${process.versions.node}: Claude Code runs playbook's hooks with \`node\`.`,
    {
      hint: `Install Node.js ${MIN_NODE.join(".")} or later (https://nodejs.org), then run the command again. Nothing was changed.`,
    },
  );
}

async function run(argv: string[]): Promise<void> {
  checkNode();
  const first = argv[0];
  if (first === undefined || first === "--help" || first === "-h") {
    await showUsage(main);
    return;
  }
  if (first === "--version" || first === "-v") {
    process.stdout.write(`${version}\n`);
    return;
  }
  const names = Object.keys(subCommands).join(", ");
  if (first === "help") {
    const topic = argv[1];
    if (topic === undefined) await showUsage(main);
    else await showUsage(await loadCommand(topic, "help "), main);
    return;
  }
  if (first.startsWith("-")) {
    throw new PlaybookError(
      "E_USAGE",
      `Unexpected option ${first.split("=")[0] ?? first} before the command, expected \`playbook <command> [options]\` with a command of ${names}.`,
      { hint: COMMANDS_HINT },
    );
  }
  const command = await loadCommand(first, "");
  const rest = argv.slice(1);
  const options = rest.includes("--")
    ? rest.slice(0, rest.indexOf("--"))
    : rest;
  if (options.includes("--help") || options.includes("-h")) {
    await showUsage(command, main);
    return;
  }
  if (options.includes("--version") || options.includes("-v")) {
    process.stdout.write(`${version}\n`);
    return;
  }
  const defs = (command.args ?? {}) as ArgsDef;
  const missing = findMissingValue(rest, defs);
  if (missing) {
    // A value hint like `en|ja` is the list of choices; anything else names what the value is.
    const choices = missing.what.includes("|") ? missing.what.split("|") : [];
    throw new PlaybookError(
      "E_USAGE",
      choices.length > 0
        ? `${missing.option} needs one of ${choices.join(", ")}.`
        : `${missing.option} needs a ${missing.what}.`,
      {
        hint:
          choices.length > 0
            ? `Write \`${missing.option} ${choices[0]}\`.`
            : `Write \`${missing.option} <${missing.what}>\`; for a name starting with -, write \`${missing.option} ./<name>\`.`,
      },
    );
  }
  const unknown = findUnknownOption(rest, defs);
  if (unknown) {
    const meant = didYouMean(unknown.option, unknown.known);
    throw new PlaybookError(
      "E_USAGE",
      `Unknown option ${unknown.option} for \`playbook ${first}\`, expected ${unknown.known.join(", ")}.`,
      {
        hint: `${meant ? `Did you mean ${meant}? ` : ""}Run \`playbook ${first} --help\`.`,
      },
    );
  }
  await runCommand(ownMissingArgs(command), { rawArgs: rest });
}

/** The command named `name`, or a usage error that suggests the closest one (`prefix` is `help ` for `playbook help`). */
async function loadCommand(name: string, prefix: string): Promise<CommandDef> {
  const load = subCommands[name];
  if (load) return load();
  const meant = didYouMean(name, Object.keys(subCommands));
  throw new PlaybookError(
    "E_USAGE",
    `Unknown command ${name}, expected one of ${Object.keys(subCommands).join(", ")}.`,
    {
      hint: meant
        ? `Did you mean \`playbook ${prefix}${meant}\`? ${COMMANDS_HINT}`
        : COMMANDS_HINT,
    },
  );
}

/**
 * The command as it runs: required positionals are shown as `<NAME>` in the usage, but a missing one is reported by
 * the command itself, with an example and the next step, rather than by citty's bare "Missing required argument".
 */
function ownMissingArgs(command: CommandDef): CommandDef {
  const args = { ...((command.args ?? {}) as ArgsDef) };
  for (const [name, def] of Object.entries(args))
    if (def.type === "positional" && def.required === true)
      args[name] = { ...def, required: false };
  return { ...command, args };
}

/** The command as the user typed it, without its options: `playbook verify p1.1`. */
function commandText(argv: readonly string[]): string {
  const end = argv.findIndex((arg) => arg.startsWith("-"));
  return ["playbook", ...(end === -1 ? argv : argv.slice(0, end))].join(" ");
}

/**
 * Every command this process prints is spelled the way the project runs playbook (`npx --no playbook`, the runtime
 * copy's `node .claude/playbook/runtime/dist/cli.mjs`), so that a next step works as written in every setup.
 */
function spellOutput(args: readonly string[]): void {
  const at = args.findIndex((a) => a === "--cwd" || a.startsWith("--cwd="));
  const given =
    at === -1
      ? undefined
      : args[at]?.startsWith("--cwd=")
        ? args[at]?.slice(6)
        : args[at + 1];
  let setup: CliSetup;
  try {
    setup = readCliSetup(given ?? process.cwd(), findPackageRoot().root);
  } catch {
    return;
  }
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (
      chunk: unknown,
      ...rest: unknown[]
    ) => boolean;
    stream.write = (chunk: unknown, ...rest: unknown[]) =>
      write(
        typeof chunk === "string" ? spellCommands(chunk, setup) : chunk,
        ...rest,
      );
  }
}

/** Whether the arguments ask for JSON, so that a failure is reported as JSON on stdout too. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  const options = end === -1 ? argv : argv.slice(0, end);
  return (
    options.some(
      (arg) =>
        arg === "--json" ||
        (arg.startsWith("--json=") && arg !== "--json=false"),
    ) && !options.includes("--no-json")
  );
}

const argv = process.argv.slice(2);
spellOutput(argv);
run(argv).catch((error: unknown) => {
  const failure = toCliFailure(
    toTrustWriteFailure(error, commandText(argv)) ?? error,
  );
  process.stderr.write(formatFailure(failure, createColors(process.stderr)));
  if (wantsJson(argv)) process.stdout.write(formatFailureJson(failure));
  process.exitCode = failure.exitCode;
});
