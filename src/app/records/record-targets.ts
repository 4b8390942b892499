import { locationAt, PlaybookError } from "../../core/errors.ts";
import type { Phase, Subtask } from "../../core/model/playbook.ts";
import type { ResolvedPlaybook } from "../workspace/resolve-playbook.ts";

/**
 * The one subtask `id` of the playbook.
 *
 * @throws PlaybookError E_NOT_FOUND for an unknown id, E_CONFIG for a duplicated one.
 */
export function findSubtaskOrThrow(
  resolved: ResolvedPlaybook,
  id: string,
): Subtask {
  const all = resolved.playbook.phases.flatMap((p) => p.subtasks);
  const matches = all.filter((s) => s.id === id);
  const [subtask] = matches;
  if (!subtask)
    throw new PlaybookError(
      "E_NOT_FOUND",
      `No subtask \`${id}\` in ${resolved.path}${all.length > 0 ? ` (its subtasks: ${list(all.map((s) => s.id))})` : ""}.`,
      { hint: "Pass a subtask id as `playbook status` shows it, e.g. p1.1." },
    );
  if (matches.length > 1)
    throw new PlaybookError(
      "E_CONFIG",
      `\`${id}\` appears ${matches.length} times in ${resolved.path}.`,
      {
        hint: `Give each subtask its own id (see \`playbook lint ${resolved.path}\`), then run the command again.`,
        location: locationAt(resolved.path, matches[1]?.span.start),
      },
    );
  return subtask;
}

/**
 * The phase `id` of the playbook.
 *
 * @throws PlaybookError E_NOT_FOUND for an unknown id, E_CONFIG for a duplicated one.
 */
export function findPhaseOrThrow(
  resolved: ResolvedPlaybook,
  id: string,
): Phase {
  const phases = resolved.playbook.phases;
  const matches = phases.filter((p) => p.id === id);
  const [phase] = matches;
  if (!phase)
    throw new PlaybookError(
      "E_NOT_FOUND",
      `No phase \`${id}\` in ${resolved.path}${phases.length > 0 ? ` (its phases: ${list(phases.map((p) => p.id))})` : ""}.`,
      { hint: "Pass a phase id as `playbook status` shows it, e.g. p1." },
    );
  if (matches.length > 1)
    throw new PlaybookError(
      "E_CONFIG",
      `\`${id}\` appears ${matches.length} times in ${resolved.path}.`,
      {
        hint: `Give each phase its own id (see \`playbook lint ${resolved.path}\`), then run the command again.`,
        location: locationAt(resolved.path, matches[1]?.heading.start),
      },
    );
  return phase;
}

function list(ids: readonly string[]): string {
  return ids.length > 12
    ? `${ids.slice(0, 12).join(", ")}, ...`
    : ids.join(", ");
}
