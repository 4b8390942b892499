import { describe, expect, it } from "vitest";
import {
  isRestorablePath,
  toNextSnapshotId,
  parseManifest,
  resolveSnapshotId,
  hasSameFiles,
  toSnapshotId,
  type SnapshotFile,
  type SnapshotManifest,
} from "../../../../src/core/snapshot/manifest.ts";
import {
  planRestore,
  type CurrentFile,
} from "../../../../src/core/snapshot/plan-restore.ts";
import { planRetention } from "../../../../src/core/snapshot/plan-retention.ts";
import { parseUncommittedListing } from "../../../../src/core/snapshot/uncommitted-listing.ts";

const blob = (c: string) => c.repeat(64);

function manifest(
  id: string,
  files: SnapshotFile[],
  extra: Partial<SnapshotManifest> = {},
): SnapshotManifest {
  return {
    version: 1,
    id,
    at: "2026-11-27T10:00:00.000Z",
    session: "s",
    command: "npm test",
    head: null,
    files,
    ...extra,
  };
}

describe("parseUncommittedListing", () => {
  it.each([
    [
      "modified, untracked and deleted",
      "C src/a.ts\0? notes.md\0R gone.ts\0C gone.ts\0",
      "",
      { present: ["notes.md", "src/a.ts"], deleted: ["gone.ts"] },
    ],
    [
      "staged only (the working tree matches the index)",
      "",
      "staged.ts\0src/a.ts\0",
      { present: ["src/a.ts", "staged.ts"], deleted: [] },
    ],
    [
      "the runtime folder, the store among it, is left out",
      "? .claude/playbook/snapshots/cache.json\0? .claude/settings.local.json\0",
      ".claude/playbook/records/x.json\0",
      { present: [".claude/settings.local.json"], deleted: [] },
    ],
    [
      "an assume-unchanged tag in lowercase",
      "c src/a.ts\0",
      "",
      { present: ["src/a.ts"], deleted: [] },
    ],
    ["nothing", "", "", { present: [], deleted: [] }],
  ])("%s", (_name, worktree, staged, expected) => {
    expect(parseUncommittedListing(worktree, staged)).toEqual(expected);
  });
});

describe("isRestorablePath", () => {
  it.each([
    ["src/a.ts", true],
    [".env.local", true],
    ["", false],
    ["/etc/passwd", false],
    ["../outside", false],
    ["src/../../x", false],
    ["a//b", false],
    ["./a", false],
    [".git/config", false],
    [".GIT/hooks/pre-commit", false],
    ["sub/.git/hooks/pre-commit", false],
    [".github/workflows/ci.yml", true],
    [".claude/playbook/records/x.json", false],
    ["a\\b", false],
  ])("%s -> %s", (path, expected) => {
    expect(isRestorablePath(path)).toBe(expected);
  });
});

describe("manifests", () => {
  const good = manifest("20261127-100000-abcd", [
    { path: "a.ts", blob: blob("a"), mode: "100644", size: 3 },
    { path: "gone.ts", deleted: true },
    { path: "big.bin", skipped: "over the cap", size: 9 },
  ]);

  it("reads back what was written", () => {
    expect(parseManifest(JSON.stringify(good))).toEqual(good);
  });

  it.each([
    ["not JSON", "{"],
    ["another version", JSON.stringify({ ...good, version: 2 })],
    ["a bad id", JSON.stringify({ ...good, id: "../x" })],
    [
      "a path outside the project",
      JSON.stringify({
        ...good,
        files: [{ path: "../x", blob: blob("a"), mode: "100644", size: 1 }],
      }),
    ],
    [
      "a blob name that is no hash",
      JSON.stringify({
        ...good,
        files: [{ path: "a", blob: "../../x", mode: "100644", size: 1 }],
      }),
    ],
    [
      "an unknown mode",
      JSON.stringify({
        ...good,
        files: [{ path: "a", blob: blob("a"), mode: "040000", size: 1 }],
      }),
    ],
  ])("refuses %s", (_name, text) => {
    expect(parseManifest(text)).toBeNull();
  });

  it("compares content and state, not time or command", () => {
    const other = manifest("20261127-110000-0000", good.files, {
      command: "make",
    });
    expect(hasSameFiles(good.files, other.files)).toBe(true);
    expect(
      hasSameFiles(good.files, [
        { path: "a.ts", blob: blob("b"), mode: "100644", size: 3 },
        ...good.files.slice(1),
      ]),
    ).toBe(false);
    expect(
      hasSameFiles(good.files, [
        { path: "a.ts", blob: blob("a"), mode: "100755", size: 3 },
        ...good.files.slice(1),
      ]),
    ).toBe(false);
  });
});

