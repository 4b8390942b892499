/**
 * What `.gitignore` needs: the runtime folder stays out of git, except the records, which travel with the work so
 * that `playbook check` can verify a pull request in CI. The history log is left out: every branch appends to it,
 * so committing it would make merges conflict.
 */
const GITIGNORE_LINES: readonly string[] = [
  ".claude/playbook/*",
  "!.claude/playbook/records/",
  ".claude/playbook/records/history.jsonl",
];

const HEADER =
  "# playbook: runtime files (records are kept for `playbook check`)";

/** `.gitignore` with the lines it lacks appended once (under one comment); which lines were added. */
export function addGitignoreLines(text: string | null): {
  text: string;
  added: string[];
  notes: string[];
} {
  const current = text ?? "";
  const present = new Set(current.split(/\r?\n/).map((l) => l.trim()));
  const added = GITIGNORE_LINES.filter((l) => !present.has(l));
  const notes = [".claude/playbook/", ".claude/playbook", ".claude/"].some(
    (l) => present.has(l),
  )
    ? [
        "`.gitignore` ignores all of `.claude/playbook/`, so records are never committed and `playbook check` cannot verify pull requests in CI; remove that line to keep the records",
      ]
    : [];
  if (added.length === 0) return { text: current, added, notes };
  const eol = current.includes("\r\n") ? "\r\n" : "\n";
  const base =
    current === "" || current.endsWith("\n") ? current : current + eol;
  const gap = base === "" ? "" : eol;
  return {
    text: `${base}${gap}${[HEADER, ...added].join(eol)}${eol}`,
    added,
    notes,
  };
}

/** `.gitignore` without the lines init added (and its comment); null when nothing else is left. */
export function removeGitignoreLines(
  text: string,
  added: readonly string[],
): string | null {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const drop = new Set([HEADER, ...added]);
  const lines = text.split(/\r?\n/);
  const kept = lines.filter((l) => !drop.has(l.trim()));
  const joined = kept.join(eol).replace(/(\r?\n){3,}/g, `${eol}${eol}`);
  const result = joined.replace(/(\r?\n)+$/, "");
  return result.trim() === "" ? null : `${result}${eol}`;
}
