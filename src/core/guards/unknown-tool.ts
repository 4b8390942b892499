import type { SecurityMode } from "../model/state.ts";
import { isPlaybookPath, isStatePath } from "../paths/repo-path.ts";
import { isWriteGuarded, WRITE_GUARDED_PATHS } from "../paths/trust-paths.ts";
import { findProtection } from "./protected-match.ts";
import type { ProtectedRule } from "./protected-rules.ts";

/**
 * The tools the guards understand (docs/claude-code.md): what they change is read from their input. Any other tool
 * (an MCP server's, a plugin's) could do anything with the paths it is given.
 */
const KNOWN_TOOLS: ReadonlySet<string> = new Set([
  "Read",
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
  "NotebookRead",
  "Bash",
  "BashOutput",
  "KillShell",
  "KillBash",
  "PowerShell",
  "Glob",
  "Grep",
  "LS",
  "WebFetch",
  "WebSearch",
  "Agent",
  "Task",
  "Skill",
  "SlashCommand",
  "TodoWrite",
  "TodoRead",
  "ExitPlanMode",
  "ListMcpResourcesTool",
  "ReadMcpResourceTool",
]);

export function isKnownTool(name: string): boolean {
  return KNOWN_TOOLS.has(name);
}

/** More is not read: a tool input this large names its paths near the top, if anywhere. */
const MAX_STRINGS = 10_000;
/** Longer strings are content (a file's text, a message), read as a whole value only, never word by word. */
const MAX_WORDED = 1024;

/**
 * The strings in a tool's input that could name a file: every string value (keys too), and each word of a short
 * one, so `{"command": "rm -rf .claude"}` names `.claude`. `file://` URLs are left for the caller to decode.
 */
export function stringsInToolInput(input: unknown): string[] {
  const found = new Set<string>();
  const stack: unknown[] = [input];
  let seen = 0;
  while (stack.length > 0 && seen < MAX_STRINGS) {
    const value = stack.pop();
    if (typeof value === "string") {
      seen++;
      const text = value.trim();
      if (text === "") continue;
      found.add(text);
      if (text.length <= MAX_WORDED)
        for (const word of text.split(/[\s"'`=,;:()<>|&]+/))
          if (word !== "" && word !== text) found.add(word);
    } else if (Array.isArray(value)) stack.push(...(value as unknown[]));
    else if (typeof value === "object" && value !== null)
      for (const [key, inner] of Object.entries(value)) stack.push(key, inner);
  }
  return [...found];
}

export type UnknownToolVerdict =
  { kind: "records"; path: string } | { kind: "document"; path: string } | null;

/**
 * Whether a repository path named by a tool the guards do not know must be refused: a trust path, Claude Code's
 * settings, git's data, a file `.claude/protected-files.txt` protects (as the `protected` guard would, per mode),
 * or a folder holding one of them (`records`); `state.md` or a playbook, whose changes only an Edit can be checked
 * for (`document`). The repository root itself is named by many tools and is not counted.
 */
export function judgeUnknownToolPath(
  path: string,
  rules: readonly ProtectedRule[],
  security: SecurityMode,
): UnknownToolVerdict {
  if (path === "") return null;
  // The plan folder is closed to the shell as a whole (docs/trust-boundary.md): only the file tools change it.
  if (
    isStatePath(path) ||
    isPlaybookPath(path) ||
    path === "plan" ||
    path.startsWith("plan/")
  )
    return { kind: "document", path };
  if (
    isWriteGuarded(path) ||
    // A folder that holds guarded files: naming it (to move or delete it) reaches them too.
    WRITE_GUARDED_PATHS.some((g) => g.startsWith(`${path}/`))
  )
    return { kind: "records", path };
  const rule = findProtection(rules, path);
  if (
    rule &&
    (rule.level === "HARD_BLOCK" ||
      (rule.level === "BLOCK" && security === "strict"))
  )
    return { kind: "records", path };
  return null;
}

/** The reason an unknown tool is refused, naming the path and the built-in tool to use instead. */
export function unknownToolReason(
  tool: string,
  verdict: NonNullable<UnknownToolVerdict>,
): string {
  const named = `\`${tool}\` names \`${verdict.path}\``;
  return verdict.kind === "document"
    ? `Blocked: ${named}, and playbook cannot tell what a tool it does not know does to it, so the change cannot be checked. Next: use the Edit or Write tool for state.md and the files under plan/ (they stay editable), and Read to read them.`
    : `Blocked: ${named}, which playbook guards, and playbook cannot tell what a tool it does not know does to it. Next: use the built-in Read, Grep or Glob tool to look at it; records, settings and git's data are changed only by playbook commands, git and the user.`;
}
