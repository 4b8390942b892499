import type { Heading, ListItem, Paragraph, RootContent } from "mdast";
import type { Diagnostic, Span } from "../model/diagnostic.ts";
import { diagnosticAt } from "../model/diagnostic.ts";
import {
  PHASE_STATUSES,
  VALIDATION_NAMES,
  type FinalTask,
  type Phase,
  type PhaseLabel,
  type PhaseStatus,
  type Playbook,
  type Subtask,
  type Validation,
  type ValidationName,
} from "../model/playbook.ts";
import type { ChunkCache } from "./chunk-tree.ts";
import { createFieldReader } from "./field-reader.ts";
import { parseMarkdown } from "./markdown.ts";
import type { Parsed } from "./parse-state.ts";
import {
  isSetextHeading,
  plainText,
  rootEnd,
  splitSections,
  type Section,
} from "./sections.ts";
import {
  lineEndAt,
  offsetsOf,
  spanFromNode,
  spanOf,
  type Source,
  createSource,
} from "./source.ts";
import {
  parseInlineList,
  parseInlineValue,
  parseValidationValue,
  valueExtent,
} from "./values.ts";
import { didYouMean } from "../text/did-you-mean.ts";
import { findSection } from "./find-section.ts";
import { reportUnknownSections } from "./unknown-sections.ts";
import { reportSetextHeadings } from "./setext.ts";
import { readYamlContent, readYamlSection } from "./yaml-section.ts";

const FORMAT_DOC = "plan/template/playbook-format.md";
const META_KEYS = [
  "project",
  "branch",
  "created",
  "issue",
  "reviewed",
  "roles",
] as const;
const GOAL_KEYS = ["summary", "done_when"] as const;
/** `**label**: value`, also written `**Label:** value`. */
export const LABEL_LINE =
  /^(\s*)\*\*([A-Za-z_][\w ]*?)(?:\*\*\s*[:：]|[:：]\s*\*\*)[ \t]*(.*)$/;
const ID_PREFIX = /^\*\*([^*\n]+)\*\*\s*[:：]?[ \t]*/;
const FIELD_LINE = /^([A-Za-z_][\w-]*)\s*[:：][ \t]*(.*)$/;

/**
 * Parses a `plan/playbook-<name>.md`. Never throws: problems come back as diagnostics. `chunks` keeps the trees of
 * the document's chunks between parses (`parseMarkdown`); the result is the same with or without it.
 */
