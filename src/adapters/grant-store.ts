import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
} from "node:fs";
import { join } from "node:path";
import { GRANTS_DIR } from "../core/records/record-path.ts";
import { writeTextAtomic } from "./atomic-write.ts";

export type GrantKind = "review" | "crit";

/**
 * A one-time permission: the hook writes it when it allows `playbook review ...` from the reviewer subagent or
 * `playbook crit record ...` from the critic, and that command consumes it to learn who runs it.
 */
export interface Grant {
  kind: GrantKind;
  /** The subagent's `agent_type`, e.g. `reviewer` or `plugin:critic`. */
  agentType: string;
  sessionId: string | null;
  /** The command line the hook allowed. */
  command: string;
  /** ISO 8601 time the hook allowed it. */
  at: string;
}

/** How far a grant's time may lie in the future (clock steps between processes) before it is refused. */
const FUTURE_SKEW_MS = 5_000;

/** Writes `grant` to `.claude/playbook/grants/<kind>-<random>.json`. */
export function writeGrant(projectDir: string, grant: Grant): void {
  const dir = join(projectDir, GRANTS_DIR);
  mkdirSync(dir, { recursive: true });
  writeTextAtomic(
    // node:crypto is loaded only here: the hook writes a grant rarely and loading it costs ~3 ms.
    join(
      dir,
      `${grant.kind}-${process.getBuiltinModule("node:crypto").randomBytes(8).toString("hex")}.json`,
    ),
    `${JSON.stringify(grant)}\n`,
  );
}

/**
 * Takes the oldest unexpired grant of `kind` (made at most `maxAgeMs` before `now`) and deletes it, so it is used
 * once; expired and malformed grants of that kind are deleted. Of two processes taking the same grant, only the one
 * whose delete succeeds gets it.
 */
export function takeGrant(
  projectDir: string,
  kind: GrantKind,
  now: Date,
  maxAgeMs = 120_000,
): Grant | null {
  const dir = join(projectDir, GRANTS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  const usable: { path: string; grant: Grant; time: number }[] = [];
  for (const name of names) {
    if (!name.startsWith(`${kind}-`) || !name.endsWith(".json")) continue;
    const path = join(dir, name);
    const grant = readGrant(path);
    const time = grant ? Date.parse(grant.at) : Number.NaN;
    const age = now.getTime() - time;
    if (
      !grant ||
      grant.kind !== kind ||
      Number.isNaN(time) ||
      age > maxAgeMs ||
      age < -FUTURE_SKEW_MS
    ) {
      rmSync(path, { force: true });
      continue;
    }
    usable.push({ path, grant, time });
  }
  usable.sort((a, b) => a.time - b.time);
  for (const { path, grant } of usable) {
    try {
      unlinkSync(path);
      return grant;
    } catch {
      // Another process took it first.
    }
  }
  return null;
}

function readGrant(path: string): Grant | null {
  try {
    const data = JSON.parse(readFileSync(path, "utf8")) as Record<
      string,
      unknown
    >;
    const { kind, agentType, sessionId, command, at } = data;
    if (
      (kind !== "review" && kind !== "crit") ||
      typeof agentType !== "string" ||
      (sessionId !== null && typeof sessionId !== "string") ||
      typeof command !== "string" ||
      typeof at !== "string"
    )
      return null;
    return { kind, agentType, sessionId, command, at };
  } catch {
    return null;
  }
}
