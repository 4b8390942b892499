import { existsSync } from "node:fs";
import { join } from "node:path";
import { readRecords } from "../../adapters/record-store.ts";
import {
  readPostLoopLock,
  readUnfinishedArchive,
} from "../../adapters/runtime-files.ts";
import { summarizePlaybook } from "../../core/cache/summary.ts";
import type { LockPending, PostLoopLock } from "../../core/guards/types.ts";
import type { Diagnostic } from "../../core/model/diagnostic.ts";
import type { PhaseStatus, Playbook } from "../../core/model/playbook.ts";
import { resolveExecutor } from "../../core/guards/facts.ts";
import {
  criticState,
  findProofGaps,
  reviewState,
  type ProofGap,
} from "../../core/records/proof-state.ts";
import { planGate } from "../../core/records/plan-gate.ts";
import { createRecordSet } from "../../core/records/record-set.ts";
import { nextStep, type NextStep } from "../../core/session/next-step.ts";
import { currentTreeFingerprint } from "../workspace/current-tree.ts";
import { runLint } from "./lint.ts";

export interface StatusReport {
  /** Whether the project has a state.md: set up for playbook (by `playbook init`). */
  initialised: boolean;
  /** The active playbook's path, when it could be read. */
  active: string | null;
  /** What `state.md` names as active when it is unsafe or missing; the diagnostics say why. */
  unreadableActive: string | null;
  branch: string | null;
  reviewed: boolean | null;
  /** The reviewer's verdict on the plan as it is now (null without an active playbook). */
  review: ReturnType<typeof reviewState> | null;
  summary: string | null;
  currentPhase: string | null;
  phases: {
    id: string;
    name: string;
    status: PhaseStatus;
    done: number;
    total: number;
    /** The critic's verdict on the phase as it is now. */
    critic: ReturnType<typeof criticState>;
    /** Checked subtasks without current proof: claims `playbook check` would fail. */
    unproven: string[];
  }[];
  /** Why work may not start yet, with what to do (the plan gate the guards apply); null when it may. */
  gate: { missing: string; next: string } | null;
  /** Claims the records do not back: ticks without proof, an approval typed by hand, a phase done without the critic. */
  problems: string[];
  /**
   * The one next step, as the Stop hook and the status line say it (core/session/next-step.ts): the plan gate, a
   * subtask's work, verify or tick, the critic once a phase's boxes are all ticked, closing or starting a phase.
   */
  step: NextStep | null;
  /** Open subtasks whose dependencies are met; `proven` when every validation already has current proof. */
  next: { id: string; phase: string; criterion: string; proven: boolean }[];
  finalTasks: { done: number; total: number };
  /** The post-loop lock, when set. */
  lock: Omit<PostLoopLock, "session"> | null;
  /** An archive that stopped before finishing, or whose merge is pending (`archive.merge`). */
  unfinishedArchive: {
    playbook: string;
    branch: string;
    pending: LockPending | null;
  } | null;
  diagnostics: Diagnostic[];
}

const NEXT_LIMIT = 5;

/**
 * Reads the project's state and active playbook and reports progress, the records behind its claims, the next open
 * subtasks, the post-loop lock, an unfinished archive and the diagnostics.
 */
