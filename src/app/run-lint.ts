import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, isAbsolute, join, relative } from "node:path";
import {
  diagnosticAt,
  sortDiagnostics,
  type Diagnostic,
} from "../core/model/diagnostic.ts";
import type { Playbook } from "../core/model/playbook.ts";
import type { StateDoc } from "../core/model/state.ts";
import { parsePlaybook } from "../core/parse/parse-playbook.ts";
import { parseState } from "../core/parse/parse-state.ts";
import {
  explainUnsafeActivePath,
  normaliseActivePath,
} from "../core/validate/active-path.ts";
import { validatePlaybook } from "../core/validate/validate-playbook.ts";
import { validateWorkspace } from "../core/validate/validate-workspace.ts";
import { readLintConfig } from "./read-lint-config.ts";

export interface LintedState {
  kind: "state";
  file: string;
  state: StateDoc;
}

export interface LintedPlaybook {
  kind: "playbook";
  file: string;
  playbook: Playbook;
}

export interface LintReport {
  files: string[];
  state: LintedState | null;
  /** The playbook `state.md` names as active, when it was linted. */
  active: LintedPlaybook | null;
  playbooks: LintedPlaybook[];
  diagnostics: Diagnostic[];
}

/**
 * Lints `files` (paths relative to `root`), or by default `state.md`, the active playbook and every
 * `plan/playbook-*.md`. Each document is parsed and checked; `state.md` and its active playbook are cross-checked.
 */
export function runLint(root: string, files?: readonly string[]): LintReport {
  const config = readLintConfig(root);
  const diagnostics: Diagnostic[] = [...config.diagnostics];
  const report: LintReport = {
    files: [],
    state: null,
    active: null,
    playbooks: [],
    diagnostics: [],
  };
  const seen = new Set<string>();

  const lintFile = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const path = join(root, file);
    if (!existsSync(path) || !statSync(path).isFile()) {
      diagnostics.push(missingFile(file));
      return;
    }
    report.files.push(file);
    const text = readFileSync(path, "utf8");
    if (basename(file) === "state.md") {
      const parsed = parseState(text, file);
      diagnostics.push(...parsed.diagnostics);
      report.state = { kind: "state", file, state: parsed.value };
    } else {
      const parsed = parsePlaybook(text, file);
      diagnostics.push(
        ...parsed.diagnostics,
        ...validatePlaybook(parsed.value, file, config.options),
      );
      report.playbooks.push({ kind: "playbook", file, playbook: parsed.value });
    }
  };

  if (files && files.length > 0) {
    for (const file of files) lintFile(toRelative(root, file));
  } else {
    lintFile("state.md");
    const active = report.state ? safeActivePath(report.state.state) : null;
    // A missing active playbook is reported once, as active-missing on state.md.
    if (active !== null && existsSync(join(root, active))) lintFile(active);
    for (const file of planPlaybooks(root)) lintFile(file);
  }

  if (report.state) {
    const activePath = safeActivePath(report.state.state);
    report.active = report.playbooks.find((p) => p.file === activePath) ?? null;
    const facts: Parameters<typeof validateWorkspace>[1] = {
      stateFile: report.state.file,
    };
    if (activePath !== null)
      facts.activeExists = existsSync(join(root, activePath));
    if (report.active)
      facts.active = {
        file: report.active.file,
        playbook: report.active.playbook,
      };
    diagnostics.push(...validateWorkspace(report.state.state, facts));
  }
  report.diagnostics = sortDiagnostics(diagnostics);
  return report;
}

function safeActivePath(state: StateDoc): string | null {
  const active = state.playbook.active;
  return active !== null && explainUnsafeActivePath(active) === null
    ? normaliseActivePath(active)
    : null;
}

function missingFile(file: string): Diagnostic {
  return diagnosticAt(
    file,
    { line: 1, column: 1 },
    "file-missing",
    "error",
    file === "state.md"
      ? "Unexpected project without state.md, expected one at the repository root. Copy plan/template/state-initial.md to state.md."
      : `Unexpected missing file ${file}, expected a markdown file. Check the path.`,
  );
}

function planPlaybooks(root: string): string[] {
  const planDir = join(root, "plan");
  if (!existsSync(planDir)) return [];
  return readdirSync(planDir)
    .filter((name) => /^playbook-.*\.md$/.test(name))
    .sort()
    .map((name) => `plan/${name}`);
}

function toRelative(root: string, file: string): string {
  const rel = isAbsolute(file) ? relative(root, file) : file;
  return rel.replace(/\\/g, "/").replace(/^\.\//, "");
}
