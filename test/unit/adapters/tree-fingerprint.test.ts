import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { describe, expect, it } from "vitest";
import {
  readWorkingTree,
  treeFingerprint,
} from "../../../src/adapters/tree-fingerprint.ts";
import { join } from "node:path";
import { readTreeBasis } from "../../../src/adapters/tree-basis-store.ts";
import {
  parseTreeIndex,
  toTreeIndex,
} from "../../../src/core/records/tree-index.ts";
import {
  createTempProject,
  type TempProject,
} from "../../helpers/temp-project.ts";

function repo(): TempProject & { git: (...args: string[]) => string } {
  const project = createTempProject({
    "src/a.js": "a\n",
    "src/b.js": "b\n",
    "src/c.js": "c\n",
    "README.md": "readme\n",
  });
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: project.dir, encoding: "utf8" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "i");
  return { ...project, git };
}

/** The file system's clock now, in nanoseconds: the ctime of a probe file written for it. */
function fileSystemNow(project: TempProject): bigint {
  const probe = project.path(".settle-probe");
  writeFileSync(probe, "");
  const { ctimeNs } = statSync(probe, { bigint: true });
  rmSync(probe);
  return ctimeNs;
}

function secondOf(ns: bigint): bigint {
  return ns / 1_000_000_000n;
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The second of the file system's clock in which `path` was last changed. */
function changedInSecond(project: TempProject, path: string): bigint {
  return secondOf(statSync(project.path(path), { bigint: true }).ctimeNs);
}

/**
 * Waits until the file system's clock has moved past `path`'s last write, so a reading made now sees the file as
 * older than itself (a write in the same tick of that clock is never taken from the basis).
 */
function settle(project: TempProject, path: string): void {
  const { ctimeNs } = statSync(project.path(path), { bigint: true });
  while (fileSystemNow(project) <= ctimeNs);
}

/**
 * Runs `write` then `read` with the files and the reading in one second of the file system's clock, as on a quick
 * machine: a reading in a later second takes the files from playbook's own index instead. On a loaded machine the
 * second can pass between them; that run is made again, a few times at most.
 */
function inOneSecond(
  project: TempProject,
  paths: string[],
  write: () => void,
  read: () => void,
): void {
  for (let attempt = 0; ; attempt++) {
    // Start just after the clock enters a new second, so the whole second is there to use.
    const start = secondOf(fileSystemNow(project));
    while (secondOf(fileSystemNow(project)) === start) pause(5);
    write();
    for (const path of paths) settle(project, path);
    read();
    const clock = changedInSecond(
      project,
      ".claude/playbook/cache/.tree-clock",
    );
    if (paths.every((path) => changedInSecond(project, path) === clock)) return;
    if (attempt === 4)
      throw new Error("the file system's clock passed a second on every try");
  }
}

/** Waits until the file system's clock is in a later second than every file of the project was written in. */
function settleSecond(project: TempProject): void {
  const newest = (dir: string): bigint => {
    let max = 0n;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === ".git") continue;
      const path = join(dir, entry.name);
      const { ctimeNs } = lstatSync(path, { bigint: true });
      if (ctimeNs > max) max = ctimeNs;
      if (entry.isDirectory()) {
        const inner = newest(path);
        if (inner > max) max = inner;
      }
    }
    return max;
  };
  const second = secondOf(newest(project.dir));
  while (secondOf(fileSystemNow(project)) <= second) pause(20);
}

function ownIndex(project: TempProject): string {
  return project.path(".claude/playbook/cache/tree-index");
}

/** What git lists against playbook's own index: the paths a tick reads. */
function listedAgainstOwnIndex(project: TempProject): string[] {
  return execFileSync(
    "git",
    ["ls-files", "-z", "-m", "-d", "-o", "--exclude-standard"],
    {
      cwd: project.dir,
      encoding: "utf8",
      env: { ...process.env, GIT_INDEX_FILE: ownIndex(project) },
    },
  )
    .split("\0")
    .filter((path) => path !== "" && !path.startsWith(".claude/"))
    .filter((path, i, all) => all.indexOf(path) === i)
    .sort();
}

