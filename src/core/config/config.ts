import * as v from "valibot";
import { SECURITY_MODES, type SecurityMode } from "../model/state.ts";
import { didYouMean } from "../text/did-you-mean.ts";
import { MERGE_POLICIES } from "../archive/merge-policy.ts";

const count = (min: number, max: number, fallback: number, text: string) =>
  v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(min),
      v.maxValue(max),
      v.description(`${text} (${min}-${max}, default ${fallback}).`),
    ),
    fallback,
  );

const flag = (fallback: boolean, text: string) =>
  v.optional(
    v.pipe(v.boolean(), v.description(`${text} (default ${fallback}).`)),
    fallback,
  );

const patterns = (text: string) =>
  v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string(),
          v.maxLength(500),
          v.check(
            (source) => regexProblem(source) === null,
            (issue) =>
              `a regular expression (${regexProblem(String(issue.input)) ?? "invalid"})`,
          ),
        ),
      ),
      v.description(text),
    ),
    [],
  );

/** Why `source` is not a JavaScript regular expression, or null when it is one. */
function regexProblem(source: string): string | null {
  try {
    new RegExp(source);
    return null;
  } catch (error) {
    return error instanceof Error
      ? error.message.replace(/^Invalid regular expression: /, "")
      : String(error);
  }
}

/** Each section of `.claude/playbook.json`; a section that does not validate falls back to its defaults alone. */
const CONFIG_SECTIONS = {
  lint: v.object({
    bannedPhrases: v.optional(
      v.pipe(
        v.array(v.string()),
        v.description(
          "Wording criteria may not use; replaces the built-in list (English, Japanese, Korean).",
        ),
      ),
    ),
  }),
  context: v.object({
    sessionStart: flag(
      true,
      "Inject a short summary of the playbook at session start and after compaction",
    ),
    prompt: flag(true, "Add a one-line status to each prompt"),
    maxBytes: count(
      200,
      9000,
      1500,
      "Most bytes the session-start summary may inject",
    ),
  }),
  intent: v.object({
    enabled: flag(
      true,
      "Point the model at Skill(playbook-init) when a prompt asks for work and no playbook is active",
    ),
    work: patterns(
      "Extra regular expressions (JavaScript syntax) that mark a prompt as asking for work.",
    ),
    notWork: patterns(
      "Extra regular expressions that mark a prompt as not asking for work; checked first.",
    ),
  }),
  loop: v.object({
    continuation: flag(
      true,
      "Keep the agent working while a reviewed playbook has open subtasks (the Stop hook continues the turn)",
    ),
    maxIterations: count(
      1,
      100,
      10,
      "Continuations per phase when the phase sets no **max_iterations**",
    ),
    maxConsecutiveBlocks: count(
      1,
      50,
      5,
      "Continuations in a row without the user speaking before the Stop hook lets the agent stop",
    ),
    sameErrorLimit: count(
      2,
      20,
      3,
      "Stop continuing when the same tool error repeats this many times in a row",
    ),
    contextLimitPercent: count(
      50,
      99,
      85,
      "Stop continuing once this share of the context window is used",
    ),
  }),
  session: v.object({
    staleAfterMinutes: count(
      1,
      10080,
      120,
      "A session silent this long counts as gone: its locks are cleared at the next session start",
    ),
  }),
  logging: v.object({
    enabled: flag(
      true,
      "Write .claude/playbook/logs/hook-timing.log and block-reasons.log",
    ),
  }),
  archive: v.object({
    provider: v.optional(
      v.pipe(
        v.picklist(["auto", "github", "local"]),
        v.description(
          "Where the finished playbook is merged: auto picks github with a GitHub remote and a token, else local (default auto).",
        ),
      ),
      "auto",
    ),
    merge: v.optional(
      v.pipe(
        v.picklist(MERGE_POLICIES),
        v.description(
          "Who merges the pull request: auto (the archive, once checks pass), auto-when-green (GitHub's auto-merge or merge queue, with playbook-rerun required), on-approval (the archive, once a person approved), open (a person) (default auto).",
        ),
      ),
      "auto",
    ),
    mergeMethod: v.optional(
      v.pipe(
        v.picklist(["merge", "squash", "rebase"]),
        v.description("How the pull request is merged (default merge)."),
      ),
      "merge",
    ),
    checkWaitSeconds: count(
      0,
      7200,
      600,
      "How long to wait for pending checks before stopping with status partial",
    ),
    hookWaitSeconds: count(
      0,
      170,
      120,
      "How long the hook that starts the archive after the last tick waits for it (the archive runs as a job of its own); past it the model gets the command that follows the job to its end",
    ),
    deleteBranch: flag(true, "Delete the remote branch after the merge"),
    remote: v.optional(
      v.pipe(
        v.string(),
        v.description("The git remote to push to (default origin)."),
      ),
      "origin",
    ),
    repository: v.optional(
      v.pipe(
        v.nullable(v.pipe(v.string(), v.regex(/^[\w.-]+\/[\w.-]+$/))),
        v.description(
          "owner/name on GitHub; by default read from the remote's URL.",
        ),
      ),
      null,
    ),
    apiUrl: v.optional(
      v.pipe(
        v.nullable(v.pipe(v.string(), v.url())),
        v.description(
          "GitHub API base URL; GITHUB_API_URL overrides it; by default derived from the remote's host.",
        ),
      ),
      null,
    ),
    requireRerun: flag(
      true,
      "Stop before pushing unless every validation, run again in a clean checkout of the commit to push, agrees with its evidence",
    ),
    gitCredentials: v.optional(
      v.pipe(
        v.picklist(["playbook", "helper"]),
        v.description(
          "How the hook's archive authenticates its pushes: playbook (the GitHub token over https, plain ssh without its config files) or helper (your own credential helpers, core.sshCommand and ssh config, which run outside the agent's sandbox) (default playbook).",
        ),
      ),
      "playbook",
    ),
  }),
  verify: v.object({
    allowedDomains: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(300))),
        v.description(
          "Hosts validations may reach, e.g. `*.example.com` (default none).",
        ),
      ),
      [],
    ),
    allowWrite: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(1000))),
        v.description("Folders validations may also write (`~/` allowed)."),
      ),
      [],
    ),
  }),
} as const;

