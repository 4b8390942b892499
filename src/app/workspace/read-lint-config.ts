import {
  findNodeAtLocation,
  parse as parseJsonc,
  parseTree,
  printParseErrorCode,
  type ParseError,
} from "jsonc-parser";
import {
  resolveConfig,
  type PlaybookConfig,
} from "../../core/config/config.ts";
import { diagnosticAt, type Diagnostic } from "../../core/model/diagnostic.ts";
import type { PlaybookRuleOptions } from "../../core/validate/validate-playbook.ts";
import { CONFIG_FILE, readConfigText } from "./read-config.ts";

/**
 * Reads `.claude/playbook.json` for the CLI: the configuration, and every problem as a diagnostic at its line
 * (broken JSON with jsonc-parser's position, values the schema refuses, unknown keys). A broken or unreadable file
 * keeps the defaults.
 */
function readConfigWithDiagnostics(root: string): {
  config: PlaybookConfig;
  diagnostics: Diagnostic[];
} {
  const read = readConfigText(root);
  if (read.status === "missing")
    return { ...resolveConfig(undefined), diagnostics: [] };
  if (read.status === "unreadable")
    return {
      config: resolveConfig(undefined).config,
      diagnostics: [
        diagnosticAt(
          CONFIG_FILE,
          { line: 1, column: 1 },
          "config-json",
          "error",
          `Unexpected ${CONFIG_FILE} that cannot be read (${read.why}), expected a readable JSON file. Make it a regular, readable file or remove it; until then the defaults apply.`,
        ),
      ],
    };
  const text = read.text;
  const errors: ParseError[] = [];
  const json: unknown = parseJsonc(text, errors, {
    disallowComments: true,
    allowTrailingComma: false,
  });
  const first = errors[0];
  if (first)
    return {
      config: resolveConfig(undefined).config,
      diagnostics: [syntaxDiagnostic(text, first)],
    };
  const { config, problems } = resolveConfig(json);
  const tree = parseTree(text);
  const diagnostics = problems.map((problem) => {
    const node = tree ? findNodeAtLocation(tree, problem.path) : undefined;
    // Point at the key of the value when there is one: that is where a reader looks.
    const offset =
      node?.parent?.type === "property"
        ? node.parent.offset
        : (node?.offset ?? 0);
    return diagnosticAt(
      CONFIG_FILE,
      position(text, offset),
      problem.unknownKey ? "config-unknown-key" : "config-invalid",
      problem.severity,
      problem.message,
    );
  });
  return { config, diagnostics };
}

/** The `lint` options of `.claude/playbook.json` and the file's diagnostics. */
export function readLintConfig(root: string): {
  options: PlaybookRuleOptions;
  diagnostics: Diagnostic[];
} {
  const { config, diagnostics } = readConfigWithDiagnostics(root);
  const phrases = config.lint.bannedPhrases;
  return {
    options: phrases === undefined ? {} : { bannedPhrases: phrases },
    diagnostics,
  };
}

function syntaxDiagnostic(text: string, error: ParseError): Diagnostic {
  const found =
    error.offset >= text.length
      ? "end of file"
      : JSON.stringify(
          text.slice(error.offset, error.offset + Math.max(error.length, 1)),
        );
  const expected = printParseErrorCode(error.error)
    .replace(/Expected$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return diagnosticAt(
    CONFIG_FILE,
    position(text, error.offset),
    "config-json",
    "error",
    `Unexpected ${found}, expected ${/^(value|comma|colon|property name)$/.test(expected) ? `a ${expected}` : `valid JSON (${expected})`}. Fix the JSON; until then the defaults apply.`,
  );
}

function position(
  text: string,
  offset: number,
): { line: number; column: number } {
  const before = text.slice(0, offset);
  return {
    line: before.split("\n").length,
    column: offset - before.lastIndexOf("\n"),
  };
}
