import { describe, expect, it } from "vitest";
import { summarizePlaybook } from "../../../../src/core/cache/summary.ts";
import { parsePlaybook } from "../../../../src/core/parse/parse-playbook.ts";
import { findUnboundRecords } from "../../../../src/core/records/pull-request-binding.ts";
import type { PlaybookRecord } from "../../../../src/core/records/record.ts";
import { createRecordSet } from "../../../../src/core/records/record-set.ts";

const FILE = "plan/playbook-x.md";
const TEXT = `# playbook-x

## meta
\`\`\`yaml
project: x
reviewed: false
branch: feat/x
\`\`\`

## goal
\`\`\`yaml
summary: x works.
done_when:
  - the demo passes
\`\`\`

## context
Who: a person. What: x.

## phases

### p1: X
**status**: done

- [x] **p1.1**: \`src/x.ts\` exports \`x\`
  - executor: claudecode
  - validations:
    - technical: "automated - true"
    - consistency: "automated - true"
    - completeness: "manual - the demo shows x"

## final_tasks
- [ ] **ft1**: clean up
`;

const playbook = parsePlaybook(TEXT, FILE).value;
const summary = summarizePlaybook(playbook, []);
const TREE = "sha256:tree-of-the-pull-request";
const basis = { plan: summary.hashes.review, tree: TREE };

function record(
  kind: "critic" | "confirmation",
  detail: Record<string, unknown>,
): PlaybookRecord {
  return {
    kind,
    playbook: FILE,
    target: kind === "critic" ? "p1" : "p1.1",
    contentHash:
      kind === "critic"
        ? summary.hashes.phases["p1"]!
        : summary.hashes.subtasks["p1.1"]!,
    verdict: "PASS",
    by: kind === "critic" ? "critic" : "user",
    at: "2026-11-27T12:00:00Z",
    detail,
  };
}

describe("findUnboundRecords", () => {
  it.each([
    ["bound to this plan and tree", { plan: basis.plan, tree: TREE }, null],
    ["naming nothing (forged, or older)", {}, "it names no plan and code"],
    [
      "made for another plan",
      { plan: "sha256:other", tree: TREE },
      "another version of the plan",
    ],
    [
      "made for other code",
      { plan: basis.plan, tree: "sha256:other" },
      "other code",
    ],
  ])("a confirmation and a critic verdict %s", (_, detail, problem) => {
    const records = createRecordSet([
      record("critic", detail),
      record("confirmation", detail),
    ]);

    const found = findUnboundRecords(FILE, playbook, summary, records, basis);

    if (problem === null) expect(found).toEqual([]);
    else {
      expect(found.map((d) => [d.code, d.line])).toEqual([
        ["record-unbound", 23],
        ["record-unbound", 25],
      ]);
      for (const d of found) expect(d.message).toContain(problem);
    }
  });
});
