/**
 * A file the secret scan judges: its repository path and text (null: deleted, binary or unreadable, so nothing is
 * read). `origins` says where each line of `content` comes from when the text is not the file itself (the lines a
 * branch's commits add): the line's number in the file as that commit left it, and the commit.
 */
export interface ScannedFile {
  path: string;
  content: string | null;
  origins?: readonly LineOrigin[];
}

export interface LineOrigin {
  line: number;
  commit: string | null;
}

/** What the rule engine reports, as offsets into the scanned text: which rule, which of its messages, where. */
export interface RuleHit {
  /** The rule's id as its package names it (`@secretlint/secretlint-rule-aws`). */
  rule: string;
  /** The rule's kind of finding (`AWSSecretAccessKey`), or null when it has none. */
  kind: string | null;
  /** Offsets of the matched text in the scanned text, start inclusive, end exclusive. */
  range: readonly [number, number];
}

/** A secret found in a file: where, which rule, and the text before it on its line (the value itself is never kept). */
export interface SecretFinding {
  path: string;
  /** 1-based, in the file (for a branch's additions: in the file as the commit that added the line left it). */
  line: number;
  /** 1-based column where the match starts on that line. */
  column: number;
  /** The rule's short name (`aws` for `@secretlint/secretlint-rule-aws`). */
  rule: string;
  kind: string | null;
  /** The commit that added the line, for a branch's additions; null for a file about to be committed. */
  commit: string | null;
  /** What the line shows before the match, kept only when it reads as a key name (`AWS_SECRET_ACCESS_KEY=`). */
  before: string;
}

/** The masked stand-in of a secret's value: never its length, never a character of it. */
export const MASK = "****";

/** Text before a match that is shown: a key name and its assignment, up to this many characters. */
const MAX_BEFORE = 40;
const KEY_NAME = /^[\w.$@/[\]"'` -]*(?::|=>|=|:=)?\s*["'`]?$/;

/**
 * Where a rule's hit lies, in the terms a person fixes it by: the file, its line and column (through `origins` when
 * the text is a branch's additions), the rule's short name, and the key name before the value when there is one.
 */
export function toSecretFinding(
  file: ScannedFile,
  hit: RuleHit,
): SecretFinding {
  const text = file.content ?? "";
  const start = Math.max(0, Math.min(hit.range[0], text.length));
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const lineIndex = countNewlines(text, lineStart);
  const origin = file.origins?.[lineIndex];
  const before = text.slice(lineStart, start).trimStart();
  return {
    path: file.path,
    line: origin?.line ?? lineIndex + 1,
    column: start - lineStart + 1,
    rule: shortRuleName(hit.rule),
    kind: hit.kind,
    commit: origin?.commit ?? null,
    before: before.length <= MAX_BEFORE && KEY_NAME.test(before) ? before : "",
  };
}

/**
 * One finding in words, with the value masked: `config.env:1:1 AWS_SECRET_ACCESS_KEY=**** (rule aws,
 * AWSSecretAccessKey)`, and the commit that added it when it came from the branch's history.
 */
export function describeSecretFinding(finding: SecretFinding): string {
  const where = `${finding.path}:${finding.line}:${finding.column}`;
  const rule = `rule ${finding.rule}${finding.kind ? `, ${finding.kind}` : ""}`;
  const commit = finding.commit
    ? `, added by ${finding.commit.slice(0, 7)}`
    : "";
  return `${where} ${finding.before}${MASK} (${rule}${commit})`;
}

/** Findings in the order a person reads them: by file, then by line; the same place and rule once. */
export function sortSecretFindings(
  findings: readonly SecretFinding[],
): SecretFinding[] {
  const seen = new Set<string>();
  return [...findings]
    .sort(
      (a, b) =>
        compare(a.path, b.path) ||
        compare(a.commit ?? "", b.commit ?? "") ||
        a.line - b.line ||
        a.column - b.column ||
        compare(a.rule, b.rule),
    )
    .filter((f) => {
      const key = [f.path, f.commit, f.line, f.column, f.rule, f.kind].join(
        "\0",
      );
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** `@secretlint/secretlint-rule-aws` → `aws`; any other id as it is. */
function shortRuleName(rule: string): string {
  return rule.replace(/^@secretlint\/secretlint-rule-/, "");
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at >= 0 && at < end;) {
    count++;
    at = text.indexOf("\n", at + 1);
  }
  return count;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