type Sections = typeof CONFIG_SECTIONS;
export type SectionName = keyof Sections;

/**
 * How strictly the guards hold (docs/guards.md). It lives here, in a trust path the agent cannot write, not in
 * state.md, which the agent may always edit.
 */
const SECURITY = v.optional(
  v.pipe(
    v.picklist(SECURITY_MODES),
    v.description(
      "How strictly the guards hold: strict (everything, and Claude Code refuses to start without its sandbox), trusted, admin or developer (default strict).",
    ),
  ),
  "strict",
);

/** The resolved configuration: every key present, defaults filled in. */
export type PlaybookConfig = {
  [K in SectionName]: v.InferOutput<Sections[K]>;
} & { security: SecurityMode };

/** The whole file, for the published JSON Schema (editor completion). */
export const CONFIG_SCHEMA = v.object({
  $schema: v.optional(v.string()),
  security: SECURITY,
  ...Object.fromEntries(
    Object.entries(CONFIG_SECTIONS).map(([name, schema]) => [
      name,
      v.optional(schema),
    ]),
  ),
});

export interface ConfigProblem {
  /** Where in the file: `["loop", "maxIterations"]`. */
  path: (string | number)[];
  message: string;
  severity: "error" | "warning";
  /** A key the schema does not know (a likely typo), rather than a value it refuses. */
  unknownKey?: true;
}

const NAMES = Object.keys(CONFIG_SECTIONS) as SectionName[];

/**
 * The configuration a parsed `.claude/playbook.json` asks for. Never throws: a section that does not validate keeps
 * its defaults (and says why), an unknown key is an error that is ignored (a likely typo), anything else applies.
 */
export function resolveConfig(json: unknown): {
  config: PlaybookConfig;
  problems: ConfigProblem[];
} {
  const problems: ConfigProblem[] = [];
  const file =
    typeof json === "object" && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : {};
  if (json !== undefined && file !== json)
    problems.push({
      path: [],
      message:
        "Unexpected JSON that is not an object, expected `{ ... }` with sections such as `loop` or `context`. The defaults apply.",
      severity: "error",
    });
  for (const key of Object.keys(file))
    if (
      key !== "$schema" &&
      key !== "security" &&
      !NAMES.includes(key as SectionName)
    )
      problems.push(unknownKey([key], [...NAMES, "security"]));
  const config = {} as Record<SectionName, unknown> & {
    security: SecurityMode;
  };
  const security = v.safeParse(SECURITY, file["security"]);
  config.security = security.success ? security.output : "strict";
  if (!security.success)
    problems.push({
      path: ["security"],
      message: `Unexpected ${JSON.stringify(file["security"])} at \`security\`, expected one of ${SECURITY_MODES.join(", ")}. strict applies until it is fixed.`,
      severity: "error",
    });
  for (const name of NAMES) {
    const schema = CONFIG_SECTIONS[name];
    const given = file[name];
    if (typeof given === "object" && given !== null && !Array.isArray(given))
      for (const key of Object.keys(given))
        if (!(key in schema.entries))
          problems.push(unknownKey([name, key], Object.keys(schema.entries)));
    if (Array.isArray(given)) {
      config[name] = v.parse(schema, {});
      problems.push({
        path: [name],
        message: `Unexpected a list at \`${name}\`, expected an object. The defaults of \`${name}\` apply until it is fixed.`,
        severity: "error",
      });
      continue;
    }
    const result = v.safeParse(schema, given ?? {});
    if (result.success) {
      config[name] = result.output;
      continue;
    }
    config[name] = v.parse(schema, {});
    const issue = result.issues[0];
    const path = [
      name,
      ...(issue.path ?? []).map((p) => p.key as string | number),
    ];
    // A failed check (a pattern that is no regular expression) names what it expected in its message.
    const expected =
      issue.type === "check" ? issue.message : readable(issue.expected);
    problems.push({
      path,
      message: `Unexpected ${issue.received} at \`${path.join(".")}\`, expected ${expected}. The defaults of \`${name}\` apply until it is fixed.`,
      severity: "error",
    });
  }
  return { config: config as PlaybookConfig, problems };
}

/** A key the schema does not know: an error, since a typo would silently leave the default in place. */
function unknownKey(path: string[], known: readonly string[]): ConfigProblem {
  const key = path.at(-1) ?? "";
  const meant = didYouMean(key, known);
  const where = path.slice(0, -1);
  return {
    path,
    message: `Unexpected key \`${path.join(".")}\`, expected one of ${known.join(", ")}.${meant ? ` Did you mean \`${[...where, meant].join(".")}\`?` : ""} An unknown key is ignored: fix its spelling.`,
    severity: "error",
    unknownKey: true,
  };
}

/** The configuration of a project without `.claude/playbook.json`. */
export function defaultConfig(): PlaybookConfig {
  return resolveConfig(undefined).config;
}

/** valibot's `expected` in words a user reads: `Array` is a list, `Object` an object. */
function readable(expected: string | null): string {
  if (expected === null) return "another value";
  return expected
    .replace(/\bArray\b/g, "a list")
    .replace(/\bObject\b/g, "an object");
}