export function parsePlaybook(
  text: string,
  file: string,
  chunks?: ChunkCache,
): Parsed<Playbook> {
  const source = createSource(file, text);
  const root = parseMarkdown(source.body, chunks);
  const diagnostics: Diagnostic[] = [];
  reportSetextHeadings(source, root, diagnostics);
  const sections = splitSections(root.children, 2, rootEnd(root));
  const misspelt = reportUnknownSections(source, sections, diagnostics, {
    names: SECTION_NAMES,
    aliases: ["final tasks"],
    unrelated:
      "expected meta, goal, context, phases or final_tasks; playbook ignores it. Put notes in `## context`, or remove the section.",
  });
  // A misspelt heading was reported at its line; what is under it is read as the section it means.
  const byName = (...names: string[]) =>
    findSection(source, sections, names, diagnostics) ??
    names.map((name) => misspelt.get(name)).find((found) => found);
  const missing = (name: string, hint: string) =>
    diagnostics.push(
      diagnosticAt(
        file,
        { line: 1, column: 1 },
        "section-missing",
        "error",
        `Unexpected playbook without a \`## ${name}\` section, expected meta, goal, context and phases (final_tasks is optional). ${hint}`,
      ),
    );

  const metaSection = byName("meta");
  const frontmatter =
    root.children[0]?.type === "yaml" ? root.children[0] : undefined;
  let metaRead;
  if (metaSection)
    metaRead = readYamlSection(
      source,
      metaSection,
      FORMAT_DOC,
      diagnostics,
      chunks,
    );
  else if (frontmatter) {
    const span = spanFromNode(source, frontmatter);
    metaRead = readYamlContent(
      source,
      "meta",
      span,
      span,
      "frontmatter",
      FORMAT_DOC,
      diagnostics,
      chunks,
    );
  } else
    missing(
      "meta",
      "Add a `## meta` section with project, branch and reviewed.",
    );
  const meta = createFieldReader(
    source,
    metaRead?.section,
    metaRead?.data ?? {},
    diagnostics,
  );
  meta.reportUnknown(META_KEYS);

  const goalSection = byName("goal");
  const goalRead = goalSection
    ? readYamlSection(source, goalSection, FORMAT_DOC, diagnostics, chunks)
    : undefined;
  if (!goalSection)
    missing("goal", "Add a `## goal` section with summary and done_when.");
  const goal = createFieldReader(
    source,
    goalRead?.section,
    goalRead?.data ?? {},
    diagnostics,
  );
  goal.reportUnknown(GOAL_KEYS);

  const contextSection = byName("context");
  const phasesSection = byName("phases");
  if (!phasesSection)
    missing(
      "phases",
      "Add `## phases` with at least one `### p1: <name>` phase.",
    );
  const finalSection = byName("final_tasks", "final tasks");

  const sectionsOut: Playbook["sections"] = {};
  if (metaRead) sectionsOut.meta = metaRead.section;
  if (goalRead) sectionsOut.goal = goalRead.section;
  if (phasesSection)
    sectionsOut.phases = spanFromNode(source, phasesSection.heading);

  const value: Playbook = {
    meta: {
      project: meta.stringOrNull("project"),
      branch: meta.stringOrNull("branch"),
      created: meta.stringOrNull("created"),
      issue: meta.stringOrNull("issue"),
      reviewed: meta.boolean("reviewed", false),
      roles: meta.stringMap("roles"),
    },
    goal: {
      summary: goal.stringOrNull("summary"),
      doneWhen: goal.stringList("done_when"),
    },
    context: contextSection ? readContext(source, contextSection) : null,
    phases: phasesSection ? readPhases(source, phasesSection, diagnostics) : [],
    finalTasks: finalSection ? readFinalTasks(source, finalSection) : [],
    sections: sectionsOut,
  };
  return { value, diagnostics };
}

function readContext(
  source: Source,
  section: Section,
): { text: string; span: Span } {
  const start = lineEndAt(
    source,
    spanFromNode(source, section.heading).end.offset,
  );
  const end = section.endOffset + source.bomLength;
  return {
    text: source.text.slice(start, end).replace(/\r\n/g, "\n").trim(),
    span: spanOf(source, start, end),
  };
}

function readPhases(
  source: Source,
  section: Section,
  diagnostics: Diagnostic[],
): Phase[] {
  return splitSections(section.nodes, 3, section.endOffset).map((chunk) =>
    readPhase(source, chunk, diagnostics),
  );
}

const SECTION_NAMES = ["meta", "goal", "context", "phases", "final_tasks"];
const PHASE_LABELS = [
  "goal",
  "depends_on",
  "status",
  "max_iterations",
  "time_limit",
  "priority",
];
const SUBTASK_FIELDS = [
  "executor",
  "validations",
  "depends_on",
  "validated",
  ...VALIDATION_NAMES,
];

