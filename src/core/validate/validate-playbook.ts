import type { Diagnostic, Point, Severity } from "../model/diagnostic.ts";
import { diagnosticAt } from "../model/diagnostic.ts";
import {
  EXECUTORS,
  ROLE_NAMES,
  VALIDATION_NAMES,
  type Playbook,
} from "../model/playbook.ts";
import { checkRoles, isKnownExecutor } from "./roles.ts";
import { DEFAULT_BANNED_PHRASES, findBannedPhrase } from "./banned-phrases.ts";
import { findCycles } from "./graph.ts";

export interface PlaybookRuleOptions {
  bannedPhrases?: readonly string[];
}

const PHASE_ID = /^p(\d+|_[a-z0-9_]+)$/;
const SUBTASK_ID = /^(p(?:\d+|_[a-z0-9_]+))\.\d+$/;
const FINAL_TASK_ID = /^ft\d+$/;

type Report = (
  at: Point,
  code: string,
  severity: Severity,
  message: string,
) => void;

/** Checks a parsed playbook's meaning (docs/playbook-format.md): ids, dependencies, validations, wording and status. Pure. */
export function validatePlaybook(
  playbook: Playbook,
  file: string,
  options: PlaybookRuleOptions = {},
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const report: Report = (at, code, severity, message) =>
    diagnostics.push(diagnosticAt(file, at, code, severity, message));
  const top: Point = { line: 1, column: 1, offset: 0 };
  const banned = options.bannedPhrases ?? DEFAULT_BANNED_PHRASES;

  checkMetaAndGoal(playbook, report, top, banned);
  diagnostics.push(
    ...checkRoles(
      playbook.meta.roles,
      file,
      playbook.sections.meta?.fields["roles"]?.start ?? top,
      "the meta `roles`",
    ),
  );
  checkIds(playbook, report);
  checkDependencies(playbook, report);
  checkSubtasks(playbook, report, banned);
  checkPhaseStatus(playbook, report);
  return diagnostics;
}

function checkMetaAndGoal(
  playbook: Playbook,
  report: Report,
  top: Point,
  banned: readonly string[],
): void {
  const metaAt = playbook.sections.meta?.span.start ?? top;
  const goalAt = playbook.sections.goal?.span.start ?? top;
  if (playbook.sections.meta?.parsed && playbook.meta.branch === null) {
    report(
      metaAt,
      "meta-branch-missing",
      "error",
      "Unexpected meta without `branch`, expected the branch this playbook works on. Add `branch: feat/<name>` to `## meta`.",
    );
  }
  if (playbook.sections.meta?.parsed && playbook.meta.project === null) {
    report(
      metaAt,
      "meta-project-missing",
      "warning",
      "Unexpected meta without `project`, expected a short project name. Add `project: <name>` to `## meta`.",
    );
  }
  if (playbook.sections.goal?.parsed && playbook.goal.summary === null) {
    report(
      goalAt,
      "goal-summary-missing",
      "error",
      "Unexpected goal without `summary`, expected one sentence saying what the user gets. Add `summary:` to `## goal`.",
    );
  }
  if (playbook.sections.goal?.parsed && playbook.goal.doneWhen.length === 0) {
    report(
      goalAt,
      "done-when-missing",
      "error",
      "Unexpected goal without `done_when`, expected at least one checkable condition. Add `done_when:` with one `- item` per condition.",
    );
  }
  const doneWhenAt =
    playbook.sections.goal?.fields["done_when"]?.start ?? goalAt;
  playbook.goal.doneWhen.forEach((item, index) => {
    const phrase = findBannedPhrase(item, banned);
    if (phrase)
      report(
        playbook.sections.goal?.items["done_when"]?.[index]?.start ??
          doneWhenAt,
        "criterion-vague",
        "error",
        vagueMessage(phrase, "a done_when item"),
      );
  });
  if (playbook.context === null || playbook.context.text === "") {
    report(
      playbook.context?.span.start ?? top,
      "context-missing",
      "error",
      "Unexpected playbook without `## context` text, expected the 5W1H of the request and the user's confirmed answers. Run the understanding check and write its answers under `## context`.",
    );
  }
  if (playbook.phases.length === 0) {
    report(
      playbook.sections.phases?.start ?? top,
      "phases-missing",
      "error",
      "Unexpected playbook without phases, expected at least one `### p1: <name>` under `## phases`. Add a phase with subtasks.",
    );
  }
}

