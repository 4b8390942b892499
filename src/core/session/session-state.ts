import * as v from "valibot";

const intent = v.nullable(v.picklist(["work", "question", "other"]));

/** What playbook remembers about one Claude Code session, in `.claude/playbook/sessions/<id>.state.json`. */
const SESSION_STATE = v.object({
  started: v.nullable(v.string()),
  source: v.nullable(v.string()),
  /** Updated at session start, on each prompt and each stop: how locks of dead sessions are told apart. */
  lastSeen: v.nullable(v.string()),
  ended: v.nullable(v.string()),
  endReason: v.nullable(v.string()),
  /** What the user's last prompt asked for; a question is answered without the continuation loop. */
  lastPrompt: intent,
  /** When the user last spoke: a `playbook loop cancel` after it stops the continuation until they speak again. */
  lastPromptAt: v.nullable(v.string()),
  continuation: v.object({
    /** Stops blocked in a row since the user last spoke. */
    consecutive: v.pipe(v.number(), v.integer(), v.minValue(0)),
    /** Stops blocked per phase in this session (the phase's max_iterations caps them). */
    byPhase: v.record(
      v.string(),
      v.pipe(v.number(), v.integer(), v.minValue(0)),
    ),
  }),
  /** The newest tool failures, oldest first: the same one repeated means the problem is structural. */
  failures: v.array(v.object({ signature: v.string(), summary: v.string() })),
});

export type SessionState = v.InferOutput<typeof SESSION_STATE>;

/** How many failures are kept: enough for any `sameErrorLimit` the configuration allows. */
export const MAX_FAILURES = 20;

export function emptySessionState(): SessionState {
  return {
    started: null,
    source: null,
    lastSeen: null,
    ended: null,
    endReason: null,
    lastPrompt: null,
    lastPromptAt: null,
    continuation: { consecutive: 0, byPhase: {} },
    failures: [],
  };
}

/** A stored session state, or an empty one when the JSON is missing, corrupt or of another shape. */
export function toSessionState(json: unknown): SessionState {
  const result = v.safeParse(SESSION_STATE, json);
  return result.success ? result.output : emptySessionState();
}

/**
 * Whether a session can no longer act: it ended, or it has been silent for `staleMinutes` (a crashed session sends
 * no SessionEnd). A session playbook has never seen counts as gone.
 */
export function isSessionGone(
  state: SessionState | null,
  now: Date,
  staleMinutes: number,
): boolean {
  if (state === null || state.ended !== null) return true;
  const seen = Date.parse(state.lastSeen ?? state.started ?? "");
  return Number.isNaN(seen) || now.getTime() - seen > staleMinutes * 60_000;
}

/** A tool failure reduced to what repeats: the tool and its error's first line, with numbers and paths blurred. */
export function failureSignature(tool: string, error: string): string {
  const first = error.trim().split(/\r?\n/, 1)[0] ?? "";
  return `${tool}: ${first
    .replace(/(?:\/[\w.@-]+)+|[A-Za-z]:\\[\w\\.-]+/g, "<path>")
    .replace(/\d+(?:\.\d+)?\s*m?s\b/g, "<time>")
    .slice(0, 200)}`;
}

/** How many of the newest failures in a row share the newest one's signature. */
export function repeatedFailures(state: SessionState): number {
  const failures = state.failures;
  const last = failures.at(-1);
  if (!last) return 0;
  let count = 0;
  for (
    let i = failures.length - 1;
    i >= 0 && failures[i]?.signature === last.signature;
    i--
  )
    count++;
  return count;
}
