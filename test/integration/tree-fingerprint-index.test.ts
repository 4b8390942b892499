import { execFileSync } from "node:child_process";
import { rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  readWorkingTree,
  treeFingerprint,
} from "../../src/adapters/tree-fingerprint.ts";
import { forgeIndex } from "../helpers/forge-index.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

const GOOD = "export const multiply = (a, b) => a * b;\n";
const BROKEN = "export const multiply = (a, b) => a + b;\n";

type Repo = TempProject & { git: (...args: string[]) => string };

function repo(): Repo {
  const p = createTempProject({
    "src/multiply.js": GOOD,
    "src/other.js": "export const other = 1;\n",
  });
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: p.dir, encoding: "utf8" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "i");
  return { ...p, git };
}

describe("the fingerprint takes nothing from git's index but paths (the index is the agent's to write)", () => {
  it("a broken file whose index entry was rewritten to the proven blob id and the broken file's stat changes the fingerprint", () => {
    const p = repo();
    const proven = readWorkingTree(p.dir).fingerprint;
    expect(treeFingerprint(p.dir)).toBe(proven);

    p.write("src/multiply.js", BROKEN);
    forgeIndex(p.dir, { path: "src/multiply.js", blob: GOOD });

    // The forgery works on git itself: it takes the broken file for the committed one.
    expect(p.git("ls-files", "-m", "-d")).toBe("");
    expect(p.git("status", "--porcelain", "--untracked-files=no")).toBe("");
    expect(readWorkingTree(p.dir).fingerprint).not.toBe(proven);
    expect(treeFingerprint(p.dir)).not.toBe(proven);
  });

  it("the same forgery after a reading that left a basis: the quick answer sees the broken file too", () => {
    const p = repo();
    const proven = readWorkingTree(p.dir).fingerprint;
    p.write("src/multiply.js", BROKEN);
    const broken = treeFingerprint(p.dir);
    expect(broken).not.toBe(proven);

    forgeIndex(p.dir, { path: "src/multiply.js", blob: GOOD });
    expect(treeFingerprint(p.dir)).toBe(broken);
    expect(readWorkingTree(p.dir).fingerprint).toBe(broken);
    // And once the file is good again, the proven tree is back whatever the index says.
    p.write("src/multiply.js", GOOD);
    expect(treeFingerprint(p.dir)).toBe(proven);
  });

  it.each([
    [
      "an entry forged as a gitlink (mode 160000) before the proof, the file broken after",
      (p: Repo) =>
        forgeIndex(p.dir, {
          path: "src/multiply.js",
          blob: GOOD,
          mode: "160000",
        }),
      (p: Repo) => p.write("src/multiply.js", BROKEN),
    ],
    [
      "an entry forged assume-valid before the proof, the file broken after",
      (p: Repo) =>
        forgeIndex(p.dir, {
          path: "src/multiply.js",
          blob: GOOD,
          assumeValid: true,
        }),
      (p: Repo) => p.write("src/multiply.js", BROKEN),
    ],
    [
      "an entry forged assume-valid after the file was broken",
      () => {},
      (p: Repo) => {
        p.write("src/multiply.js", BROKEN);
        forgeIndex(p.dir, {
          path: "src/multiply.js",
          blob: GOOD,
          assumeValid: true,
        });
      },
    ],
  ])("%s: the fingerprint changes", (_name, before, after) => {
    const p = repo();
    before(p);
    const proven = readWorkingTree(p.dir).fingerprint;
    expect(treeFingerprint(p.dir)).toBe(proven);

    after(p);

    expect(treeFingerprint(p.dir)).not.toBe(proven);
    expect(readWorkingTree(p.dir).fingerprint).not.toBe(proven);
  });

  it("a file marked skip-worktree and then deleted is gone from the fingerprint, whatever its index entry holds", () => {
    const p = repo();
    const proven = readWorkingTree(p.dir).fingerprint;
    p.git("update-index", "--skip-worktree", "src/multiply.js");
    rmSync(p.path("src/multiply.js"));

    expect(p.git("status", "--porcelain", "--untracked-files=no")).toBe("");
    expect(treeFingerprint(p.dir)).not.toBe(proven);
    expect(readWorkingTree(p.dir).fingerprint).not.toBe(proven);
  });

  it("a file taken out of the index and ignored is out of the proof: the fingerprint differs from the one that covered it", () => {
    const p = repo();
    const proven = readWorkingTree(p.dir).fingerprint;
    p.git("rm", "-q", "--cached", "src/multiply.js");
    writeFileSync(p.path(".git/info/exclude"), "src/multiply.js\n");
    p.write("src/multiply.js", BROKEN);

    expect(treeFingerprint(p.dir)).not.toBe(proven);
    expect(readWorkingTree(p.dir).fingerprint).not.toBe(proven);
  });

  it("git's own content comparison (which applies the repository's conversions) never takes a changed file for the proven one", () => {
    const p = repo();
    // In the working tree the file is Shift-JIS, which git converts to UTF-8 when it compares content: the proven
    // bytes are UTF-8 "Α", and the same letter in Shift-JIS has the same size and converts to exactly those bytes.
    p.write(".gitattributes", "*.txt working-tree-encoding=SHIFT-JIS\n");
    p.git("add", ".gitattributes");
    p.git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a");
    writeFileSync(p.path("greek.txt"), Buffer.from([0xce, 0x91, 0x0a]));
    settleSecond(p.path("greek.txt"));
    const proven = readWorkingTree(p.dir).fingerprint;
    expect(treeFingerprint(p.dir)).toBe(proven);

    const { mtime } = statSync(p.path("greek.txt"));
    writeFileSync(p.path("greek.txt"), Buffer.from([0x83, 0x9f, 0x0a]));
    utimesSync(p.path("greek.txt"), mtime, mtime);

    expect(treeFingerprint(p.dir)).not.toBe(proven);
    expect(readWorkingTree(p.dir).fingerprint).not.toBe(proven);
  });
});

/** Waits until the file system's clock is in a later second than `file` was written in. */
function settleSecond(file: string): void {
  const second = statSync(file, { bigint: true }).ctimeNs / 1_000_000_000n;
  const probe = `${file}.settle`;
  for (;;) {
    writeFileSync(probe, "");
    const now = statSync(probe, { bigint: true }).ctimeNs / 1_000_000_000n;
    rmSync(probe);
    if (now > second) return;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
}
