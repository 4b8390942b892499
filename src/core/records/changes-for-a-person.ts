import { SETTINGS_FILES, TRUST_PATHS } from "../paths/trust-paths.ts";

/**
 * What CI does not judge in a pull request (docs/ci.md): the checks themselves. A workflow or action could report a
 * check under the name a rule requires, CODEOWNERS decides who must review, and playbook's configuration decides
 * what the verifier trusts; the records under `.claude/playbook/` are not among them, they are what CI checks.
 */
const FOLDERS = [".github/workflows/", ".github/actions/"];
const FILES = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"];

/**
 * The paths of `changed` (repository-relative, posix) that a person must review before a merge: those CI cannot
 * judge without judging its own definition. Sorted, each once.
 */
export function findChangesForAPerson(changed: readonly string[]): string[] {
  const trust = TRUST_PATHS.filter(
    (p) => p.path !== ".claude/playbook" && !p.path.startsWith("node_modules/"),
  );
  const hits = changed.filter(
    (path) =>
      FOLDERS.some((folder) => path.startsWith(folder)) ||
      FILES.includes(path) ||
      SETTINGS_FILES.includes(path) ||
      trust.some((p) =>
        p.folder ? path.startsWith(`${p.path}/`) : path === p.path,
      ),
  );
  return [...new Set(hits)].sort();
}
