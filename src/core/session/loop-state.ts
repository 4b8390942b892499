import * as v from "valibot";

const LOOP = v.object({
  id: v.string(),
  prompt: v.pipe(v.string(), v.minLength(1)),
  max: v.pipe(v.number(), v.integer(), v.minValue(1)),
  promise: v.pipe(v.string(), v.minLength(1)),
  iteration: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** The session the loop runs in; null until the first session that stops claims it. */
  session: v.nullable(v.string()),
  startedAt: v.string(),
});

/** A plain ralph-style loop (`playbook loop start`): the same prompt is fed again until the promise appears. */
export type LoopState = v.InferOutput<typeof LOOP>;

const CANCEL = v.object({ id: v.nullable(v.string()), at: v.string() });

/** `playbook loop cancel`: which loop was cancelled and when (it also pauses the playbook continuation). */
export type LoopCancel = v.InferOutput<typeof CANCEL>;

export function toLoopState(json: unknown): LoopState | null {
  const result = v.safeParse(LOOP, json);
  return result.success ? result.output : null;
}

export function toLoopCancel(json: unknown): LoopCancel | null {
  const result = v.safeParse(CANCEL, json);
  return result.success ? result.output : null;
}

/** Whether `message` keeps the promise: `<promise>TEXT</promise>`, spaces and case inside the tags ignored. */
export function hasPromise(message: string, promise: string): boolean {
  const wanted = promise.trim().replace(/\s+/g, " ").toLowerCase();
  for (const match of message.matchAll(/<promise>([\s\S]*?)<\/promise>/gi))
    if ((match[1] ?? "").trim().replace(/\s+/g, " ").toLowerCase() === wanted)
      return true;
  return false;
}
