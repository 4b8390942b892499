import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  writeSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";

/** GitHub Actions keeps at most this many bytes of one step's summary. */
const STEP_SUMMARY_BYTES = 1024 * 1024;

/** Less room than this left in the step's summary: nothing is written. */
const SMALLEST_SUMMARY = 4096;

export type StepSummaryOutcome =
  | { status: "written"; path: string }
  /** Not in GitHub Actions: nothing to write, nothing to say. */
  | { status: "not-in-actions" }
  | { status: "refused"; why: string };

/**
 * Appends `render(room)` (at most `room` UTF-8 bytes: what the step's 1 MiB has left) to the job summary GitHub
 * Actions shows for the step, `$GITHUB_STEP_SUMMARY`. The path comes from the environment, and the process writing
 * it runs outside the sandbox, so it is an input to a deputy (docs/trust-boundary.md): it is used only when
 * `GITHUB_ACTIONS` is `true`, only when it is absolute, only to append, only to an existing regular file with one
 * name, opened without following a link and without blocking on a pipe, and never inside `projects` (the checkout
 * and the pull request's folder, which the pull request's own files could point into).
 */
export function appendStepSummary(
  env: Readonly<Record<string, string | undefined>>,
  projects: readonly string[],
  render: (room: number) => string,
): StepSummaryOutcome {
  if (env["GITHUB_ACTIONS"] !== "true") return { status: "not-in-actions" };
  const path = env["GITHUB_STEP_SUMMARY"] ?? "";
  if (path === "")
    return { status: "refused", why: "GITHUB_STEP_SUMMARY is not set" };
  if (!isAbsolute(path))
    return {
      status: "refused",
      why: `GITHUB_STEP_SUMMARY (${path}) is not an absolute path`,
    };
  let target: string;
  try {
    target = join(realpathSync(dirname(path)), basename(path));
  } catch {
    return {
      status: "refused",
      why: `the folder of GITHUB_STEP_SUMMARY (${path}) does not exist`,
    };
  }
  const inside = projectHolding(target, projects);
  if (inside !== null)
    return {
      status: "refused",
      why: `GITHUB_STEP_SUMMARY (${path}) is inside ${inside}, which this check reads as data`,
    };
  let fd: number;
  try {
    fd = openSync(
      target,
      constants.O_WRONLY |
        constants.O_APPEND |
        constants.O_NOFOLLOW |
        constants.O_NONBLOCK,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    return {
      status: "refused",
      why: `GITHUB_STEP_SUMMARY (${path}) cannot be opened to append (${code === "ELOOP" ? "it is a symbolic link" : code === "ENOENT" ? "it does not exist" : code || "unknown error"})`,
    };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      return {
        status: "refused",
        why: `GITHUB_STEP_SUMMARY (${path}) is not a regular file`,
      };
    if (stat.nlink !== 1)
      return {
        status: "refused",
        why: `GITHUB_STEP_SUMMARY (${path}) has other names (hard links)`,
      };
    // Where the kernel says the open file is, when it can say: a folder swapped for a link after the check above.
    const opened = openedPath(fd);
    const openedInside =
      opened === null ? null : projectHolding(opened, projects);
    if (openedInside !== null)
      return {
        status: "refused",
        why: `GITHUB_STEP_SUMMARY (${path}) is inside ${openedInside}, which this check reads as data`,
      };
    const room = STEP_SUMMARY_BYTES - stat.size;
    if (room < SMALLEST_SUMMARY)
      return {
        status: "refused",
        why: "the step's summary is full (GitHub Actions keeps 1 MiB of it)",
      };
    const text = Buffer.from(render(room), "utf8");
    let at = 0;
    while (at < text.length) at += writeSync(fd, text, at);
    return { status: "written", path };
  } finally {
    closeSync(fd);
  }
}

/** The first of `projects` (resolved through links) that holds `path`, or null. */
function projectHolding(
  path: string,
  projects: readonly string[],
): string | null {
  for (const project of projects) {
    let real: string;
    try {
      real = realpathSync(project);
    } catch {
      real = project;
    }
    const rel = relative(real, path);
    if (
      rel === "" ||
      (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel))
    )
      return project;
  }
  return null;
}

function openedPath(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}