export function runStatus(root: string): StatusReport {
  const lint = runLint(root);
  const state = lint.state?.state ?? null;
  const playbook = lint.active?.playbook ?? null;
  const file = lint.active?.file ?? null;
  // With the playbook's own lint diagnostics, as the hook's parse cache has them: a plan with errors is not written yet.
  const summary = playbook
    ? summarizePlaybook(
        playbook,
        lint.diagnostics.filter((d) => d.file === file),
      )
    : null;
  const records = createRecordSet(file ? readRecords(root, file) : []);
  const tree = playbook?.phases.some((p) => p.subtasks.some((s) => s.checked))
    ? currentTreeFingerprint(root)
    : null;
  // What a subtask still lacks; null when the playbook cannot say (it does not parse into a summary).
  const gapsOf = (phase: string, id: string): ProofGap[] | null => {
    const subtask = summary?.phases
      .find((p) => p.id === phase)
      ?.subtasks.find((s) => s.id === id);
    return summary && file && subtask
      ? findProofGaps(
          file,
          subtask,
          summary.hashes.subtasks[id] ?? null,
          records,
          undefined,
          tree,
        )
      : null;
  };
  const proven = (phase: string, id: string) => gapsOf(phase, id)?.length === 0;
  const lock = readPostLoopLock(root);
  const gate = summary && file ? planGate(file, summary, records) : null;
  const phases: StatusReport["phases"] = (playbook?.phases ?? []).map(
    (phase) => ({
      id: phase.id,
      name: phase.name,
      status: phase.status,
      done: phase.subtasks.filter((s) => s.checked).length,
      total: phase.subtasks.length,
      critic:
        summary && file
          ? criticState(file, summary, phase.id, records)
          : "none",
      unproven: phase.subtasks
        .filter((s) => s.checked && !proven(phase.id, s.id))
        .map((s) => s.id),
    }),
  );
  const unproven = phases.flatMap((p) => p.unproven);
  const problems = [
    ...(unproven.length > 0
      ? [
          `${unproven.join(", ")} ${unproven.length === 1 ? "is" : "are"} checked without current proof: ${proofCommands(
            phases.map((p) => ({
              id: p.id,
              subtasks: (
                playbook?.phases.find((q) => q.id === p.id)?.subtasks ?? []
              ).map((s) => s.id),
              unproven: p.unproven.map((id) => ({
                id,
                gaps: gapsOf(p.id, id),
              })),
            })),
          )}`,
        ]
      : []),
    ...(gate &&
    !gate.open &&
    (gate.missing === "fresh-review" || gate.missing === "forged-review")
      ? [`\`reviewed: true\` without a current approval: ${gate.next}`]
      : []),
    ...phases
      .filter((p) => p.status === "done" && p.critic !== "PASS")
      .map(
        (p) => `${p.id} is done without the critic's PASS: run /crit ${p.id}`,
      ),
  ];
  return {
    initialised: existsSync(join(root, "state.md")),
    active: file,
    unreadableActive: lint.active ? null : (state?.playbook.active ?? null),
    branch: playbook?.meta.branch ?? state?.playbook.branch ?? null,
    reviewed: playbook ? playbook.meta.reviewed : null,
    review: summary && file ? reviewState(file, summary, records) : null,
    summary: playbook?.goal.summary ?? null,
    currentPhase: state?.goal.phase ?? null,
    phases,
    step:
      summary && file
        ? nextStep({
            path: file,
            playbook: summary,
            records,
            statePhase: state?.goal.phase ?? null,
            resolveExecutor: (name) =>
              resolveExecutor({ state, active: { summary } }, name),
          })
        : null,
    next: playbook
      ? nextSubtasks(playbook).map((item) => ({
          ...item,
          proven: proven(item.phase, item.id),
        }))
      : [],
    finalTasks: {
      done: (playbook?.finalTasks ?? []).filter((t) => t.checked).length,
      total: (playbook?.finalTasks ?? []).length,
    },
    lock: lock
      ? {
          status: lock.status,
          playbook: lock.playbook,
          pr: lock.pr,
          at: lock.at,
          pending: lock.pending ?? null,
        }
      : null,
    unfinishedArchive: readUnfinishedArchive(root),
    gate:
      gate && !gate.open ? { missing: gate.missing, next: gate.next } : null,
    problems,
    diagnostics: lint.diagnostics,
  };
}

/** Open subtasks in phase order whose own dependencies are checked: what the agent can do now. */
function nextSubtasks(
  playbook: Playbook,
): Omit<StatusReport["next"][number], "proven">[] {
  const checked = new Set(
    playbook.phases.flatMap((p) =>
      p.subtasks.filter((s) => s.checked).map((s) => s.id),
    ),
  );
  const donePhases = new Set(
    playbook.phases.filter((p) => p.status === "done").map((p) => p.id),
  );
  const next: Omit<StatusReport["next"][number], "proven">[] = [];
  for (const phase of playbook.phases) {
    if (
      phase.status === "done" ||
      !phase.dependsOn.every((dep) => donePhases.has(dep))
    )
      continue;
    for (const subtask of phase.subtasks) {
      if (
        subtask.checked ||
        !subtask.dependsOn.every(
          (dep) => checked.has(dep) || donePhases.has(dep),
        )
      )
        continue;
      next.push({
        id: subtask.id,
        phase: phase.id,
        criterion: subtask.criterion,
      });
      if (next.length >= NEXT_LIMIT) return next;
    }
  }
  return next;
}

/**
 * The commands that prove checked subtasks again, as a user can run them: `playbook verify <phase>` where every
 * subtask of a phase needs evidence, else `playbook verify <subtask>`; `playbook confirm <subtask>` (a person, in a
 * terminal) where a manual check lacks its confirmation; and the validations that have no kind yet.
 */
function proofCommands(
  phases: {
    id: string;
    subtasks: string[];
    unproven: { id: string; gaps: ProofGap[] | null }[];
  }[],
): string {
  const verify: string[] = [];
  const confirm: string[] = [];
  const kindless: string[] = [];
  for (const phase of phases) {
    const needsEvidence = phase.unproven
      .filter(
        (s) => s.gaps === null || s.gaps.some((g) => g.needs === "evidence"),
      )
      .map((s) => s.id);
    if (
      phase.subtasks.length > 1 &&
      phase.subtasks.every((id) => needsEvidence.includes(id))
    )
      verify.push(phase.id);
    else verify.push(...needsEvidence);
    for (const { id, gaps } of phase.unproven) {
      if (gaps?.some((g) => g.needs === "confirmation")) confirm.push(id);
      if (gaps?.some((g) => g.needs === "kind")) kindless.push(id);
    }
  }
  const steps = [
    ...(verify.length > 0
      ? [`run ${verify.map((id) => `\`playbook verify ${id}\``).join(", ")}`]
      : []),
    ...(confirm.length > 0
      ? [
          `a person runs ${confirm.map((id) => `\`playbook confirm ${id}\``).join(", ")} in a terminal for the manual checks`,
        ]
      : []),
    ...(kindless.length > 0
      ? [
          `give the validations of ${kindless.join(", ")} a kind (automated, manual or hybrid) in the playbook`,
        ]
      : []),
  ];
  return steps.join("; ");
}
