import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  defaultConfig,
  resolveConfig,
  type ConfigProblem,
  type PlaybookConfig,
} from "../../core/config/config.ts";

export const CONFIG_FILE = ".claude/playbook.json";

export type ConfigText =
  | { status: "missing" }
  | { status: "unreadable"; why: string }
  | { status: "read"; text: string };

/** The text of `.claude/playbook.json` without a leading BOM, or why there is none. */
export function readConfigText(root: string): ConfigText {
  try {
    return {
      status: "read",
      text: readFileSync(join(root, CONFIG_FILE), "utf8").replace(
        /^\uFEFF/,
        "",
      ),
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    if (code === "ENOENT") return { status: "missing" };
    return {
      status: "unreadable",
      why: code === "EISDIR" ? "it is a directory" : code,
    };
  }
}

/**
 * The project's configuration for the hook path: `JSON.parse` and the schema, nothing heavier. Problems come back as
 * short sentences; `playbook lint` reports them with their line.
 */
export function readConfig(root: string): {
  config: PlaybookConfig;
  problems: ConfigProblem[];
} {
  // A hook process serves one call: the guards and the timing log ask for the same file.
  const cached = readOnce.get(root);
  if (cached) return cached;
  const result = readConfigUncached(root);
  readOnce.set(root, result);
  return result;
}

const readOnce = new Map<string, ReturnType<typeof readConfigUncached>>();

function readConfigUncached(root: string): {
  config: PlaybookConfig;
  problems: ConfigProblem[];
} {
  const read = readConfigText(root);
  if (read.status === "missing")
    return { config: defaultConfig(), problems: [] };
  if (read.status === "unreadable")
    return {
      config: defaultConfig(),
      problems: [
        {
          path: [],
          message: `${CONFIG_FILE} cannot be read (${read.why}); the defaults apply.`,
          severity: "error",
        },
      ],
    };
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch {
    return {
      config: defaultConfig(),
      problems: [
        {
          path: [],
          message: `${CONFIG_FILE} is not valid JSON; the defaults apply. Run \`playbook lint\` for the line.`,
          severity: "error",
        },
      ],
    };
  }
  return resolveConfig(json);
}
