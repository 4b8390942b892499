import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A hook payload as Claude Code sent it (only the fields the tests read are typed). */
export interface RecordedPayload {
  hook_event_name: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  agent_id?: string;
  agent_type?: string;
  error?: string;
  last_assistant_message?: string;
}

const RECORDER = `const fs = require("node:fs");
let data = "";
process.stdin.on("data", (chunk) => (data += chunk));
process.stdin.on("end", () => fs.appendFileSync(process.argv[1], data.trim() + "\\n"));
`;

/**
 * Adds a second hook beside playbook's, in `.claude/settings.local.json`, that appends every payload Claude Code
 * sends for `events` to a file: what the real client puts on a hook's stdin, read back with the returned function.
 */
export function recordHookPayloads(
  projectDir: string,
  events: readonly string[],
): () => RecordedPayload[] {
  const log = join(projectDir, ".claude", "payloads.jsonl");
  const handler = {
    type: "command",
    command: "node",
    args: ["-e", RECORDER, log],
    timeout: 10,
  };
  writeFileSync(
    join(projectDir, ".claude", "settings.local.json"),
    `${JSON.stringify({ hooks: Object.fromEntries(events.map((event) => [event, [{ hooks: [handler] }]])) }, null, 2)}\n`,
  );
  return () =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map((line) => JSON.parse(line) as RecordedPayload)
      : [];
}