describe("snapshot ids", () => {
  const at = new Date("2026-11-27T10:20:30.456Z");
  it("sort by time", () => {
    expect(toSnapshotId(at, "abcd")).toBe("20261127-102030-abcd");
  });
  it.each([
    ["no snapshot yet", undefined, "20261127-102030-0001"],
    ["an older newest", "20261127-102029-ffff", "20261127-102030-0001"],
    ["the same second", "20261127-102030-ffff", "20261127-102031-0001"],
    ["a clock that went back", "20261127-120000-0000", "20261127-120001-0001"],
  ])("after %s", (_name, newest, expected) => {
    expect(toNextSnapshotId(at, "0001", newest)).toBe(expected);
  });
  it.each([
    ["an exact id", "20261127-100000-aaaa", { id: "20261127-100000-aaaa" }],
    ["a unique start", "20261127-11", { id: "20261127-110000-bbbb" }],
    [
      "an ambiguous start",
      "20261127",
      {
        problem: "ambiguous",
        matches: ["20261127-100000-aaaa", "20261127-110000-bbbb"],
      },
    ],
    ["an unknown id", "x", { problem: "unknown", matches: [] }],
    ["nothing", "", { problem: "unknown", matches: [] }],
  ])("resolve %s", (_name, wanted, expected) => {
    expect(
      resolveSnapshotId(
        ["20261127-100000-aaaa", "20261127-110000-bbbb"],
        wanted,
      ),
    ).toEqual(expected);
  });
});

describe("planRetention", () => {
  const snap = (id: string, blobs: [string, number][]) =>
    manifest(
      id,
      blobs.map(([b, size], i) => ({
        path: `f${i}`,
        blob: blob(b),
        mode: "100644" as const,
        size,
      })),
    );
  const three = [
    snap("20261127-100000-0000", [["a", 100]]),
    snap("20261127-110000-0000", [
      ["a", 100],
      ["b", 100],
    ]),
    snap("20261127-120000-0000", [["c", 100]]),
  ];

  it("keeps everything within the limits", () => {
    const plan = planRetention(three, { keep: 10, maxStoreBytes: 1000 });
    expect(plan.remove).toEqual([]);
    expect(plan.bytes).toBe(300);
  });
  it("removes the oldest beyond the count", () => {
    const plan = planRetention(three, { keep: 2, maxStoreBytes: 1000 });
    expect(plan.remove).toEqual(["20261127-100000-0000"]);
    // The removed snapshot's blob `a` is still held by a newer one.
    expect([...plan.keepBlobs].sort()).toEqual(
      [blob("a"), blob("b"), blob("c")].sort(),
    );
  });
  it("counts shared content once against the byte cap", () => {
    const plan = planRetention(three, { keep: 10, maxStoreBytes: 300 });
    expect(plan.remove).toEqual([]);
  });
  it("removes the oldest until the rest fits", () => {
    const plan = planRetention(three, { keep: 10, maxStoreBytes: 150 });
    expect(plan.remove).toEqual([
      "20261127-100000-0000",
      "20261127-110000-0000",
    ]);
    expect([...plan.keepBlobs]).toEqual([blob("c")]);
  });
  it("keeps the newest whatever its size", () => {
    const plan = planRetention(three, { keep: 0, maxStoreBytes: 0 });
    expect(plan.remove).toHaveLength(2);
    expect(plan.keepBlobs.has(blob("c"))).toBe(true);
  });
});

describe("planRestore", () => {
  const m = manifest("20261127-100000-0000", [
    { path: "same.ts", blob: blob("a"), mode: "100644", size: 1 },
    { path: "changed.ts", blob: blob("b"), mode: "100644", size: 1 },
    { path: "gone-now.ts", blob: blob("c"), mode: "100644", size: 1 },
    { path: "mode.sh", blob: blob("d"), mode: "100755", size: 1 },
    { path: "was-deleted.ts", deleted: true },
    { path: "still-deleted.ts", deleted: true },
    { path: "big.bin", skipped: "over the cap", size: 9 },
    { path: "state.md", blob: blob("e"), mode: "100644", size: 1 },
    { path: "plan/playbook-x.md", blob: blob("f"), mode: "100644", size: 1 },
    { path: "now-a-folder", blob: blob("g"), mode: "100644", size: 1 },
  ]);
  const now: Record<string, CurrentFile> = {
    "same.ts": { kind: "file", mode: "100644", blob: blob("a") },
    "changed.ts": { kind: "file", mode: "100644", blob: null },
    "gone-now.ts": { kind: "missing" },
    "mode.sh": { kind: "file", mode: "100644", blob: blob("d") },
    "was-deleted.ts": { kind: "file", mode: "100644", blob: blob("z") },
    "still-deleted.ts": { kind: "missing" },
    "state.md": { kind: "file", mode: "100644", blob: blob("y") },
    "plan/playbook-x.md": { kind: "file", mode: "100644", blob: blob("f") },
    "now-a-folder": { kind: "folder" },
  };
  const plan = planRestore(m, (path) => now[path] ?? { kind: "missing" });

  it("writes back what differs or is missing, with its mode", () => {
    expect(plan.restore.map((r) => [r.path, r.now, r.mode])).toEqual([
      ["changed.ts", "different", "100644"],
      ["gone-now.ts", "missing", "100644"],
      ["mode.sh", "different", "100755"],
    ]);
  });
  it("counts what is already as it was", () => {
    expect(plan.same).toEqual([
      "same.ts",
      "still-deleted.ts",
      "plan/playbook-x.md",
    ]);
  });
  it("deletes nothing, and leaves playbook's documents, skipped files and folders alone", () => {
    expect(plan.left.map((l) => l.path)).toEqual([
      "was-deleted.ts",
      "big.bin",
      "state.md",
      "now-a-folder",
    ]);
    expect(plan.left[2]?.why).toContain(
      `.claude/playbook/snapshots/blobs/ee/${"e".repeat(62)}`,
    );
  });
});
