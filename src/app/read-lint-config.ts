import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { diagnosticAt, type Diagnostic } from "../core/model/diagnostic.ts";
import type { PlaybookRuleOptions } from "../core/validate/validate-playbook.ts";

export const CONFIG_FILE = ".claude/playbook.json";

/** Reads the `lint` part of `.claude/playbook.json`; a broken file is a diagnostic and the defaults apply. */
export function readLintConfig(root: string): {
  options: PlaybookRuleOptions;
  diagnostics: Diagnostic[];
} {
  const path = join(root, CONFIG_FILE);
  if (!existsSync(path)) return { options: {}, diagnostics: [] };
  const text = readFileSync(path, "utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
    const before = text.slice(0, position);
    const line = before.split("\n").length;
    const column = position - before.lastIndexOf("\n");
    return {
      options: {},
      diagnostics: [
        diagnosticAt(
          CONFIG_FILE,
          { line, column },
          "config-json",
          "error",
          `Unexpected JSON syntax (${message.split("\n")[0] ?? message}), expected a valid JSON object. Fix the file; until then the defaults apply.`,
        ),
      ],
    };
  }
  const lint = (json as { lint?: { bannedPhrases?: unknown } } | null)?.lint;
  const phrases = lint?.bannedPhrases;
  if (phrases === undefined) return { options: {}, diagnostics: [] };
  if (!Array.isArray(phrases) || !phrases.every((p) => typeof p === "string")) {
    const offset = text.indexOf('"bannedPhrases"');
    const line = offset === -1 ? 1 : text.slice(0, offset).split("\n").length;
    return {
      options: {},
      diagnostics: [
        diagnosticAt(
          CONFIG_FILE,
          { line, column: 1 },
          "config-invalid",
          "error",
          'Unexpected `lint.bannedPhrases` that is not a list of strings, expected e.g. ["properly", "works well"]. Fix it; until then the default list applies.',
        ),
      ],
    };
  }
  return { options: { bannedPhrases: phrases }, diagnostics: [] };
}
