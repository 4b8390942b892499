import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { lintCached } from "../../adapters/lint-cache.ts";
import { readBounded } from "../../adapters/read-bounded.ts";
import {
  maxDocumentBytes,
  oversizeMessage,
} from "../../core/paths/input-limits.ts";
import { resolveInside, type Resolved } from "../../adapters/resolve-inside.ts";
import {
  diagnosticAt,
  sortDiagnostics,
  type Diagnostic,
} from "../../core/model/diagnostic.ts";
import type { Playbook } from "../../core/model/playbook.ts";
import type { StateDoc } from "../../core/model/state.ts";
import { parsePlaybook } from "../../core/parse/parse-playbook.ts";
import { parseState } from "../../core/parse/parse-state.ts";
import {
  explainUnsafeActivePath,
  normaliseActivePath,
} from "../../core/validate/active-path.ts";
import { validatePlaybook } from "../../core/validate/validate-playbook.ts";
import { validateWorkspace } from "../../core/validate/validate-workspace.ts";
import { readLintConfig } from "../workspace/read-lint-config.ts";

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
  const optionsKey = JSON.stringify(config.options);
  const diagnostics: Diagnostic[] = [...config.diagnostics];
  const report: LintReport = {
    files: [],
    state: null,
    active: null,
    playbooks: [],
    diagnostics: [],
  };
  const seen = new Set<string>();

  /** `explicit` files are linted where they are; default targets must stay inside the repository. */
  const lintFile = (file: string, explicit: boolean) => {
    if (seen.has(file)) return;
    seen.add(file);
    const read = readTarget(root, file, explicit);
    if (!read.ok) {
      diagnostics.push(read.diagnostic);
      return;
    }
    report.files.push(file);
    if (basename(file) === "state.md") {
      // Its parse alone is some 20 ms in a fresh process, most of it loading micromark and yaml's code.
      const parsed = lintCached(root, file, read.text, "state", () =>
        parseState(read.text, file),
      );
      diagnostics.push(...parsed.diagnostics);
      report.state = { kind: "state", file, state: parsed.value };
    } else {
      // A big playbook takes a second to parse; unchanged, it is read back from the cache in milliseconds.
      const linted = lintCached(root, file, read.text, optionsKey, (chunks) => {
        const parsed = parsePlaybook(read.text, file, chunks);
        return {
          playbook: parsed.value,
          diagnostics: [
            ...parsed.diagnostics,
            ...validatePlaybook(parsed.value, file, config.options),
          ],
        };
      });
      diagnostics.push(...linted.diagnostics);
      report.playbooks.push({
        kind: "playbook",
        file,
        playbook: linted.playbook,
      });
    }
  };

  let activeResolved: Resolved | undefined;
  if (files && files.length > 0) {
    for (const file of files) lintFile(toRelative(root, file), true);
  } else {
    lintFile("state.md", false);
    const active = report.state ? safeActivePath(report.state.state) : null;
    if (active !== null) {
      activeResolved = resolveInside(root, active);
      // A missing or escaping active playbook is reported once, on state.md's `active` line.
      if (activeResolved.status === "inside") lintFile(active, false);
    }
    for (const file of planPlaybooks(root)) {
      if (resolveInside(root, file).status === "inside") lintFile(file, false);
    }
  }

  if (report.state) {
    const activePath = safeActivePath(report.state.state);
    report.active = report.playbooks.find((p) => p.file === activePath) ?? null;
    const facts: Parameters<typeof validateWorkspace>[1] = {
      stateFile: report.state.file,
    };
    if (activePath !== null) {
      activeResolved ??= resolveInside(root, activePath);
      facts.activeExists = activeResolved.status !== "missing";
      facts.activeOutside = activeResolved.status === "outside";
    }
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

function readTarget(
  root: string,
  file: string,
  explicit: boolean,
): { ok: true; text: string } | { ok: false; diagnostic: Diagnostic } {
  const fail = (code: string, message: string) => ({
    ok: false as const,
    diagnostic: diagnosticAt(
      file,
      { line: 1, column: 1 },
      code,
      "error",
      message,
    ),
  });
  const path = explicit ? resolve(root, file) : join(root, file);
  if (!existsSync(path)) {
    return fail(
      "file-missing",
      file === "state.md"
        ? "Unexpected project without state.md, expected one at the repository root. Run `playbook init` to set the project up."
        : `Unexpected missing file ${file}, expected a markdown file. Check the path.`,
    );
  }
  try {
    if (statSync(path).isDirectory()) {
      return fail(
        "file-unreadable",
        `Unexpected ${file} that is a directory, expected a markdown file. Check the path.`,
      );
    }
    const limit = maxDocumentBytes(
      basename(file) === "state.md" ? "state" : "playbook",
    );
    const read = readBounded(path, limit);
    return read.truncated
      ? fail("document-too-large", oversizeMessage(file, read.size, limit))
      : { ok: true, text: read.text };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "an error";
    return fail(
      "file-unreadable",
      `Unexpected ${code} while reading ${file}, expected a readable markdown file. Check its permissions and that it is a regular file.`,
    );
  }
}

function planPlaybooks(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(root, "plan"));
  } catch {
    // No plan/ folder (or a file in its place): there are no playbooks to lint by default.
    return [];
  }
  return names
    .filter((name) => /^playbook-.*\.md$/.test(name))
    .sort()
    .map((name) => `plan/${name}`);
}

function toRelative(root: string, file: string): string {
  const rel = relative(root, resolve(root, file.replace(/\\/g, "/")));
  return rel === "" ? file : rel.split(sep).join("/");
}
