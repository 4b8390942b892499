import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  fstatSync,
} from "node:fs";
import { join } from "node:path";
import {
  toLoopCancel,
  toLoopState,
  type LoopCancel,
  type LoopState,
} from "../core/session/loop-state.ts";
import { writeTextAtomic } from "./atomic-write.ts";
import { appendBoundedLog, RUNTIME_DIR } from "./runtime-files.ts";

const LOOP_FILE = join(RUNTIME_DIR, "loop.json");
const CANCEL_FILE = join(RUNTIME_DIR, "loop-cancel.json");

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The running plain loop (null when none, when unreadable, or when its cancel marker is there) and the newest cancel.
 * A cancel always wins: the marker is written before the loop file goes, and a loop it names never runs again.
 */
export function readLoop(projectDir: string): {
  loop: LoopState | null;
  cancel: LoopCancel | null;
} {
  const cancel = toLoopCancel(readJson(join(projectDir, CANCEL_FILE)));
  const loop = toLoopState(readJson(join(projectDir, LOOP_FILE)));
  return { loop: loop && cancel?.id === loop.id ? null : loop, cancel };
}

/** Saves the loop's progress, unless it was cancelled meanwhile: then the file is removed again. */
export function saveLoop(projectDir: string, loop: LoopState): void {
  mkdirSync(join(projectDir, RUNTIME_DIR), { recursive: true });
  // Progress only: a lost write repeats one iteration. The cancel marker below stays durable.
  writeTextAtomic(join(projectDir, LOOP_FILE), `${JSON.stringify(loop)}\n`, {
    durable: false,
  });
  const cancel = toLoopCancel(readJson(join(projectDir, CANCEL_FILE)));
  if (cancel?.id === loop.id)
    rmSync(join(projectDir, LOOP_FILE), { force: true });
}

/** Starts a loop; the previous cancel marker is kept (it names another loop). */
export function startLoop(projectDir: string, loop: LoopState): void {
  saveLoop(projectDir, loop);
}

export function endLoop(
  projectDir: string,
  loop: LoopState,
  why: string,
  at: string,
): void {
  rmSync(join(projectDir, LOOP_FILE), { force: true });
  appendBoundedLog(
    projectDir,
    "loops.log",
    `${at}\tended\t${loop.id}\t${why}\t${loop.iteration}/${loop.max}`,
  );
}

/** Cancels the running loop (if any) and pauses the playbook continuation until the user's next prompt. */
export function cancelLoop(projectDir: string, at: string): LoopState | null {
  const { loop } = readLoop(projectDir);
  mkdirSync(join(projectDir, RUNTIME_DIR), { recursive: true });
  writeTextAtomic(
    join(projectDir, CANCEL_FILE),
    `${JSON.stringify({ id: loop?.id ?? null, at })}\n`,
  );
  rmSync(join(projectDir, LOOP_FILE), { force: true });
  if (loop)
    appendBoundedLog(
      projectDir,
      "loops.log",
      `${at}\tcancelled\t${loop.id}\t${loop.iteration}/${loop.max}`,
    );
  return loop;
}

/** The last `bytes` of a transcript, from its first whole line; empty when it cannot be read. */
export function readTranscriptTail(
  path: string | undefined,
  bytes = 256 * 1024,
): string {
  if (!path) return "";
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - bytes);
    const buffer = Buffer.alloc(size - start);
    readSync(fd, buffer, 0, buffer.length, start);
    const text = buffer.toString("utf8");
    return start === 0 ? text : text.slice(text.indexOf("\n") + 1);
  } catch {
    return "";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
