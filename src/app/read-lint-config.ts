import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  parse as parseJsonc,
  printParseErrorCode,
  type ParseError,
} from "jsonc-parser";
import { diagnosticAt, type Diagnostic } from "../core/model/diagnostic.ts";
import type { PlaybookRuleOptions } from "../core/validate/validate-playbook.ts";

export const CONFIG_FILE = ".claude/playbook.json";

/**
 * Reads the `lint` part of `.claude/playbook.json` (a leading BOM is ignored); a broken or unreadable file is a
 * diagnostic and the defaults apply.
 */
export function readLintConfig(root: string): {
  options: PlaybookRuleOptions;
  diagnostics: Diagnostic[];
} {
  const path = join(root, CONFIG_FILE);
  if (!existsSync(path)) return { options: {}, diagnostics: [] };
  let text: string;
  try {
    text = readFileSync(path, "utf8").replace(/^\uFEFF/, "");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    const why = code === "EISDIR" ? "it is a directory" : code;
    return {
      options: {},
      diagnostics: [
        diagnosticAt(
          CONFIG_FILE,
          { line: 1, column: 1 },
          "config-json",
          "error",
          `Unexpected ${CONFIG_FILE} that cannot be read (${why}), expected a readable JSON file. Make it a regular, readable file or remove it; until then the defaults apply.`,
        ),
      ],
    };
  }
  const errors: ParseError[] = [];
  const json: unknown = parseJsonc(text, errors, {
    disallowComments: true,
    allowTrailingComma: false,
  });
  const first = errors[0];
  if (first) {
    const before = text.slice(0, first.offset);
    const line = before.split("\n").length;
    const column = first.offset - before.lastIndexOf("\n");
    const found =
      first.offset >= text.length
        ? "end of file"
        : JSON.stringify(
            text.slice(first.offset, first.offset + Math.max(first.length, 1)),
          );
    const expected = printParseErrorCode(first.error)
      .replace(/Expected$/, "")
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase();
    return {
      options: {},
      diagnostics: [
        diagnosticAt(
          CONFIG_FILE,
          { line, column },
          "config-json",
          "error",
          `Unexpected ${found}, expected ${/^(value|comma|colon|property name)$/.test(expected) ? `a ${expected}` : `valid JSON (${expected})`}. Fix the JSON; until then the defaults apply.`,
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
