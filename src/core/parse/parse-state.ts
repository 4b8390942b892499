import type { Diagnostic } from "../model/diagnostic.ts";
import { diagnosticAt } from "../model/diagnostic.ts";
import {
  GOAL_STATUSES,
  SECURITY_MODES,
  STATE_SECTIONS,
  TOOLSTACKS,
  type StateDoc,
  type StateSectionName,
  type YamlSection,
} from "../model/state.ts";
import { createFieldReader } from "./field-reader.ts";
import { parseMarkdown } from "./markdown.ts";
import { rootEnd, splitSections } from "./sections.ts";
import { createSource } from "./source.ts";
import { findSection } from "./find-section.ts";
import { reportUnknownSections } from "./unknown-sections.ts";
import { checkRoles } from "../validate/roles.ts";
import { reportSetextHeadings } from "./setext.ts";
import { readYamlSection } from "./yaml-section.ts";

export interface Parsed<T> {
  value: T;
  diagnostics: Diagnostic[];
}

const KNOWN_KEYS: Record<StateSectionName, readonly string[]> = {
  playbook: ["active", "branch", "last_archived"],
  goal: ["milestone", "phase", "done_criteria", "status"],
  session: ["last_start", "last_end"],
  config: ["security", "toolstack", "roles"],
};

const REQUIRED: ReadonlySet<StateSectionName> = new Set(["playbook", "goal"]);

/** Parses `state.md`. Never throws: problems come back as diagnostics and fields fall back to safe defaults. */
export function parseState(text: string, file: string): Parsed<StateDoc> {
  const source = createSource(file, text);
  const root = parseMarkdown(source.body);
  const diagnostics: Diagnostic[] = [];
  reportSetextHeadings(source, root, diagnostics);
  const sections = splitSections(root.children, 2, rootEnd(root));
  const found: Partial<Record<StateSectionName, YamlSection>> = {};
  const data: Partial<Record<StateSectionName, Record<string, unknown>>> = {};

  // Other sections are the user's prose (a references table, notes); only a misspelt name is reported.
  const misspelt = reportUnknownSections(source, sections, diagnostics, {
    names: STATE_SECTIONS,
    unrelated: null,
  });
  for (const name of STATE_SECTIONS) {
    const first =
      findSection(source, sections, [name], diagnostics) ?? misspelt.get(name);
    if (first === undefined) {
      diagnostics.push(
        diagnosticAt(
          file,
          { line: 1, column: 1 },
          "section-missing",
          REQUIRED.has(name) ? "error" : "warning",
          `Unexpected state.md without a \`## ${name}\` section, expected sections playbook, goal, session and config. Copy the section from plan/template/state-initial.md.`,
        ),
      );
      continue;
    }
    const read = readYamlSection(
      source,
      first,
      "plan/template/state-initial.md",
      diagnostics,
    );
    found[name] = read.section;
    data[name] = read.data;
  }

  const reader = (name: StateSectionName) => {
    const r = createFieldReader(
      source,
      found[name],
      data[name] ?? {},
      diagnostics,
    );
    r.reportUnknown(KNOWN_KEYS[name]);
    return r;
  };
  const playbook = reader("playbook");
  const goal = reader("goal");
  const session = reader("session");
  const config = reader("config");

  const value: StateDoc = {
    playbook: {
      active: playbook.stringOrNull("active"),
      branch: playbook.stringOrNull("branch"),
      lastArchived: playbook.stringOrNull("last_archived"),
    },
    goal: {
      milestone: goal.stringOrNull("milestone"),
      phase: goal.stringOrNull("phase"),
      doneCriteria: goal.stringList("done_criteria"),
      status: goal.oneOf("status", GOAL_STATUSES, null),
    },
    session: {
      lastStart: session.stringOrNull("last_start"),
      lastEnd: session.stringOrNull("last_end"),
    },
    config: {
      security: config.oneOf("security", SECURITY_MODES, "strict") ?? "strict",
      toolstack: config.oneOf("toolstack", TOOLSTACKS, "A") ?? "A",
      roles: config.stringMap("roles"),
    },
    sections: found,
  };
  const securityAt = found.config?.fields["security"]?.start;
  if (securityAt)
    // The agent may edit state.md, so a mode written here would be the agent's to lower.
    diagnostics.push(
      diagnosticAt(
        file,
        securityAt,
        "security-moved",
        "warning",
        `Unexpected \`security\` in state.md, expected it in .claude/playbook.json, where the agent cannot change it: state.md's value is ignored (the mode is .claude/playbook.json's \`security\`, strict when absent). Next: run \`npx --no playbook upgrade\`, which moves it, or delete the line.`,
      ),
    );
  diagnostics.push(
    ...checkRoles(
      value.config.roles,
      file,
      found.config?.fields["roles"]?.start ?? { line: 1, column: 1 },
      "the `## config` roles",
    ),
  );
  return { value, diagnostics };
}
