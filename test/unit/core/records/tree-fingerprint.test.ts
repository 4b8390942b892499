import { describe, expect, it } from "vitest";
import {
  deltaText,
  parseChangedPaths,
  parseTreePaths,
  type PathState,
} from "../../../../src/core/records/tree-fingerprint.ts";

const z = (...lines: string[]) => lines.map((l) => `${l}\0`).join("");
const OID = "78981922613b2afb6025042ff6bd878ac1994e85";
const SUB = "1111111111111111111111111111111111111111";

describe("parseTreePaths reads git ls-files -z -t -s -c -o", () => {
  it("names each path once, with the index's mode, untracked ones as null, and the gitlinks' commits", () => {
    const { paths, gitlinks } = parseTreePaths(
      z(
        `H 100644 ${OID} 0\tsrc/a.ts`,
        `S 100755 ${OID} 0\tsrc/sparse.sh`,
        `M 100644 ${OID} 1\tf`,
        `M 100644 ${OID} 2\tf`,
        `M 100644 ${OID} 3\tf`,
        `H 160000 ${SUB} 0\tvendor/lib`,
        "? src/new.ts",
        "? nested/",
      ),
    );
    expect([...paths.keys()]).toEqual([
      "src/a.ts",
      "src/sparse.sh",
      "f",
      "vendor/lib",
      "src/new.ts",
      "nested/",
    ]);
    expect(paths.get("src/a.ts")).toBe("100644");
    expect(paths.get("src/sparse.sh")).toBe("100755");
    expect(paths.get("src/new.ts")).toBeNull();
    expect(gitlinks).toEqual(new Map([["vendor/lib", SUB]]));
  });

  it("leaves out the plan, state.md and the runtime folder", () => {
    const { paths } = parseTreePaths(
      z(
        "? plan/notes.md",
        "? .claude/playbook/records/x.json",
        `H 100644 ${OID} 0\tstate.md`,
        `H 100644 ${OID} 0\tplan/playbook-x.md`,
      ),
    );
    expect(paths.size).toBe(0);
  });
});

describe("parseChangedPaths reads the listing against playbook's own index (-z -v -t -m -o -d)", () => {
  it("names each listed path once, and which were untracked", () => {
    const { paths, untracked } = parseChangedPaths(
      z("C a.ts", "R d.ts", "C d.ts", "? u.ts", "? nested/", "C state.md"),
    );
    expect(paths.sort()).toEqual(["a.ts", "d.ts", "nested/", "u.ts"]);
    expect([...untracked].sort()).toEqual(["nested/", "u.ts"]);
  });
});

describe("deltaText", () => {
  it("is one line per path, in path order whatever the map's order", () => {
    const delta = new Map<string, PathState>([
      ["b", { mode: "100755", oid: "1" }],
      ["a", "none"],
    ]);
    expect(deltaText(delta)).toBe(deltaText(new Map([...delta].reverse())));
    expect(deltaText(delta)).toBe("none a\u0000100755 1 b");
  });
});
