import type {
  FinalTask,
  Playbook,
  PhaseStatus,
  Subtask,
  Validation,
  ValidationName,
} from "../model/playbook.ts";
import { LABEL_LINE, parsePlaybook } from "../parse/parse-playbook.ts";
import {
  createSource,
  lineEndAt,
  lineText,
  type Source,
} from "../parse/source.ts";
import { formatValidationValue, valueExtent } from "../parse/values.ts";
import {
  failure,
  formatLikePrevious,
  formatYamlScalar,
  replaceRange,
  setYamlKey,
  type EditPlace,
  type EditResult,
} from "./text-edit.ts";
import { yamlErrorIn } from "./yaml-guard.ts";

interface Loaded {
  source: Source;
  playbook: Playbook;
  diagnostics: ReturnType<typeof parsePlaybook>["diagnostics"];
}

function load(text: string): Loaded {
  const parsed = parsePlaybook(text, "playbook.md");
  return {
    source: createSource("playbook.md", text),
    playbook: parsed.value,
    diagnostics: parsed.diagnostics,
  };
}

/** The one subtask (or final task, when `finalTasks`) with `id`, or why it cannot be edited. */
function findTask(
  playbook: Playbook,
  id: string,
  finalTasks: boolean,
): { task: Subtask | FinalTask } | { reason: string; at?: EditPlace } {
  const matches: (Subtask | FinalTask)[] = playbook.phases
    .flatMap((p) => p.subtasks)
    .filter((s) => s.id === id);
  if (finalTasks)
    matches.push(...playbook.finalTasks.filter((t) => t.id === id));
  const [task] = matches;
  if (!task) {
    return {
      reason: `No ${finalTasks ? "subtask or final task" : "subtask"} \`${id}\` in this playbook; check the id with \`playbook status\`.`,
    };
  }
  if (matches.length > 1) {
    return {
      reason: `\`${id}\` appears ${matches.length} times in this playbook; fix the duplicate ids first (see \`playbook lint\`).`,
      ...(matches[1] && { at: matches[1].span.start }),
    };
  }
  return { task };
}

function findSubtask(
  playbook: Playbook,
  id: string,
): { task: Subtask } | { reason: string; at?: EditPlace } {
  const found = findTask(playbook, id, false);
  return "task" in found ? { task: found.task as Subtask } : found;
}

/** Checks or unchecks a subtask or final task: only its `[ ]` / `[x]` marker changes. */
export function setTaskChecked(
  text: string,
  id: string,
  checked: boolean,
): EditResult {
  const { playbook } = load(text);
  const found = findTask(playbook, id, true);
  if (!("task" in found)) return failure(found.reason, found.at);
  const { task } = found;
  if (task.checkbox.start.offset === task.checkbox.end.offset) {
    return failure(
      `\`${id}\` has no checkbox; write it as \`- [ ] **${id}**: ...\` first.`,
      task.span.start,
    );
  }
  if (task.checked === checked) return { ok: true, text, changed: false };
  return replaceRange(
    text,
    task.checkbox.start.offset,
    task.checkbox.end.offset,
    checked ? "[x]" : "[ ]",
  );
}

/** Changes one validation of a subtask (its result, kind or text), keeping the value's quoting style. */
export function setValidation(
  text: string,
  subtaskId: string,
  name: ValidationName,
  patch: Partial<Pick<Validation, "kind" | "text" | "result">>,
): EditResult {
  const { playbook } = load(text);
  const found = findSubtask(playbook, subtaskId);
  if (!("task" in found)) return failure(found.reason, found.at);
  const subtask = found.task;
  const validation = subtask.validations[name];
  if (!validation) {
    return failure(
      `Subtask \`${subtaskId}\` has no \`${name}\` validation; add \`- ${name}: "..."\` under its validations first.`,
      subtask.span.start,
    );
  }
  const raw = text.slice(
    validation.span.start.offset,
    validation.span.end.offset,
  );
  const next = formatValidationValue({
    kind: validation.kind,
    text: validation.text,
    result: validation.result,
    ...patch,
  });
  const replacement =
    raw.trim() === "" ? JSON.stringify(next) : formatLikePrevious(raw, next);
  return replaceRange(
    text,
    validation.span.start.offset,
    validation.span.end.offset,
    replacement,
  );
}

