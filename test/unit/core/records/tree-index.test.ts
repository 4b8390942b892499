import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  isProjectPath,
  parseTreeIndex,
  toTreeIndex,
  type TreeIndexEntry,
} from "../../../../src/core/records/tree-index.ts";

const sha1 = (bytes: Uint8Array) =>
  createHash("sha1").update(bytes).digest() as Uint8Array;
const OID = "78981922613b2afb6025042ff6bd878ac1994e85";
const STAT = {
  ctimeS: 1_800_000_000,
  ctimeN: 5,
  mtimeS: 1_799_999_999,
  mtimeN: 6,
  dev: 7,
  ino: 8,
  uid: 9,
  gid: 10,
  size: 11,
};

describe("playbook's own index", () => {
  const entries: TreeIndexEntry[] = [
    { path: "src/b.ts", mode: "100755", oid: OID, stat: STAT },
    { path: "src/a.ts", mode: "100644", oid: OID, stat: STAT },
    { path: "gone.ts", mode: "100644", oid: "", stat: null },
    { path: "vendor/lib", mode: "160000", oid: OID, stat: null },
    { path: "é.ts", mode: "120000", oid: OID, stat: STAT },
  ];
  const bytes = toTreeIndex(entries, 20, sha1);

  it("reads back the files it holds by their stat, with their real ids; not the paths listed always", () => {
    const parsed = parseTreeIndex(bytes, 20);
    const files = parsed?.files;
    expect([...(files?.keys() ?? [])].sort()).toEqual([
      "src/a.ts",
      "src/b.ts",
      "é.ts",
    ]);
    const b = files?.get("src/b.ts");
    expect([b?.mode, b?.oid, b?.stat]).toEqual(["100755", OID, STAT]);
    expect(files?.get("é.ts")?.mode).toBe("120000");
    expect(parsed?.always).toEqual(
      new Map([
        ["gone.ts", ""],
        ["vendor/lib", OID],
      ]),
    );
  });

  it("is a version 2 index git would read: sorted by bytes, entries padded to 8, the checksum last", () => {
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("DIRC");
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(view.getUint32(4)).toBe(2);
    expect(view.getUint32(8)).toBe(5);
    expect(
      Buffer.from(bytes.subarray(bytes.length - 20)).equals(
        Buffer.from(sha1(bytes.subarray(0, bytes.length - 20))),
      ),
    ).toBe(true);
    // The first entry is the smallest name by bytes: "gone.ts" < "src/..." < "vendor/lib" < "é.ts" (0xc3).
    expect(new TextDecoder().decode(bytes.subarray(12 + 62, 12 + 62 + 7))).toBe(
      "gone.ts",
    );
  });

  it("stores a file's id with its last bit flipped, so git's own content comparison never matches it", () => {
    // The second entry (src/a.ts) follows "gone.ts", whose entry takes (62 + 7 + 8) & ~7 = 72 bytes.
    const at = 12 + 72 + 40;
    const stored = Buffer.from(bytes.subarray(at, at + 20)).toString("hex");
    expect(stored.slice(0, 38)).toBe(OID.slice(0, 38));
    expect(stored).not.toBe(OID);
  });

  it("bytes that are not such an index read as nothing", () => {
    expect(parseTreeIndex(new Uint8Array(10), 20)).toBeNull();
    expect(parseTreeIndex(bytes.subarray(0, 60), 20)).toBeNull();
    expect(parseTreeIndex(bytes, 32)).toBeNull();
  });
});

describe("isProjectPath", () => {
  it.each([
    ["src/a.ts", true],
    ["a", true],
    [".gitignore", true],
    ["../outside", false],
    ["src/../../x", false],
    ["/etc/passwd", false],
    [".git/config", false],
    ["sub/.GIT/config", false],
    ["nested/", false],
    ["a//b", false],
    ["./a", false],
  ])("%s -> %s", (path, expected) => {
    expect(isProjectPath(path)).toBe(expected);
  });
});
