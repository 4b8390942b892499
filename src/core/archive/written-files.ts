import { recordFolderName } from "../records/record-path.ts";

/** Where the hook keeps, per playbook, the files the agent wrote with its file tools while that playbook was active. */
const WRITTEN_FILES_DIR = ".claude/playbook/written";

/** A list larger than this is not the hook's: the archive refuses it instead of reading on. */
export const MAX_WRITTEN_LIST_BYTES = 4 * 1024 * 1024;

/** `.claude/playbook/written/plan__playbook-login.md.jsonl` for `plan/playbook-login.md`. */
export function writtenListPath(playbook: string): string {
  return `${WRITTEN_FILES_DIR}/${recordFolderName(playbook)}.jsonl`;
}

/** One entry of the list: the repository path as a JSON string on its own line. */
export function toWrittenLine(path: string): string {
  return `${JSON.stringify(path)}\n`;
}

/**
 * The repository paths a list holds, in the order first written, each once; or where it is broken (`file:line`,
 * what was found and what was expected). Each line is a JSON string naming a path inside the repository. A last line
 * without its newline is read as well: appends are whole lines, so it can only be a line a crash cut short, and a
 * cut line does not parse.
 */
export function parseWrittenList(
  text: string,
  file: string,
): { ok: true; paths: string[] } | { ok: false; problem: string } {
  const paths = new Set<string>();
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const [index, line] of lines.entries()) {
    const where = `${file}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return {
        ok: false,
        problem: `${where}: Unexpected ${preview(line)}, expected a repository path as a JSON string`,
      };
    }
    if (typeof value !== "string" || !isRepositoryPath(value))
      return {
        ok: false,
        problem: `${where}: Unexpected ${preview(line)}, expected a path inside the repository (relative, without \`..\`)`,
      };
    paths.add(value);
  }
  return { ok: true, paths: [...paths] };
}

/** A relative POSIX path inside the repository: not empty, no `.`/`..` segments, no NUL, not inside `.git/`. */
export function isRepositoryPath(path: string): boolean {
  if (path === "" || path.startsWith("/") || path.includes("\0")) return false;
  const segments = path.split("/");
  return (
    segments.every((s) => s !== "" && s !== "." && s !== "..") &&
    segments[0] !== ".git"
  );
}

function preview(line: string): string {
  const cut = line.length > 60 ? `${line.slice(0, 60)}…` : line;
  return line === "" ? "an empty line" : `\`${cut}\``;
}