function readPhase(
  source: Source,
  chunk: Section,
  diagnostics: Diagnostic[],
): Phase {
  const heading = spanFromNode(source, chunk.heading);
  const title = plainText(chunk.heading).trim();
  const match = /^([^:：]+?)\s*[:：]\s*(.*)$/.exec(title);
  const id = match?.[1] ?? title.split(/\s+/)[0] ?? "";
  const name = (match?.[2] ?? title.slice(id.length)).trim();
  const labels = readLabels(source, chunk.nodes);
  // Bold-led prose (`**Risk**: ...`) is common in a phase; only a label close to a known one is a typo, reported
  // and read as the label it means.
  for (const [key, label] of Object.entries(labels)) {
    if (PHASE_LABELS.includes(key)) continue;
    const meant = didYouMean(key, PHASE_LABELS);
    if (meant === null) continue;
    diagnostics.push(
      diagnosticAt(
        source.file,
        label.span.start,
        "label-unknown",
        "error",
        `Unexpected label \`**${key}**\` in ${id}, expected \`**${meant}**\`; it is read as \`**${meant}**\` until you fix the spelling.`,
      ),
    );
    labels[meant] ??= label;
  }
  const subtasks: Subtask[] = [];
  for (const node of chunk.nodes) {
    if (node.type !== "list") continue;
    for (const item of node.children) {
      const subtask = readSubtask(source, item, diagnostics);
      if (subtask) subtasks.push(subtask);
    }
  }
  const status = readStatus(source, labels.status, diagnostics);
  const maxIterations = readPositiveInt(
    source,
    "max_iterations",
    labels.max_iterations,
    diagnostics,
  );
  return {
    id,
    name,
    goal: labels.goal?.value ?? null,
    dependsOn: labels.depends_on
      ? parseInlineList(labels.depends_on.value)
      : [],
    status,
    maxIterations,
    timeLimit: labels.time_limit?.value ?? null,
    priority: labels.priority?.value ?? null,
    subtasks,
    labels,
    span: spanOf(
      source,
      heading.start.offset,
      chunk.endOffset + source.bomLength,
    ),
    heading,
  };
}

/**
 * Collects `**label**: value` lines of a phase. Lines inside a list item only count when they start at column 1:
 * markdown folds a label written right under a list into the list's last paragraph ("lazy continuation").
 */
function readLabels(
  source: Source,
  nodes: readonly RootContent[],
): Record<string, PhaseLabel> {
  const labels: Record<string, PhaseLabel> = {};
  const visit = (node: unknown, nested: boolean) => {
    if (typeof node !== "object" || node === null) return;
    const typed = node as { type?: string; children?: unknown[] };
    // A label right above `---` is parsed as a setext heading; its first line is still the label.
    if (
      typed.type === "paragraph" ||
      (typed.type === "heading" && isSetextHeading(typed as Heading))
    ) {
      scanLabelLines(source, typed as Paragraph | Heading, nested, labels);
      return;
    }
    if (typed.type === "heading" || typed.type === "code") return;
    const children = typed.children;
    if (children === undefined) return;
    for (let i = 0; i < children.length; i++)
      visit(children[i], nested || typed.type === "list");
  };
  for (let i = 0; i < nodes.length; i++) visit(nodes[i], false);
  return labels;
}

function scanLabelLines(
  source: Source,
  paragraph: Paragraph | Heading,
  nested: boolean,
  labels: Record<string, PhaseLabel>,
): void {
  // A label line has its `**` inside the paragraph: most paragraphs (a subtask's fields) have none.
  const { start, end } = offsetsOf(source, paragraph);
  const stars = source.text.indexOf("**", start);
  if (stars === -1 || stars >= end) return;
  const span = spanOf(source, start, end);
  for (let line = span.start.line; line <= span.end.line; line++) {
    const lineStart = source.lineStarts[line - 1] ?? span.start.offset;
    const text = source.text.slice(lineStart, lineEndAt(source, lineStart));
    const match = LABEL_LINE.exec(text);
    if (!match || (nested && (match[1] ?? "") !== "")) continue;
    const key = (match[2] ?? "").trim().toLowerCase().replace(/\s+/g, "_");
    const raw = match[3] ?? "";
    const value = valueExtent(raw);
    if (key in labels) continue;
    const valueStart = lineStart + text.length - raw.length;
    labels[key] = {
      value,
      span: spanOf(source, valueStart, valueStart + value.length),
    };
  }
}

function readStatus(
  source: Source,
  label: PhaseLabel | undefined,
  diagnostics: Diagnostic[],
): PhaseStatus {
  if (!label) return "pending";
  const value = label.value.replace(/^`|`$/g, "").trim();
  if ((PHASE_STATUSES as readonly string[]).includes(value))
    return value as PhaseStatus;
  diagnostics.push(
    diagnosticAt(
      source.file,
      label.span.start,
      "phase-status-invalid",
      "error",
      `Unexpected **status**: ${value || "(empty)"}, expected one of ${PHASE_STATUSES.join(", ")}. Set the phase status to one of those.`,
    ),
  );
  return "pending";
}

