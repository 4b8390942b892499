import { posix } from "node:path";
import type { BashAnalysis } from "../bash/types.ts";
import { playbookArgs } from "./command-words.ts";
import type { TrustedArgs } from "./trusted-args-result.ts";

/**
 * The grammar of each playbook command the hook runs for the agent outside its sandbox (docs/trust-boundary.md, "One
 * project, fixed arguments"). The job runs at the project the hook was started for, with `--cwd` set to it; what the
 * agent typed may only choose among these words and values. A path option must name a playbook inside the project.
 */
interface Grammar {
  /** Literal words after the command (`review approve`), each one of the listed values, or any id matching `id`. */
  words: readonly (readonly string[] | RegExp)[];
  /** How many of `words` may be left out at the end (`verify p1` vs nothing: none). */
  optionalWords?: number;
  flags: readonly string[];
  values: Readonly<Record<string, "playbook" | "seconds" | "text">>;
}

const SUBTASK_OR_PHASE = /^p\d+(?:\.\d+)?$/;
const PHASE = /^p\d+$/;

const GRAMMARS: Readonly<Record<string, Grammar>> = {
  new: {
    words: [/^[a-z0-9]+(?:-[a-z0-9]+)*$/],
    flags: ["--json"],
    values: {},
  },
  verify: {
    words: [SUBTASK_OR_PHASE],
    flags: ["--json"],
    values: { "--timeout": "seconds", "--playbook": "playbook" },
  },
  "post-loop": { words: [], flags: ["--json"], values: {} },
  archive: {
    words: [],
    flags: ["--json", "--dry-run", "--resume"],
    values: {},
  },
  review: {
    words: [["approve", "reject"]],
    flags: ["--json"],
    values: { "--playbook": "playbook", "--notes": "text" },
  },
  crit: {
    words: [["record"], PHASE, ["PASS", "FAIL"]],
    flags: ["--json"],
    values: { "--playbook": "playbook", "--evidence": "text" },
  },
};

/**
 * Checks `args` (`["verify", "p1.1", "--playbook", "../plan/playbook-x.md"]`) against the command's grammar, and
 * returns the arguments the job runs with: paths as the project names them, `--cwd` last. Relative paths are read
 * from `cwd`, where the agent's shell is; only a result inside `projectDir` is accepted.
 */
export function parseTrustedArgs(
  args: readonly string[],
  where: { projectDir: string; cwd: string },
): TrustedArgs {
  const [command, ...rest] = args;
  const grammar = command === undefined ? undefined : GRAMMARS[command];
  if (command === undefined || grammar === undefined)
    return {
      ok: false,
      reason: `\`playbook ${command ?? ""}\` is not a command playbook runs for the agent`,
    };
  const usage = usageOf(command, grammar);
  const out: string[] = [command];
  const words: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i] ?? "";
    if (word === "--")
      return { ok: false, reason: `\`--\` is not part of ${usage}` };
    if (!word.startsWith("-")) {
      words.push(word);
      continue;
    }
    const eq = word.indexOf("=");
    const name = eq > 0 ? word.slice(0, eq) : word;
    if (grammar.flags.includes(name)) {
      if (eq > 0)
        return { ok: false, reason: `\`${name}\` takes no value in ${usage}` };
      out.push(name);
      continue;
    }
    const kind = grammar.values[name];
    if (kind === undefined)
      return {
        ok: false,
        reason: `\`${name}\` is not an option of ${usage}${name === "--cwd" ? " (it always runs at the project's root)" : ""}`,
      };
    const value = eq > 0 ? word.slice(eq + 1) : rest[++i];
    if (value === undefined)
      return { ok: false, reason: `\`${name}\` needs a value in ${usage}` };
    const checked = checkValue(kind, name, value, where);
    if (typeof checked !== "string") return checked;
    out.push(name, checked);
  }
  const required = grammar.words.length - (grammar.optionalWords ?? 0);
  if (words.length < required || words.length > grammar.words.length)
    return {
      ok: false,
      reason: `expected ${usage}, got \`playbook ${args.join(" ")}\``,
    };
  for (const [i, word] of words.entries()) {
    const rule = grammar.words[i];
    const fits =
      rule instanceof RegExp ? rule.test(word) : (rule ?? []).includes(word);
    if (!fits)
      return {
        ok: false,
        reason: `\`${word}\` does not fit ${usage}`,
      };
  }
  return {
    ok: true,
    args: [command, ...words, ...out.slice(1), "--cwd", where.projectDir],
  };
}

function checkValue(
  kind: "playbook" | "seconds" | "text",
  name: string,
  value: string,
  where: { projectDir: string; cwd: string },
): string | { ok: false; reason: string } {
  if (kind === "seconds")
    return /^\d+(?:\.\d+)?$/.test(value)
      ? value
      : {
          ok: false,
          reason: `\`${name} ${value}\` is not a number of seconds`,
        };
  if (kind === "text") return value;
  const root = posix.normalize(where.projectDir.replace(/\\/g, "/"));
  const base = posix.isAbsolute(where.cwd.replace(/\\/g, "/"))
    ? where.cwd.replace(/\\/g, "/")
    : root;
  const full = posix.resolve(base, value.replace(/\\/g, "/"));
  const rel = posix.relative(root, full);
  if (rel === "" || rel.startsWith("..") || posix.isAbsolute(rel))
    return {
      ok: false,
      reason: `\`${name} ${value}\` names a path outside the project (${root})`,
    };
  if (!/^plan\/(?:[^/]+\/)*playbook-[^/]*\.md$/.test(rel))
    return {
      ok: false,
      reason: `\`${name} ${value}\` is not a playbook under plan/ (plan/playbook-<name>.md)`,
    };
  return rel;
}

function usageOf(command: string, grammar: Grammar): string {
  const words = grammar.words.map((w) =>
    w instanceof RegExp
      ? w === PHASE
        ? "<phase>"
        : w === SUBTASK_OR_PHASE
          ? "<id>"
          : "<name>"
      : w.join("|"),
  );
  const options = [
    ...grammar.flags,
    ...Object.entries(grammar.values).map(([n, k]) => `${n} <${k}>`),
  ].map((o) => `[${o}]`);
  return `\`playbook ${[command, ...words, ...options].join(" ")}\``;
}

/** `bash` with each playbook CLI call's arguments checked against its grammar (`playbookCalls`). */
export function withPlaybookCalls(
  bash: BashAnalysis,
  where: { projectDir: string; cwd: string },
): BashAnalysis {
  const calls = new Map<BashAnalysis["commands"][number], TrustedArgs>();
  for (const cmd of bash.commands) {
    const args = playbookArgs(cmd.argv);
    if (args) calls.set(cmd, parseTrustedArgs(args, where));
  }
  return { ...bash, playbookCalls: calls };
}