/** The id to suggest for each phase: its own when valid, else the first `p<n>` no phase uses. */
function suggestPhaseIds(
  playbook: Playbook,
): Map<Playbook["phases"][number], string> {
  const used = new Set(
    playbook.phases.map((p) => p.id).filter((id) => PHASE_ID.test(id)),
  );
  const suggestions = new Map<Playbook["phases"][number], string>();
  let next = 1;
  for (const phase of playbook.phases) {
    if (PHASE_ID.test(phase.id)) {
      suggestions.set(phase, phase.id);
      continue;
    }
    while (used.has(`p${next}`)) next++;
    used.add(`p${next}`);
    suggestions.set(phase, `p${next}`);
  }
  return suggestions;
}

function checkIds(playbook: Playbook, report: Report): void {
  const phaseIds = new Set<string>();
  const subtaskIds = new Set<string>();
  const suggested = suggestPhaseIds(playbook);
  for (const phase of playbook.phases) {
    const validPhase = PHASE_ID.test(phase.id);
    if (!validPhase) {
      report(
        phase.heading.start,
        "phase-id-invalid",
        "error",
        `Unexpected phase id \`${phase.id}\`, expected \`p<number>\` such as p1 (or p_final). Rename the heading to \`### ${suggested.get(phase) ?? "p1"}: ${phase.name || "<name>"}\`.`,
      );
    } else if (phaseIds.has(phase.id)) {
      report(
        phase.heading.start,
        "phase-id-duplicate",
        "error",
        `Unexpected second phase \`${phase.id}\`, expected each phase id once. Renumber this phase.`,
      );
    }
    phaseIds.add(phase.id);
    for (const subtask of phase.subtasks) {
      const match = SUBTASK_ID.exec(subtask.id);
      if (!match) {
        report(
          subtask.span.start,
          "subtask-id-invalid",
          "error",
          `Unexpected subtask id \`${subtask.id}\`, expected \`<phase>.<number>\` such as ${suggested.get(phase) ?? phase.id}.1. Rename the subtask.`,
        );
      } else if (validPhase && match[1] !== phase.id) {
        report(
          subtask.span.start,
          "subtask-outside-phase",
          "error",
          `Unexpected subtask \`${subtask.id}\` under phase \`${phase.id}\`, expected ids starting with \`${phase.id}.\`. Move it to its phase or renumber it.`,
        );
      }
      if (subtaskIds.has(subtask.id)) {
        report(
          subtask.span.start,
          "subtask-id-duplicate",
          "error",
          `Unexpected second subtask \`${subtask.id}\`, expected each subtask id once. Renumber this subtask.`,
        );
      }
      subtaskIds.add(subtask.id);
    }
  }
  const finalIds = new Set<string>();
  for (const task of playbook.finalTasks) {
    if (!FINAL_TASK_ID.test(task.id)) {
      report(
        task.span.start,
        "final-task-id-invalid",
        "error",
        `Unexpected final task id \`${task.id || "(none)"}\`, expected \`ft<number>\` such as ft1. Write \`- [ ] **ft1**: <task>\`.`,
      );
    } else if (finalIds.has(task.id)) {
      report(
        task.span.start,
        "final-task-id-duplicate",
        "error",
        `Unexpected second final task \`${task.id}\`, expected each id once. Renumber it.`,
      );
    }
    finalIds.add(task.id);
  }
}

function checkDependencies(playbook: Playbook, report: Report): void {
  const phaseIds = new Set(playbook.phases.map((p) => p.id));
  const subtasks = playbook.phases.flatMap((p) => p.subtasks);
  const subtaskIds = new Set(subtasks.map((s) => s.id));
  const phaseEdges = new Map<string, string[]>();
  const subtaskEdges = new Map<string, string[]>();

  for (const phase of playbook.phases) {
    const at = phase.labels["depends_on"]?.span.start ?? phase.heading.start;
    for (const dep of phase.dependsOn) {
      if (!phaseIds.has(dep)) {
        report(
          at,
          "depends-unknown",
          "error",
          `Unexpected \`${dep}\` in depends_on of ${phase.id}, expected one of the phase ids (${[...phaseIds].join(", ")}). Fix the id or remove it.`,
        );
      }
    }
    if (!phaseEdges.has(phase.id)) phaseEdges.set(phase.id, phase.dependsOn);
  }
  for (const subtask of subtasks) {
    for (const dep of subtask.dependsOn) {
      if (!subtaskIds.has(dep) && !phaseIds.has(dep)) {
        report(
          subtask.span.start,
          "depends-unknown",
          "error",
          `Unexpected \`${dep}\` in depends_on of ${subtask.id}, expected a subtask or phase id of this playbook. Fix the id or remove it.`,
        );
      }
    }
    if (!subtaskEdges.has(subtask.id))
      subtaskEdges.set(subtask.id, subtask.dependsOn);
  }
  const phaseAt = new Map(
    playbook.phases.map((p) => [
      p.id,
      p.labels["depends_on"]?.span.start ?? p.heading.start,
    ]),
  );
  for (const cycle of findCycles(phaseEdges)) {
    report(
      phaseAt.get(cycle[0] ?? "") ?? { line: 1, column: 1, offset: 0 },
      "depends-cycle",
      "error",
      `Unexpected dependency cycle ${cycle.join(" -> ")}, expected phases that can be done in some order. Remove one of these depends_on entries.`,
    );
  }
  const subtaskAt = new Map(subtasks.map((s) => [s.id, s.span.start]));
  for (const cycle of findCycles(subtaskEdges)) {
    report(
      subtaskAt.get(cycle[0] ?? "") ?? { line: 1, column: 1, offset: 0 },
      "depends-cycle",
      "error",
      `Unexpected dependency cycle ${cycle.join(" -> ")}, expected subtasks that can be done in some order. Remove one of these depends_on entries.`,
    );
  }
}

