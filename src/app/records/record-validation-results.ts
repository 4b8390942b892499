import { summarizePlaybook } from "../../core/cache/summary.ts";
import {
  setValidated,
  setValidation,
} from "../../core/edit/playbook-writers.ts";
import { failure, type EditResult } from "../../core/edit/text-edit.ts";
import {
  VALIDATION_NAMES,
  type ValidationName,
  type ValidationResult,
} from "../../core/model/playbook.ts";
import { parsePlaybook } from "../../core/parse/parse-playbook.ts";
import { subtaskHash } from "../../core/records/content-hash.ts";
import { applyDocumentEdit } from "../workspace/apply-document-edit.ts";
import type { ResolvedPlaybook } from "../workspace/resolve-playbook.ts";

/**
 * Writes validation results (`PASS - ` / `FAIL - ` prefixes, or none for null) of subtask `id` into the playbook, so
 * people see what the records say, and the `validated: <stamp>` line once all three validations read PASS. Refused
 * when the subtask no longer hashes to `hash`: the records then judged other content.
 *
 * @throws PlaybookError E_WRITE when the edit is refused or raced.
 */
export function writeValidationResults(
  resolved: ResolvedPlaybook,
  id: string,
  hash: string,
  results: Partial<Record<ValidationName, ValidationResult | null>>,
  stamp: string,
): { changed: boolean } {
  const entries = Object.entries(results) as [
    ValidationName,
    ValidationResult | null,
  ][];
  if (entries.length === 0) return { changed: false };
  return applyDocumentEdit(resolved.file, resolved.path, (current) => {
    const parsed = parsePlaybook(current, resolved.path);
    if (subtaskHash(summarizePlaybook(parsed.value, []), id) !== hash)
      return failure(
        `\`${id}\` changed while it was being checked, so its results were not written; run the command again.`,
      );
    let text = current;
    let changed = false;
    for (const [name, result] of entries) {
      const edit: EditResult = setValidation(text, id, name, { result });
      if (!edit.ok) return edit;
      text = edit.text;
      changed ||= edit.changed;
    }
    const after = summarizePlaybook(
      parsePlaybook(text, resolved.path).value,
      [],
    );
    const subtask = after.phases
      .flatMap((p) => p.subtasks)
      .find((s) => s.id === id);
    const allPass = VALIDATION_NAMES.every(
      (name) => subtask?.validations[name]?.result === "PASS",
    );
    if (changed && allPass) {
      const stamped = setValidated(text, id, stamp);
      if (!stamped.ok) return stamped;
      text = stamped.text;
    }
    return { ok: true, text, changed };
  });
}
