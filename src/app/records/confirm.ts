import { readRecords, writeRecord } from "../../adapters/record-store.ts";
import { locationAt, PlaybookError } from "../../core/errors.ts";
import {
  VALIDATION_NAMES,
  type ValidationName,
  type ValidationResult,
} from "../../core/model/playbook.ts";
import { subtaskHash } from "../../core/records/content-hash.ts";
import { isRecordCurrent } from "../../core/records/record-set.ts";
import type { PlaybookRecord } from "../../core/records/record.ts";
import { writeValidationResults } from "./record-validation-results.ts";
import { findSubtaskOrThrow } from "./record-targets.ts";
import { resolvePlaybook } from "../workspace/resolve-playbook.ts";
import { readRecordBasis } from "./record-basis.ts";

export interface ConfirmDeps {
  now: () => Date;
  /** Whether a person runs the command (see `isPersonAtTerminal`). */
  isPersonAtTerminal: () => boolean;
  /** Shows `prompt` to the person and returns the line they type. */
  ask: (prompt: string) => Promise<string>;
}

export interface ConfirmOptions {
  subtask: string;
  /** `--playbook`; state.md's `active` when absent. */
  playbook?: string | undefined;
}

export interface ConfirmReport {
  playbook: string;
  subtask: string;
  record: PlaybookRecord;
  /** The manual and hybrid validations the person confirmed. */
  validations: ValidationName[];
  playbookChanged: boolean;
}

/**
 * `playbook confirm <subtask>` (docs/guards.md): a person at a terminal confirms the subtask's manual and hybrid checks
 * by typing its id. Records a confirmation (hashed with `subtaskHash`) and marks the manual validations PASS in the
 * playbook (a hybrid one when its command's evidence also passed).
 *
 * @throws PlaybookError E_DENIED without a person at a terminal or when the typed id differs, E_NOT_FOUND for an
 *   unknown subtask, E_CONFIG for a subtask with nothing to confirm.
 */
export async function runConfirm(
  root: string,
  options: ConfirmOptions,
  deps: ConfirmDeps,
): Promise<ConfirmReport> {
  if (!deps.isPersonAtTerminal())
    throw new PlaybookError(
      "E_DENIED",
      "`playbook confirm` is for a person: run it yourself in a terminal.",
      {
        hint: `Nothing was recorded. An agent cannot confirm manual checks; the user runs \`playbook confirm ${options.subtask}\`.`,
      },
    );
  const resolved = resolvePlaybook(root, options.playbook);
  const subtask = findSubtaskOrThrow(resolved, options.subtask);
  const hash = subtaskHash(resolved.summary, subtask.id);
  // The summary maps the AST `findSubtaskOrThrow` found the subtask in.
  if (hash === null)
    throw new Error(`the summary of ${resolved.path} lacks ${subtask.id}`);
  const names = VALIDATION_NAMES.filter((name) => {
    const kind = subtask.validations[name]?.kind;
    return kind === "manual" || kind === "hybrid";
  });
  if (names.length === 0)
    throw new PlaybookError(
      "E_CONFIG",
      `\`${subtask.id}\` in ${resolved.path} has no manual or hybrid validation to confirm.`,
      {
        hint: `Run \`playbook verify ${subtask.id}\` instead: it proves automated validations.`,
        location: locationAt(resolved.path, subtask.span.start),
      },
    );
  const prompt = [
    `${resolved.path}  ${subtask.id}: ${subtask.criterion}`,
    ...names.map((name) => {
      const v = subtask.validations[name];
      return `  ${name} (${v?.kind ?? "manual"}): ${v?.text ?? ""}`;
    }),
    "",
    `Check each of these yourself. Type the subtask id to confirm (${subtask.id}), anything else to cancel: `,
  ].join("\n");
  const answer = (await deps.ask(prompt)).trim();
  if (answer !== subtask.id)
    throw new PlaybookError(
      "E_DENIED",
      answer === ""
        ? `No id typed; \`${subtask.id}\` was not confirmed.`
        : `You typed \`${answer}\`, not \`${subtask.id}\`; nothing was confirmed.`,
      {
        hint: `Run \`playbook confirm ${subtask.id}\` again and type ${subtask.id} to confirm.`,
      },
    );

  const record: PlaybookRecord = {
    kind: "confirmation",
    playbook: resolved.path,
    target: subtask.id,
    contentHash: hash,
    verdict: "PASS",
    by: "user",
    at: deps.now().toISOString(),
    detail: { validations: names, ...readRecordBasis(root, resolved.summary) },
  };
  writeRecord(root, record);
  const evidence = readRecords(
    root,
    resolved.path,
    names.map((name) => ({
      kind: "evidence" as const,
      playbook: resolved.path,
      target: subtask.id,
      validation: name,
    })),
  );
  const results: Partial<Record<ValidationName, ValidationResult | null>> = {};
  for (const name of names) {
    if (subtask.validations[name]?.kind === "manual") results[name] = "PASS";
    else {
      // A hybrid validation also needs its command's evidence: its result follows that.
      const proof = evidence.find((r) => r.validation === name);
      results[name] =
        proof && isRecordCurrent(proof, hash)
          ? (proof.verdict as ValidationResult)
          : null;
    }
  }
  const { changed } = writeValidationResults(
    resolved,
    subtask.id,
    hash,
    results,
    deps.now().toISOString(),
  );
  return {
    playbook: resolved.path,
    subtask: subtask.id,
    record,
    validations: names,
    playbookChanged: changed,
  };
}
