import { isRuntimeWritable } from "../../adapters/runtime-writable.ts";
import { trustWriteFailure } from "../../core/records/trust-write-failure.ts";

/**
 * Refuses a command that writes proof, the lock or the journal (`command`, as the user would type it) before it does
 * any work, where it cannot write them: in the agent's sandbox it would run every validation and then fail.
 *
 * @throws PlaybookError E_WRITE naming who writes `shown` and how to run `command` there.
 */
export function assertRuntimeWritable(
  root: string,
  command: string,
  shown = ".claude/playbook/records",
): void {
  if (!isRuntimeWritable(root)) throw trustWriteFailure(shown, command);
}