function readPositiveInt(
  source: Source,
  key: string,
  label: PhaseLabel | undefined,
  diagnostics: Diagnostic[],
): number | null {
  if (!label) return null;
  const value = Number(label.value);
  if (Number.isInteger(value) && value > 0) return value;
  diagnostics.push(
    diagnosticAt(
      source.file,
      label.span.start,
      "field-invalid",
      "error",
      `Unexpected **${key}**: ${label.value || "(empty)"}, expected a whole number above 0. Write e.g. \`**${key}**: 5\`.`,
    ),
  );
  return null;
}

interface ItemHead {
  id: string | null;
  rest: string;
  checkbox: Span | null;
  /** A box markdown does not read as a task box, such as `[ x ]` or `[]`. */
  malformedBox: string | null;
}

const MALFORMED_BOX = /^\[[ \t]*[xX✓✔☑]?[ \t]*\]/;

/** Reads `- [ ] **id**: text` at the start of a list item (`itemSpan`). */
function readItemHead(
  source: Source,
  item: ListItem,
  itemSpan: Span,
): ItemHead | null {
  const first = item.children[0];
  if (first?.type !== "paragraph") return null;
  const paragraph = offsetsOf(source, first);
  const firstLineEnd = lineEndAt(source, itemSpan.start.offset);
  const firstLine = source.text.slice(itemSpan.start.offset, firstLineEnd);
  let checkbox: Span | null = null;
  let malformedBox: string | null = null;
  let text = source.text.slice(paragraph.start, paragraph.end);
  if (item.checked === true || item.checked === false) {
    const boxAt = firstLine.search(/\[[ xX]\]/);
    if (boxAt !== -1) {
      checkbox = spanOf(
        source,
        itemSpan.start.offset + boxAt,
        itemSpan.start.offset + boxAt + 3,
      );
    }
    text = text.replace(/^\[[ xX]\]/, "");
  } else {
    const bad = MALFORMED_BOX.exec(text);
    if (bad) {
      malformedBox = bad[0];
      const boxAt = firstLine.indexOf(bad[0]);
      if (boxAt !== -1) {
        checkbox = spanOf(
          source,
          itemSpan.start.offset + boxAt,
          itemSpan.start.offset + boxAt + bad[0].length,
        );
      }
      text = text.slice(bad[0].length);
    }
  }
  const joined = text.includes("\n")
    ? text
        .trimStart()
        .split(/\r?\n/)
        .filter(
          (line, index) =>
            index === 0 || !LABEL_LINE.test(line) || /^\s/.test(line),
        )
        .join(" ")
    : text.trimStart();
  const match = ID_PREFIX.exec(joined);
  if (!match)
    return { id: null, rest: collapse(joined), checkbox, malformedBox };
  return {
    id: (match[1] ?? "").trim().replace(/[:：]$/, ""),
    rest: collapse(joined.slice(match[0].length)),
    checkbox,
    malformedBox,
  };
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function readSubtask(
  source: Source,
  item: ListItem,
  diagnostics: Diagnostic[],
): Subtask | null {
  const span = spanFromNode(source, item);
  const head = readItemHead(source, item, span);
  if (!head) return null;
  // `- **Risk**: ...` without a checkbox is a note, not a subtask.
  if (
    head.checkbox === null &&
    head.id !== null &&
    !/^p[\w]*\.\d+$/.test(head.id)
  )
    return null;
  if (head.id === null) {
    if (head.checkbox === null) return null;
    diagnostics.push(
      diagnosticAt(
        source.file,
        span.start,
        "subtask-id-missing",
        "error",
        `Unexpected checkbox item without an id, expected \`- [ ] **p1.1**: <criterion>\`. Give the subtask an id under its phase.`,
      ),
    );
    return null;
  }
  if (head.malformedBox !== null) {
    diagnostics.push(
      diagnosticAt(
        source.file,
        head.checkbox?.start ?? span.start,
        "checkbox-invalid",
        "error",
        `Unexpected checkbox \`${head.malformedBox}\` for ${head.id}, expected \`[ ]\` or \`[x]\`; markdown does not read it as a task box. Write \`[ ]\` or \`[x]\`.`,
      ),
    );
  } else if (head.checkbox === null) {
    diagnostics.push(
      diagnosticAt(
        source.file,
        span.start,
        "checkbox-missing",
        "error",
        `Unexpected subtask ${head.id} without a checkbox, expected \`- [ ] **${head.id}**: <criterion>\`. Add \`[ ]\` after the dash.`,
      ),
    );
  }
  const subtask: Subtask = {
    id: head.id,
    checked: item.checked === true,
    criterion: head.rest,
    executor: null,
    validations: {},
    validated: null,
    dependsOn: [],
    span,
    checkbox:
      head.checkbox ?? spanOf(source, span.start.offset, span.start.offset),
  };
  // A misspelt field is reported and read as the field it means; one close to nothing is ignored.
  const known = (field: Field, names: readonly string[]): Field | null => {
    if (names.includes(field.key)) return field;
    const meant = didYouMean(field.key, names);
    diagnostics.push(
      diagnosticAt(
        source.file,
        field.span.start,
        "field-unknown",
        meant ? "error" : "warning",
        meant
          ? `Unexpected field \`${field.key}:\` in ${head.id}, expected \`${meant}:\`; it is read as \`${meant}:\` until you fix the spelling.`
          : `Unexpected field \`${field.key}:\` in ${head.id}, expected one of ${names.join(", ")}; playbook ignores it.`,
      ),
    );
    return meant ? { ...field, key: meant } : null;
  };
  for (const written of readFields(source, item)) {
    const field = known(written, SUBTASK_FIELDS);
    if (field === null) continue;
    if (field.key === "validations") {
      for (const nested of field.children) {
        const validation = known(nested, VALIDATION_NAMES);
        if (validation) readValidation(validation, subtask);
      }
    } else if ((VALIDATION_NAMES as readonly string[]).includes(field.key)) {
      readValidation(field, subtask);
    } else if (field.key === "executor") {
      subtask.executor = parseInlineValue(field.value) || null;
    } else if (field.key === "depends_on") {
      subtask.dependsOn = parseInlineList(field.value);
    } else if (field.key === "validated") {
      subtask.validated = parseInlineValue(field.value) || null;
    }
  }
  return subtask;
}

interface Field {
  key: string;
  value: string;
  span: Span;
  children: Field[];
}

/** Reads the `key: value` items of the lists nested in a list item. */
function readFields(source: Source, item: ListItem): Field[] {
  const fields: Field[] = [];
  for (let i = 0; i < item.children.length; i++) {
    const child = item.children[i];
    if (child?.type !== "list") continue;
    for (let j = 0; j < child.children.length; j++) {
      const nested = child.children[j] as ListItem;
      const first = nested.children[0];
      if (first?.type !== "paragraph") continue;
      const start = offsetsOf(source, first).start;
      const line = source.text.slice(start, lineEndAt(source, start));
      const match = FIELD_LINE.exec(line);
      if (!match) continue;
      const raw = match[2] ?? "";
      const value = valueExtent(raw);
      const valueStart = start + line.length - raw.length;
      fields.push({
        key: (match[1] ?? "").toLowerCase(),
        value,
        span: spanOf(source, valueStart, valueStart + value.length),
        children: readFields(source, nested),
      });
    }
  }
  return fields;
}

function readValidation(field: Field, subtask: Subtask): void {
  if (!(VALIDATION_NAMES as readonly string[]).includes(field.key)) return;
  const name = field.key as ValidationName;
  if (subtask.validations[name]) return;
  const parsed = parseValidationValue(parseInlineValue(field.value));
  const validation: Validation = { ...parsed, span: field.span };
  subtask.validations[name] = validation;
}

function readFinalTasks(source: Source, section: Section): FinalTask[] {
  const tasks: FinalTask[] = [];
  for (const node of section.nodes) {
    if (node.type !== "list") continue;
    for (const item of node.children) {
      const span = spanFromNode(source, item);
      const head = readItemHead(source, item, span);
      if (!head || (head.id === null && head.checkbox === null)) continue;
      tasks.push({
        id: head.id ?? "",
        checked: item.checked === true,
        text: head.rest,
        span,
        checkbox:
          head.checkbox ?? spanOf(source, span.start.offset, span.start.offset),
      });
    }
  }
  return tasks;
}
