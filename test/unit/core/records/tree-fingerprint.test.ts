import { describe, expect, it } from "vitest";
import {
  applyDelta,
  deltaText,
  parseListedTree,
  type PathState,
} from "../../../../src/core/records/tree-fingerprint.ts";

const z = (...lines: string[]) => lines.map((l) => `${l}\0`).join("");
const OID = "78981922613b2afb6025042ff6bd878ac1994e85";

describe("parseListedTree reads git ls-files -z -v -t", () => {
  it("keeps index entries, reads modified and untracked files from disk, drops deleted ones", () => {
    const listed = parseListedTree(
      z(
        "? src/new.ts",
        `H 100644 ${OID} 0\tsrc/a.ts`,
        `H 100644 ${OID} 0\tsrc/b.ts`,
        `C 100644 ${OID} 0\tsrc/b.ts`,
        `H 100644 ${OID} 0\tsrc/gone.ts`,
        `R 100644 ${OID} 0\tsrc/gone.ts`,
        `C 100644 ${OID} 0\tsrc/gone.ts`,
      ),
    );
    expect([...listed.entries.keys()]).toEqual(["src/a.ts", "src/b.ts"]);
    expect(listed.changed.sort()).toEqual(["src/b.ts", "src/new.ts"]);
    expect(listed.deleted).toEqual(["src/gone.ts"]);
    expect([...listed.untracked]).toEqual(["src/new.ts"]);
  });

  it("reads assume-unchanged (lowercase) and skip-worktree (S) entries from disk, since git reports no change to them", () => {
    const listed = parseListedTree(
      z(`h 100644 ${OID} 0\tsrc/a.ts`, `S 100644 ${OID} 0\tsrc/b.ts`),
    );
    expect(listed.unwatched.sort()).toEqual(["src/a.ts", "src/b.ts"]);
    expect(listed.changed.sort()).toEqual(["src/a.ts", "src/b.ts"]);
    expect(listed.entries.size).toBe(2);
  });

  it("keeps each stage of an unmerged path", () => {
    const listed = parseListedTree(
      z(`M 100644 ${OID} 1\tf`, `M 100644 ${OID} 2\tf`, `C 100644 ${OID} 1\tf`),
    );
    expect([...listed.entries.keys()]).toEqual(["f\u00001", "f\u00002"]);
    expect(listed.changed).toEqual(["f"]);
  });

  it("reads the short listing a tick uses (no -s -c): tags and paths only", () => {
    const listed = parseListedTree(
      z("? u.ts", "r a.ts", "c a.ts", "R d.ts", "C d.ts", "C m.ts"),
    );
    expect(listed.entries.size).toBe(0);
    expect(listed.deleted.sort()).toEqual(["a.ts", "d.ts"]);
    expect(listed.changed.sort()).toEqual(["m.ts", "u.ts"]);
  });

  it("leaves out the plan, state.md and the runtime folder", () => {
    const listed = parseListedTree(
      z(
        "? plan/notes.md",
        "? .claude/playbook/records/x.json",
        `H 100644 ${OID} 0\tstate.md`,
        `C 100644 ${OID} 0\tstate.md`,
      ),
    );
    expect(listed.entries.size).toBe(0);
    expect(listed.changed).toEqual([]);
  });
});

describe("the delta laid over the index", () => {
  it("sets, drops or keeps entries, and its text does not depend on order", () => {
    const delta = new Map<string, PathState>([
      ["b", { mode: "100755", oid: "1" }],
      ["a", "absent"],
      ["c", "index"],
    ]);
    const entries = applyDelta(
      new Map([
        ["a", { path: "a", mode: "100644", oid: "0" }],
        ["c", { path: "c", mode: "100644", oid: "2" }],
      ]),
      delta,
    );
    expect([...entries.values()]).toEqual([
      { path: "c", mode: "100644", oid: "2" },
      { path: "b", mode: "100755", oid: "1" },
    ]);
    expect(deltaText(delta)).toBe(deltaText(new Map([...delta].reverse())));
    expect(deltaText(delta)).toBe("absent a\u0000100755 1 b\u0000index c");
  });
});