/** Sets a phase's `**status**:` value, adding the line under the phase heading when it is missing. */
export function setPhaseStatus(
  text: string,
  phaseId: string,
  status: PhaseStatus,
): EditResult {
  const { source, playbook } = load(text);
  const phases = playbook.phases.filter((p) => p.id === phaseId);
  const [phase] = phases;
  if (!phase)
    return failure(
      `No phase \`${phaseId}\` in this playbook; check the id with \`playbook status\`.`,
    );
  if (phases.length > 1) {
    return failure(
      `\`${phaseId}\` appears ${phases.length} times in this playbook; fix the duplicate ids first (see \`playbook lint\`).`,
      phases[1]?.heading.start,
    );
  }
  const label = phase.labels["status"];
  if (label)
    return replaceRange(
      text,
      label.span.start.offset,
      label.span.end.offset,
      status,
    );
  const headingEnd = lineEndAt(source, phase.heading.start.offset);
  return replaceRange(
    text,
    headingEnd,
    headingEnd,
    `${source.eol}**status**: ${status}`,
  );
}

/** Sets `reviewed` in the playbook's meta block. */
export function setReviewed(text: string, reviewed: boolean): EditResult {
  const { source, playbook, diagnostics } = load(text);
  const meta = playbook.sections.meta;
  if (!meta)
    return failure(
      "This playbook has no `## meta` section; add one before setting `reviewed`.",
    );
  const broken = yamlErrorIn(diagnostics, meta);
  if (broken) {
    return failure(
      "The `## meta` yaml block is broken; fix it (see `playbook lint`) before setting `reviewed`.",
      broken,
    );
  }
  return setYamlKey(text, meta, "reviewed", reviewed, source.eol);
}

/** Records when a subtask's validations passed: sets `- validated: <stamp>`, adding the line if needed. */
export function setValidated(
  text: string,
  subtaskId: string,
  stamp: string,
): EditResult {
  const { source, playbook } = load(text);
  const found = findSubtask(playbook, subtaskId);
  if (!("task" in found)) return failure(found.reason, found.at);
  const subtask = found.task;
  const value = formatYamlScalar(stamp);
  const existing = findFieldValue(source, subtask, "validated");
  if (existing) return replaceRange(text, existing.start, existing.end, value);
  const lastLine = lastContentLine(source, subtask);
  const insertAt = lineEndAt(
    source,
    source.lineStarts[lastLine - 1] ?? subtask.span.end.offset,
  );
  const indent = childIndent(source, subtask);
  return replaceRange(
    text,
    insertAt,
    insertAt,
    `${source.eol}${indent}- validated: ${value}`,
  );
}

/** The value range of a direct `- key: value` child of a subtask. */
function findFieldValue(
  source: Source,
  subtask: Subtask,
  key: string,
): { start: number; end: number } | null {
  const pattern = new RegExp(
    `^([ \\t]*[-*+][ \\t]+${key}[ \\t]*:[ \\t]*)(.*)$`,
  );
  for (
    let line = subtask.span.start.line + 1;
    line <= subtask.span.end.line;
    line++
  ) {
    const match = pattern.exec(lineText(source, line));
    if (!match) continue;
    const start = (source.lineStarts[line - 1] ?? 0) + (match[1] ?? "").length;
    return { start, end: start + valueExtent(match[2] ?? "").length };
  }
  return null;
}

/** The subtask's last line, skipping phase labels that markdown folded into it (lazy continuation lines). */
function lastContentLine(source: Source, subtask: Subtask): number {
  let line = subtask.span.end.line;
  while (
    line > subtask.span.start.line &&
    LABEL_LINE.exec(lineText(source, line))?.[1] === ""
  )
    line--;
  return line;
}

/** Indentation of the subtask's child items, or its content column when it has none yet. */
function childIndent(source: Source, subtask: Subtask): string {
  for (
    let line = subtask.span.start.line + 1;
    line <= subtask.span.end.line;
    line++
  ) {
    const match = /^(\s+)[-*+]\s/.exec(lineText(source, line));
    if (match) return match[1] ?? "  ";
  }
  const first = lineText(source, subtask.span.start.line);
  const marker = /^(\s*)([-*+]|\d+[.)])\s+/.exec(first);
  return " ".repeat(marker ? (marker[0] ?? "").length : 2);
}
