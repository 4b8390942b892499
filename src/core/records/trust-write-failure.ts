import { PlaybookError } from "../errors.ts";
import { SETTINGS_FILES, TRUST_PATHS } from "../paths/trust-paths.ts";

const HERE_READ_ONLY =
  "it is read-only here (inside Claude Code's sandbox, or on a read-only disk)";

/** Errors a write gets where the path is read-only to this process: a sandbox's mount, a read-only disk, a lock. */
const REFUSED_WRITE = new Set(["EROFS", "EACCES", "EPERM", "EBUSY"]);

/** The guarded path a failed write was for, as the message shows it (`.claude/playbook/records`), or null. */
export function findTrustPathIn(absolute: string): string | null {
  const path = absolute.replace(/\\/g, "/");
  for (const guarded of [
    ...TRUST_PATHS.map((p) => p.path),
    ...SETTINGS_FILES,
  ]) {
    const at = path.lastIndexOf(`/${guarded}`);
    if (at === -1) continue;
    const rest = path.slice(at + guarded.length + 1);
    if (rest !== "" && !rest.startsWith("/")) continue;
    // The runtime folder holds records, grants, locks, jobs and caches: name the one the write was for.
    // Its folders have plain names; its files (the lock, the journal) are named by the folder.
    const inside =
      guarded === ".claude/playbook" ? /^\/([^/.]+)(?:\/|$)/.exec(rest) : null;
    return inside ? `${guarded}/${inside[1]}` : guarded;
  }
  return null;
}

/**
 * The failure a command reports when a write to a trust path (or Claude Code's settings) is refused: one line on who
 * writes it and the next step for `command` (`playbook verify p1.1`), instead of an internal error. Null when `error`
 * is no refused write to such a path.
 */
export function toTrustWriteFailure(
  error: unknown,
  command: string,
): PlaybookError | null {
  const errno = error as { code?: unknown; path?: unknown; dest?: unknown };
  if (typeof errno.code !== "string" || !REFUSED_WRITE.has(errno.code))
    return null;
  const shown = [errno.path, errno.dest]
    .filter((p): p is string => typeof p === "string")
    .map(findTrustPathIn)
    .find((p) => p !== null);
  return shown ? trustWriteFailure(shown, command, error) : null;
}

/**
 * `shown` (a path `findTrustPathIn` names) cannot be written here: who writes it, and what to do next for `command`.
 * Its code is `E_WRITE`.
 */
export function trustWriteFailure(
  shown: string,
  command: string,
  cause?: unknown,
): PlaybookError {
  const sub = /^playbook\s+(\S+)/.exec(command)?.[1] ?? "";
  if (shown === ".claude/playbook" || shown.startsWith(".claude/playbook/")) {
    const next =
      sub === "confirm"
        ? `A person runs \`${command}\` in their own terminal.`
        : sub === "review" || sub === "crit"
          ? `The ${sub === "review" ? "reviewer" : "critic"} subagent runs \`${command}\` through its Bash tool, which the hook runs for it, or a person runs it in their own terminal.`
          : `Run \`${command}\` through Claude Code's Bash tool, which the hook runs for you, or in your own terminal.`;
    return new PlaybookError(
      "E_WRITE",
      `\`${shown}\` is written only by playbook's hook or a person's terminal, and ${HERE_READ_ONLY}.`,
      { hint: next, cause },
    );
  }
  const byInit =
    shown === ".claude/agents" ||
    shown.startsWith(".claude/hooks/") ||
    shown.startsWith("node_modules/") ||
    shown.startsWith(".claude/settings");
  return new PlaybookError(
    "E_WRITE",
    `\`${shown}\` is changed only by a person in their own terminal, and ${HERE_READ_ONLY}.`,
    {
      hint: byInit
        ? "Ask the user to run `npx --no playbook init` (or `npm install`) in their own terminal."
        : `Ask the user to change \`${shown}\` themselves, in their own terminal.`,
      cause,
    },
  );
}
