import { readDocumentText } from "../../adapters/read-document.ts";
import { existsSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { resolveInside } from "../../adapters/resolve-inside.ts";
import { summarizePlaybook } from "../../core/cache/summary.ts";
import type { PlaybookSummary } from "../../core/model/summary.ts";
import { locationAt, PlaybookError } from "../../core/errors.ts";
import type { Point } from "../../core/model/diagnostic.ts";
import type { StateDoc } from "../../core/model/state.ts";
import type { Playbook } from "../../core/model/playbook.ts";
import { parsePlaybook } from "../../core/parse/parse-playbook.ts";
import { parseState } from "../../core/parse/parse-state.ts";
import {
  explainUnsafeActivePath,
  normaliseActivePath,
} from "../../core/validate/active-path.ts";

/** A playbook as the record commands use it: where it is, its text, AST and summary. */
export interface ResolvedPlaybook {
  /** Repository-relative POSIX path: records are filed under it. */
  path: string;
  /** Absolute path of the file. */
  file: string;
  text: string;
  playbook: Playbook;
  summary: PlaybookSummary;
}

/**
 * The playbook a record command works on: `option` (`--playbook`, relative to `root`) or else state.md's `active`.
 * The file must exist inside the project and its YAML blocks must parse.
 *
 * @throws PlaybookError E_NOT_FOUND for a missing state.md or playbook, E_CONFIG for no or an unsafe active
 *   playbook or broken YAML, E_USAGE for a `--playbook` outside the project.
 */
export function resolvePlaybook(
  root: string,
  option: string | undefined,
): ResolvedPlaybook {
  const path =
    option === undefined
      ? activePlaybook(root)
      : explicitPlaybook(root, option);
  const inside = resolveInside(root, path);
  if (inside.status !== "inside")
    throw inside.status === "missing"
      ? new PlaybookError("E_NOT_FOUND", `${path} does not exist.`, {
          hint:
            option === undefined
              ? "Fix `active:` in state.md's `## playbook` block, or name the playbook with --playbook plan/playbook-<name>.md."
              : "Pass the playbook's path relative to the project root, e.g. --playbook plan/playbook-<name>.md.",
        })
      : new PlaybookError(
          "E_USAGE",
          `${path} leads outside the project through a symlink; records are only kept for playbooks inside it.`,
          { hint: "Name a playbook file inside the project." },
        );
  let text: string;
  try {
    text = readDocumentText(join(root, path), "playbook", path);
  } catch (cause) {
    if (cause instanceof PlaybookError) throw cause;
    throw new PlaybookError("E_NOT_FOUND", `${path} cannot be read.`, {
      hint: "Check that it is a regular file you can read.",
      location: { file: path },
      cause,
    });
  }
  const parsed = parsePlaybook(text, path);
  const yamlError = parsed.diagnostics.find(
    (d) => d.severity === "error" && d.code.startsWith("yaml-"),
  );
  if (yamlError)
    throw new PlaybookError("E_CONFIG", yamlError.message, {
      hint: `Fix the YAML (\`playbook lint ${path}\` lists every problem), then run the command again.`,
      location: locationAt(yamlError.file, yamlError),
    });
  return {
    path,
    file: inside.path,
    text,
    playbook: parsed.value,
    summary: summarizePlaybook(parsed.value, parsed.diagnostics),
  };
}

function activePlaybook(root: string): string {
  const statePath = resolve(root, "state.md");
  if (!existsSync(statePath))
    throw new PlaybookError("E_NOT_FOUND", `No state.md in ${root}.`, {
      hint: "Run the command in the project root (or pass --cwd), or name the playbook with --playbook plan/playbook-<name>.md.",
    });
  const parsed = parseState(
    readDocumentText(statePath, "state", "state.md"),
    "state.md",
  );
  const active = parsed.value.playbook.active;
  if (active === null) {
    const error = parsed.diagnostics.find((d) => d.severity === "error");
    throw new PlaybookError(
      "E_CONFIG",
      error
        ? `state.md names no active playbook: ${error.message}`
        : "state.md names no active playbook (`active: null`).",
      {
        hint: "Set `active:` in state.md's `## playbook` block to the playbook's path, or pass --playbook plan/playbook-<name>.md.",
        location: error
          ? locationAt(error.file, error)
          : locationAt("state.md", activeField(parsed.value)),
      },
    );
  }
  const unsafe = explainUnsafeActivePath(active);
  if (unsafe !== null)
    throw new PlaybookError(
      "E_CONFIG",
      `state.md names \`${active}\` as the active playbook, but ${unsafe}.`,
      {
        hint: "Set `active:` in state.md to a relative path under plan/, e.g. plan/playbook-<name>.md.",
        location: locationAt("state.md", activeField(parsed.value)),
      },
    );
  return normaliseActivePath(active);
}

function explicitPlaybook(root: string, option: string): string {
  const absolute = resolve(root, option.replace(/\\/g, "/"));
  const rel = relative(root, absolute);
  if (
    rel === "" ||
    rel === ".." ||
    rel.startsWith(`..${sep}`) ||
    isAbsolute(rel)
  )
    throw new PlaybookError(
      "E_USAGE",
      `--playbook ${option} is outside the project ${root}.`,
      {
        hint: "Pass the playbook's path relative to the project root, e.g. --playbook plan/playbook-<name>.md.",
      },
    );
  return rel.split(sep).join("/");
}

/** Where state.md's `active:` value is, when its `## playbook` block has one. */
function activeField(state: StateDoc): Point | undefined {
  return state.sections.playbook?.fields["active"]?.start;
}
