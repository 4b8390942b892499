import { join } from "node:path";
import type { Summarize } from "../adapters/parse-cache.ts";
import { readWorkspaceSummary } from "../app/read-workspace-summary.ts";
import { readStdin } from "./read-stdin.ts";

const MAX_STDIN_BYTES = 4 * 1024 * 1024;
const STDIN_TIMEOUT_MS = 3000;

declare const __dirname: string;

/**
 * Loads the markdown parser bundle only when the cache misses (remark costs ~150 ms to start) and summarizes with
 * the project's lint options, so cached diagnostics match `playbook lint`.
 */
function summarizeLazily(projectDir: string): Summarize {
  let summarize: Summarize | undefined;
  return (kind, text, file) => {
    if (!summarize) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a separate bundle, loaded on demand
      const parser = require(join(__dirname, "parser.cjs")) as {
        summarizeWithConfig: (projectDir: string) => Summarize;
      };
      summarize = parser.summarizeWithConfig(projectDir);
    }
    return summarize(kind, text, file);
  };
}

/**
 * Entry of `dist/hook.cjs`: `node dist/hook.cjs <EventName>` with the event JSON on stdin. This foundation reads
 * the payload and the project's state from the parse cache; the guards that act on it plug in here.
 */
async function main(): Promise<void> {
  if (process.env["PLAYBOOK_DISABLE"] === "1") return;
  if (!process.argv[2]) {
    process.stderr.write(
      "playbook hook: the event name argument is missing (the hook command in .claude/settings.json passes it, e.g. `node dist/hook.cjs PreToolUse`); nothing was checked.\n",
    );
    return;
  }
  const input = await readStdin(MAX_STDIN_BYTES, STDIN_TIMEOUT_MS);
  if (input.timedOut || input.truncated) {
    const why = input.timedOut
      ? `no complete event on stdin within ${STDIN_TIMEOUT_MS / 1000} s`
      : `the event on stdin is larger than ${MAX_STDIN_BYTES / 1024 / 1024} MiB`;
    process.stderr.write(`playbook hook: ${why}; nothing was checked.\n`);
    // A read may still be pending on the open pipe: end the process rather than wait for it.
    process.exit(0);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(input.text);
  } catch {
    process.stderr.write(
      "playbook hook: the event on stdin is not JSON; nothing was checked.\n",
    );
    return;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    process.stderr.write(
      "playbook hook: the event on stdin is not a JSON object; nothing was checked.\n",
    );
    return;
  }
  const payload = parsed as { cwd?: unknown };
  const projectDir =
    process.env["CLAUDE_PROJECT_DIR"] ??
    (typeof payload.cwd === "string" ? payload.cwd : process.cwd());
  readWorkspaceSummary(projectDir, summarizeLazily(projectDir));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `playbook hook: internal error, the call was allowed: ${String(error)}\n`,
  );
});