function checkSubtasks(
  playbook: Playbook,
  report: Report,
  banned: readonly string[],
): void {
  const suggested = suggestPhaseIds(playbook);
  for (const phase of playbook.phases) {
    if (phase.subtasks.length === 0) {
      report(
        phase.heading.start,
        "phase-without-subtasks",
        "warning",
        `Unexpected phase ${phase.id} without subtasks, expected \`- [ ] **${suggested.get(phase) ?? phase.id}.1**: <criterion>\` items under \`#### subtasks\`. Add the subtasks that prove the phase.`,
      );
    }
    if (phase.goal !== null) {
      const phrase = findBannedPhrase(phase.goal, banned);
      if (phrase) {
        report(
          phase.labels["goal"]?.span.start ?? phase.heading.start,
          "criterion-vague",
          "error",
          vagueMessage(phrase, `the goal of ${phase.id}`),
        );
      }
    }
    for (const subtask of phase.subtasks) {
      if (subtask.executor !== null && !isKnownExecutor(subtask.executor)) {
        report(
          subtask.span.start,
          "executor-invalid",
          "error",
          `Unexpected executor \`${subtask.executor}\` for ${subtask.id}, expected one of ${[...EXECUTORS, ...ROLE_NAMES].join(", ")}. Fix the executor.`,
        );
      }
      if (subtask.criterion === "") {
        report(
          subtask.span.start,
          "criterion-missing",
          "error",
          `Unexpected subtask ${subtask.id} without a criterion, expected \`**${subtask.id}**: <what is true when done>\`. Write the criterion after the id.`,
        );
      }
      const phrase = findBannedPhrase(subtask.criterion, banned);
      if (phrase) {
        report(
          subtask.span.start,
          "criterion-vague",
          "error",
          vagueMessage(phrase, `the criterion of ${subtask.id}`),
        );
      }
      for (const name of VALIDATION_NAMES) {
        const validation = subtask.validations[name];
        if (!validation) {
          report(
            subtask.span.start,
            "validation-missing",
            "error",
            `Unexpected subtask ${subtask.id} without a \`${name}\` validation, expected technical, consistency and completeness. Add \`- ${name}: "automated - <command>"\` under validations.`,
          );
        } else if (validation.kind === "unspecified") {
          report(
            validation.span.start,
            "validation-kind-missing",
            "warning",
            `Unexpected ${name} validation of ${subtask.id} without a kind, expected it to start with automated, manual or hybrid. Write \`"automated - <command>"\` or \`"manual - <check>"\`.`,
          );
        } else if (validation.text === "") {
          report(
            validation.span.start,
            "validation-text-missing",
            "error",
            `Unexpected ${validation.kind} ${name} validation of ${subtask.id} without ${validation.kind === "manual" ? "a check" : "a command"}, expected \`"${validation.kind} - <${validation.kind === "manual" ? "what a person checks" : "command"}>"\`. Add it.`,
          );
        }
      }
    }
  }
}

function checkPhaseStatus(playbook: Playbook, report: Report): void {
  for (const phase of playbook.phases) {
    if (phase.status !== "done") continue;
    const open = phase.subtasks.filter((s) => !s.checked).map((s) => s.id);
    if (open.length === 0) continue;
    report(
      phase.labels["status"]?.span.start ?? phase.heading.start,
      "phase-done-open-subtasks",
      "error",
      `Unexpected **status**: done for ${phase.id} with open subtasks (${open.join(", ")}), expected every subtask checked first. Finish them or set the status back to in_progress.`,
    );
  }
}

function vagueMessage(phrase: string, where: string): string {
  return `Unexpected vague wording "${phrase}" in ${where}, expected something a command or a person can check (a file, an output, a number). Rewrite it as plan/template/planning-rules.md shows.`;
}
