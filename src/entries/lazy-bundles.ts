import type { ApplyLocalBoundary } from "../app/workspace/sync-local-boundary.ts";
import { join } from "node:path";
import { requireWithCodeCache } from "./code-cache.ts";
import { beforeSlowStep } from "../adapters/process-deadline.ts";
import type { Summarize } from "../adapters/parse-cache.ts";
import type { HookArchiveResult } from "../app/hook/hook-run.ts";
import type { SetStateField } from "../app/workspace/write-state-field.ts";
import type {
  BashCall,
  BashCallInput,
  ReadBashCall,
} from "../app/hook/read-bash-call.ts";
import type { CheckTime } from "../core/time/deadline.ts";
import type {
  BashSnapshotAnswer,
  BashSnapshotRequest,
} from "../app/snapshot/snapshot-before-bash.ts";
import type { UncommittedFiles } from "../adapters/uncommitted-files.ts";

declare const __dirname: string;

interface ParserBundle {
  summarizeWithConfig: (projectDir: string) => Summarize;
  setStateField: SetStateField;
}

let parserBundle: ParserBundle | undefined;

/** The markdown parser bundle, loaded on first use only: remark costs ~20 ms to load and more to warm up. */
export function loadParser(): ParserBundle {
  parserBundle ??= requireWithCodeCache(
    join(__dirname, "parser.cjs"),
  ) as ParserBundle;
  return parserBundle;
}

/** Summarizes with the project's lint options, so cached diagnostics match `playbook lint`; parses only on a miss. */
export function summarizeLazily(projectDir: string): Summarize {
  let summarize: Summarize | undefined;
  return (kind, text, file) => {
    parsed.push(file);
    // A parse cannot be interrupted from within: the watchdog answers if it outlasts the call's time. Starting it
    // costs a call ~8 ms, and a document this small parses within a second whatever it holds (the worst spellings
    // measured, docs/decisions.md), far inside the budget; Claude Code's timeout blocks the call beyond that.
    if (text.length > QUICK_PARSE_CHARS) beforeSlowStep();
    summarize ??= loadParser().summarizeWithConfig(projectDir);
    return summarize(kind, text, file);
  };
}

const parsed: string[] = [];

/** Documents up to this many characters are parsed without the watchdog. */
const QUICK_PARSE_CHARS = 32 * 1024;

/** The documents this process parsed (a hook process serves one call): what took the time when it runs out. */
export function parsedDocuments(): readonly string[] {
  return parsed;
}

type BashBundle = {
  readBashCall: (
    input: BashCallInput,
    command: string,
    checkTime: CheckTime,
  ) => BashCall;
};

/** The shell analysis is its own bundle too: only Bash calls pay for loading it. */
export function readBashCallLazily(checkTime: CheckTime): ReadBashCall {
  let bundle: BashBundle | undefined;
  return (input, command) => {
    bundle ??= requireWithCodeCache(join(__dirname, "bash.cjs")) as BashBundle;
    return bundle.readBashCall(input, command, checkTime);
  };
}

interface ArchiveBundle {
  archiveFromHook: (
    projectDir: string,
    session: string | null,
    distDir: string,
  ) => Promise<HookArchiveResult>;
}

let archiveBundle: ArchiveBundle | undefined;

/** What starts the archive as a job and waits for it: loaded only when an edit finishes a playbook. */
export function loadArchive(): ArchiveBundle {
  archiveBundle ??= requireWithCodeCache(
    join(__dirname, "archive.cjs"),
  ) as ArchiveBundle;
  return archiveBundle;
}

interface SnapshotBundle {
  snapshotForHook: (
    request: BashSnapshotRequest,
    timeLeft: () => number,
  ) => Promise<BashSnapshotAnswer>;
  startListingForHook: (
    root: string,
    timeLeft: () => number,
  ) => Promise<UncommittedFiles>;
}

let snapshotBundle: SnapshotBundle | undefined;

const loadSnapshot = () =>
  (snapshotBundle ??= requireWithCodeCache(
    join(__dirname, "snapshot.cjs"),
  ) as SnapshotBundle);

/** The snapshot before a shell command that may change files: its bundle loads only for such a call. */
export function snapshotLazily(timeLeft: () => number): {
  snapshot: (request: BashSnapshotRequest) => Promise<BashSnapshotAnswer>;
  start: (root: string) => Promise<UncommittedFiles>;
} {
  return {
    snapshot: (request) => loadSnapshot().snapshotForHook(request, timeLeft),
    start: (root) => loadSnapshot().startListingForHook(root, timeLeft),
  };
}

let localBoundaryBundle: { applyLocalBoundary: ApplyLocalBoundary } | undefined;

/** The settings editor for the sandbox's derived lists: its bundle loads only when they change. */
export const applyLocalBoundaryLazily: ApplyLocalBoundary = (...args) =>
  (localBoundaryBundle ??= requireWithCodeCache(
    join(__dirname, "local-boundary.cjs"),
  ) as { applyLocalBoundary: ApplyLocalBoundary }).applyLocalBoundary(...args);
