import { execFileSync } from "node:child_process";
import {
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { relative } from "node:path";
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

const OWN_INDEX = ".claude/playbook/cache/tree-index";
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

describe("what the fingerprint reads, and what it keeps", () => {
  it("in a SHA-256 repository, git reads playbook's own index and the quick answer agrees with a full reading", () => {
    const p = createTempProject({ "src/a.js": GOOD });
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: p.dir, encoding: "utf8" });
    git("init", "-q", "--object-format=sha256");
    git("add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "i");
    settleSecond(p.path("src/a.js"));
    const proven = readWorkingTree(p.dir).fingerprint;
    expect(treeFingerprint(p.dir)).toBe(proven);
    const own = execFileSync("git", ["ls-files", "-s"], {
      cwd: p.dir,
      encoding: "utf8",
      env: { ...process.env, GIT_INDEX_FILE: p.path(OWN_INDEX) },
    });
    expect(own).toMatch(/^100644 [0-9a-f]{64} 0\tsrc\/a\.js$/m);
    p.write("src/a.js", BROKEN);
    const broken = treeFingerprint(p.dir);
    expect(broken).not.toBe(proven);
    expect(readWorkingTree(p.dir).fingerprint).toBe(broken);
  });

  it("a commit that changes no file is answered from the basis, which then names the new index; new paths are read", () => {
    const p = repo();
    p.write("src/new.js", "new\n");
    p.git("add", "-A");
    settleSecond(p.path("src/new.js"));
    readWorkingTree(p.dir);
    const basisFile = p.path(".claude/playbook/cache/.tree-basis.json");
    const basis = JSON.parse(readFileSync(basisFile, "utf8")) as object;
    writeFileSync(
      basisFile,
      JSON.stringify({ ...basis, fingerprint: "sha256:kept" }),
    );
    const before = statSync(p.path(OWN_INDEX), { bigint: true });
    p.git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "w");

    // Answered without a full reading, and playbook's own index was not written again.
    expect(treeFingerprint(p.dir)).toBe("sha256:kept");
    expect(treeFingerprint(p.dir)).toBe("sha256:kept");
    const after = statSync(p.path(OWN_INDEX), { bigint: true });
    expect([after.ino, after.ctimeNs]).toEqual([before.ino, before.ctimeNs]);
    // Taken out of the index, the same file is another path set: read in full.
    p.git("rm", "-q", "--cached", "src/new.js");
    expect(treeFingerprint(p.dir)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("an ignored file added to the index with `git add -f` is part of the tree from then on", () => {
    const p = repo();
    p.write(".gitignore", "*.log\n");
    p.write("debug.log", "log\n");
    p.git("add", ".gitignore");
    const before = readWorkingTree(p.dir).fingerprint;
    expect(treeFingerprint(p.dir)).toBe(before);
    p.git("add", "-f", "debug.log");

    const after = treeFingerprint(p.dir);
    expect(after).not.toBe(before);
    expect(readWorkingTree(p.dir).fingerprint).toBe(after);
  });

  it("an untracked nested repository is one path git lists, the same way each time", () => {
    const p = repo();
    execFileSync("git", ["init", "-q", p.path("vendor/lib")]);
    p.write("vendor/lib/index.js", "export const lib = 1;\n");
    const full = readWorkingTree(p.dir).fingerprint;
    expect(treeFingerprint(p.dir)).toBe(full);
    expect(treeFingerprint(p.dir)).toBe(full);
  });

  it("a file name that is not UTF-8 makes the tree unreadable rather than leaving the file out", () => {
    const p = repo();
    writeFileSync(
      Buffer.concat([
        Buffer.from(`${p.dir}/src/`),
        Buffer.from([0xff, 0x2e, 0x6a, 0x73]),
      ]),
      "export const hidden = 1;\n",
    );
    expect(() => readWorkingTree(p.dir)).toThrow(/not UTF-8/);
    expect(() => treeFingerprint(p.dir)).toThrow(/not UTF-8/);
  });

  it("a pipe where a tracked file was is read as no file, without waiting on it", () => {
    const p = repo();
    const proven = readWorkingTree(p.dir).fingerprint;
    rmSync(p.path("src/multiply.js"));
    execFileSync("mkfifo", [p.path("src/multiply.js")]);

    const without = readWorkingTree(p.dir).fingerprint;
    expect(without).not.toBe(proven);
    expect(treeFingerprint(p.dir)).toBe(without);
  });

  it("index entries naming a file outside the project, or one through a linked folder, read nothing there", () => {
    const p = repo();
    const outside = createTempProject({ "secret.txt": "secret\n" });
    symlinkSync(outside.dir, p.path("linked"));
    const rel = relative(p.dir, outside.path("secret.txt"));
    forgeIndex(p.dir, { path: rel, blob: "secret\n" });
    forgeIndex(p.dir, { path: "linked/secret.txt", blob: "secret\n" });
    expect(p.git("ls-files")).toContain("linked/secret.txt");
    const before = readWorkingTree(p.dir).fingerprint;

    outside.write("secret.txt", "another secret\n");

    expect(readWorkingTree(p.dir).fingerprint).toBe(before);
    expect(treeFingerprint(p.dir)).toBe(before);
  });
});
