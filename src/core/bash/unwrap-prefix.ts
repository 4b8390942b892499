import { commandName, inFolder } from "./command-name.ts";
import {
  findExecRanges,
  findFoundNames,
  findPrintedRoots,
} from "./find-command.ts";
import type { Assignment, ShellWord } from "./shell-syntax.ts";
import {
  hasOption,
  optionValues,
  splitOptions,
  type OptionSpec,
} from "./split-options.ts";

/** A command that another command runs with words from its own line. */
export interface Unwrapped {
  words: ShellWord[];
  env: Assignment[];
  /** A word the wrapper replaces with names it finds at run time (`{}` of `find -exec`, `xargs -I X`). */
  placeholder: string | null;
  /** What the arguments the wrapper adds at run time stand for (`xargs rm`: `$XARGS`); none when it adds none. */
  appended: string[];
  /** What the run-time names may be, for write targets: `plan/*` for `find plan -exec`, `$XARGS` for `xargs`. */
  standsFor: string[];
  /** The words are a command of their own (`find -exec CMD ;`), not the rest of the wrapper's command. */
  ownText: boolean;
}

/** The path write targets use for the names `xargs` reads at run time. */
const XARGS_NAMES = "$XARGS";

/** Multi-call binaries that run the applet their first argument names. */
const MULTI_CALL = new Set(["busybox", "toybox"]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

interface Wrapper {
  spec: OptionSpec;
  /** Options that make the wrapper do something else than run the command (`command -v`, `sudo -l`). */
  notRunning?: readonly string[];
  /** Operands before the command (`timeout DURATION cmd`). */
  skip?: number;
}

const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  sudo: {
    spec: {
      short: "ugpCDrtTUhc",
      long: [
        "user",
        "group",
        "prompt",
        "close-from",
        "chdir",
        "role",
        "type",
        "command-timeout",
        "other-user",
        "host",
        "login-class",
      ],
    },
    notRunning: [
      "e",
      "--edit",
      "l",
      "--list",
      "v",
      "--validate",
      "k",
      "K",
      "--reset-timestamp",
      "--remove-timestamp",
    ],
  },
  doas: { spec: { short: "uC" } },
  command: { spec: {}, notRunning: ["v", "V"] },
  builtin: { spec: {} },
  exec: { spec: { short: "a" } },
  nohup: { spec: {} },
  setsid: { spec: {} },
  time: { spec: { short: "fo", long: ["format", "output"] } },
  nice: { spec: { short: "n", long: ["adjustment"] } },
  ionice: {
    spec: {
      short: "cnpPu",
      long: ["class", "classdata", "pid", "pgid", "uid"],
    },
    notRunning: ["p", "P", "u", "--pid", "--pgid", "--uid"],
  },
  stdbuf: { spec: { short: "ioe", long: ["input", "output", "error"] } },
  timeout: { spec: { short: "sk", long: ["signal", "kill-after"] }, skip: 1 },
};

/**
 * The commands a prefix command runs: `env [-i] [VAR=x]... cmd`, `sudo [opts] cmd`, `command`, `exec`,
 * `nohup`, `time`, `nice`, `timeout DUR cmd`, `xargs [opts] cmd`, `find ... -exec cmd {} ;`, `busybox APPLET`
 * and the like. `pipedFrom` is the command whose output it reads: `find ROOT -print0 | xargs -0` reads names in ROOT.
 */
export function unwrapPrefix(
  words: readonly ShellWord[],
  pipedFrom?: readonly ShellWord[],
): Unwrapped[] {
  const name = commandName(words[0]?.value);
  const args = words.slice(1);
  const values = args.map((w) => w.value);
  if (name === "env") return env(args, values);
  if (name === "xargs") return xargs(args, values, pipedFrom);
  if (name === "find") return findExec(args, values);
  if (MULTI_CALL.has(name))
    return args.length > 0 && !values[0]!.startsWith("-") ? [plain(args)] : [];
  const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
  if (!wrapper) return [];
  const split = splitOptions(values, { ...wrapper.spec, stopAtOperand: true });
  if (wrapper.notRunning && hasOption(split, ...wrapper.notRunning)) return [];
  const inner = args.slice(
    args.length - split.operands.length + (wrapper.skip ?? 0),
  );
  return inner.length > 0 ? [plain(inner)] : [];
}

function plain(words: ShellWord[], env: Assignment[] = []): Unwrapped {
  return {
    words,
    env,
    placeholder: null,
    appended: [],
    standsFor: [],
    ownText: false,
  };
}

function env(
  args: readonly ShellWord[],
  values: readonly string[],
): Unwrapped[] {
  const split = splitOptions(values, {
    short: "uCS",
    long: ["unset", "chdir", "split-string"],
    stopAtOperand: true,
  });
  if (hasOption(split, "S", "--split-string")) return [];
  let start = args.length - split.operands.length;
  if (args[start]?.value === "-") start++;
  const assignments: Assignment[] = [];
  while (start < args.length && ASSIGNMENT.test(args[start]!.value)) {
    const word = args[start++]!;
    const eq = word.value.indexOf("=");
    assignments.push({
      name: word.value.slice(0, eq),
      value: { value: word.value.slice(eq + 1), dynamic: word.dynamic },
    });
  }
  return start < args.length ? [plain(args.slice(start), assignments)] : [];
}

function xargs(
  args: readonly ShellWord[],
  values: readonly string[],
  pipedFrom: readonly ShellWord[] | undefined,
): Unwrapped[] {
  const split = splitOptions(values, {
    short: "aEdILnPs",
    attached: "iel",
    long: [
      "arg-file",
      "delimiter",
      "max-args",
      "max-procs",
      "max-chars",
      "process-slot-var",
    ],
    stopAtOperand: true,
  });
  const replace = split.options.find((o) =>
    ["I", "i", "--replace"].includes(o.name),
  );
  const placeholder = replace
    ? (optionValues(split, "I", "i", "--replace")[0] ?? "{}")
    : null;
  const inner = args.slice(args.length - split.operands.length);
  if (inner.length === 0) return [];
  // Only NUL-separated names are whole: xargs splits other input at blanks and newlines a file name may hold.
  const whole =
    hasOption(split, "0", "--null") &&
    !hasOption(split, "a", "--arg-file", "d", "--delimiter");
  const roots = whole && pipedFrom ? findPrintedRoots(pipedFrom) : null;
  const names = roots?.map((root) => inFolder(root, XARGS_NAMES)) ?? [
    XARGS_NAMES,
  ];
  return [
    {
      words: inner,
      env: [],
      placeholder,
      appended: placeholder === null ? names : [],
      standsFor: names,
      ownText: false,
    },
  ];
}

function findExec(
  args: readonly ShellWord[],
  values: readonly string[],
): Unwrapped[] {
  const standsFor = findFoundNames(values);
  return findExecRanges(values).map(([start, end]) => ({
    words: args.slice(start, end),
    env: [],
    placeholder: "{}",
    appended: [],
    standsFor,
    ownText: true,
  }));
}