/** Rewrites playbook's own index so that `path` keeps its stat but names another blob. */
function lieInOwnIndex(project: TempProject, path: string): void {
  const parsed = parseTreeIndex(readFileSync(ownIndex(project)), 20);
  expect(parsed?.files.get(path)).toBeDefined();
  writeFileSync(
    ownIndex(project),
    toTreeIndex(
      [
        ...[...(parsed?.files ?? [])].map(([p, f]) => ({
          path: p,
          mode: f.mode,
          oid: p === path ? "f".repeat(40) : f.oid,
          stat: f.stat,
        })),
        ...[...(parsed?.always ?? [])].map(([p, oid]) => ({
          path: p,
          mode: oid === "" ? "100644" : "160000",
          oid,
          stat: null,
        })),
      ],
      20,
      (bytes) => createHash("sha1").update(bytes).digest(),
    ),
  );
}

/** The fingerprint from the basis, checked against a reading of every file (which then becomes the basis). */
function agree(project: TempProject): string | null {
  const quick = treeFingerprint(project.dir);
  const full = readWorkingTree(project.dir).fingerprint;
  expect(quick).toBe(full);
  return full;
}

describe("the tree fingerprint read from the basis is the one a full reading gives", () => {
  it("through edits, reverts, new, deleted, executable and linked files, with the index unchanged", () => {
    const p = repo();
    const seen = new Set<string | null>([agree(p)]);
    expect(readTreeBasis(p.dir)).not.toBeNull();
    const steps: (() => void)[] = [
      () => p.write("src/a.js", "changed\n"),
      () => p.write("src/a.js", "a\n"),
      () => p.write("src/new.js", "new\n"),
      () => unlinkSync(p.path("src/b.js")),
      () => chmodSync(p.path("src/c.js"), 0o755),
      () => symlinkSync("a.js", p.path("src/link.js")),
      () => p.write("plan/notes.md", "outside the fingerprint\n"),
    ];
    const prints: (string | null)[] = [];
    for (const step of steps) {
      step();
      prints.push(agree(p));
    }
    // Reverting a.js gives back the first tree; the plan note changes nothing; every other step is a new tree.
    expect(prints[1]).toBe([...seen][0]);
    expect(prints[6]).toBe(prints[5]);
    expect(new Set(prints.slice(2, 6)).size).toBe(4);
  });

  it("a change with the size and mtime put back is still a change", () => {
    const p = repo();
    const before = agree(p);
    const { mtime } = statSync(p.path("src/a.js"));
    p.write("src/a.js", "z\n");
    utimesSync(p.path("src/a.js"), mtime, mtime);
    expect(treeFingerprint(p.dir)).not.toBe(before);
  });

  it("files git is told not to look at (assume-unchanged, skip-worktree) are read from disk", () => {
    const p = repo();
    p.git("update-index", "--assume-unchanged", "src/a.js");
    p.git("update-index", "--skip-worktree", "src/b.js");
    const before = agree(p);
    p.write("src/a.js", "broken\n");
    const afterA = agree(p);
    expect(afterA).not.toBe(before);
    p.write("src/b.js", "broken\n");
    expect(agree(p)).not.toBe(afterA);
  });

  it("a staged or committed change of the same content keeps the fingerprint", () => {
    const p = repo();
    p.write("src/a.js", "work\n");
    const work = agree(p);
    p.git("add", "-A");
    expect(agree(p)).toBe(work);
    p.git(
      "-c",
      "user.name=t",
      "-c",
      "user.email=t@t",
      "commit",
      "-q",
      "-m",
      "w",
    );
    expect(agree(p)).toBe(work);
  });

  it("answers from the basis while the index and the changed files read the same", () => {
    const p = repo();
    p.write("src/new.js", "new\n");
    agree(p);
    const file = p.path(".claude/playbook/cache/.tree-basis.json");
    const basis = JSON.parse(readFileSync(file, "utf8")) as object;
    writeFileSync(
      file,
      JSON.stringify({ ...basis, fingerprint: "sha256:kept" }),
    );
    expect(treeFingerprint(p.dir)).toBe("sha256:kept");
    p.write("src/new.js", "other\n");
    expect(treeFingerprint(p.dir)).not.toBe("sha256:kept");
  });

  it("takes a changed file from the basis while its stat is the same, and reads it again once it is not", () => {
    const p = repo();
    inOneSecond(
      p,
      ["src/a.js"],
      () => p.write("src/a.js", "work\n"),
      () => agree(p),
    );
    const file = p.path(".claude/playbook/cache/.tree-basis.json");
    const basis = JSON.parse(readFileSync(file, "utf8")) as {
      delta: string;
      known: Record<string, { stat: string; mode: string; oid: string }>;
    };
    const known = basis.known["src/a.js"];
    expect(known).toBeDefined();
    // A basis that lies about the file's blob is believed only while the file's stat is the one it names: that
    // shows the file was not read again.
    const fake = "f".repeat(40);
    writeFileSync(
      file,
      JSON.stringify({
        ...basis,
        delta: basis.delta.replace(known!.oid, fake),
        fingerprint: "sha256:kept",
        known: { "src/a.js": { ...known, oid: fake } },
      }),
    );
    expect(treeFingerprint(p.dir)).toBe("sha256:kept");
    // The same size, and the mtime put back: only the ctime tells, and no process can set it back.
    const { mtime } = statSync(p.path("src/a.js"));
    p.write("src/a.js", "evil\n");
    utimesSync(p.path("src/a.js"), mtime, mtime);
    expect(treeFingerprint(p.dir)).not.toBe("sha256:kept");
  });

  it("keeps no stat of a file written in the same tick of the file system's clock as the reading", () => {
    const p = repo();
    inOneSecond(
      p,
      ["src/a.js", "src/new.js"],
      () => {
        p.write("src/a.js", "work\n");
        p.write("src/new.js", "new\n");
      },
      () => readWorkingTree(p.dir),
    );
    const clock = statSync(p.path(".claude/playbook/cache/.tree-clock"), {
      bigint: true,
    }).ctimeNs;
    const basis = JSON.parse(
      readFileSync(p.path(".claude/playbook/cache/.tree-basis.json"), "utf8"),
    ) as { known: Record<string, { stat: string }> };
    expect(Object.keys(basis.known)).toEqual(
      expect.arrayContaining(["src/a.js", "src/new.js"]),
    );
    for (const { stat } of Object.values(basis.known)) {
      const [, , , , mtime, ctime] = stat.split(":").map(BigInt);
      expect(mtime! < clock && ctime! < clock).toBe(true);
    }
  });

  it("after a reading, a file written in an earlier second is taken from playbook's own index by its stat; changed, it is read again", () => {
    const p = repo();
    p.write("src/new.js", "new\n");
    settleSecond(p);
    const proven = readWorkingTree(p.dir).fingerprint;
    // Files listed always (written in the reading's second) are none: git needs to list nothing on a tick.
    expect(listedAgainstOwnIndex(p)).toEqual([]);
    // Playbook's own index lying about a.js is believed while a.js has the stat it names: a.js was not read again.
    lieInOwnIndex(p, "src/a.js");
    const lied = readWorkingTree(p.dir).fingerprint;
    expect(lied).not.toBe(proven);
    expect(treeFingerprint(p.dir)).toBe(lied);
    // Rewritten with the same content, size and mtime: only the ctime tells, and the file is read again.
    const { mtime } = statSync(p.path("src/a.js"));
    p.write("src/a.js", "a\n");
    utimesSync(p.path("src/a.js"), mtime, mtime);
    expect(treeFingerprint(p.dir)).toBe(proven);
    expect(readWorkingTree(p.dir).fingerprint).toBe(proven);
  });

  it("git reads playbook's own index (GIT_INDEX_FILE) as a valid index of every path the fingerprint covers", () => {
    const p = repo();
    p.write("src/new.js", "new\n");
    unlinkSync(p.path("src/b.js"));
    settleSecond(p);
    readWorkingTree(p.dir);
    const listed = execFileSync("git", ["ls-files", "-s"], {
      cwd: p.dir,
      encoding: "utf8",
      env: { ...process.env, GIT_INDEX_FILE: ownIndex(p) },
    });
    expect(
      listed
        .trim()
        .split("\n")
        .map((line) => line.split("\t")[1]),
    ).toEqual(["README.md", "src/a.js", "src/b.js", "src/c.js", "src/new.js"]);
    // The deleted file is listed on every reading; nothing else.
    expect(listedAgainstOwnIndex(p)).toEqual(["src/b.js"]);
  });

  it("a basis that does not parse is read past", () => {
    const p = repo();
    const before = agree(p);
    writeFileSync(p.path(".claude/playbook/cache/.tree-basis.json"), "{");
    expect(treeFingerprint(p.dir)).toBe(before);
    rmSync(p.path(".claude/playbook/cache/.tree-basis.json"));
    expect(treeFingerprint(p.dir)).toBe(before);
  });

  it("is null outside a git repository", () => {
    const p = createTempProject({ "a.txt": "a\n" });
    expect(treeFingerprint(p.dir)).toBeNull();
  });
});
