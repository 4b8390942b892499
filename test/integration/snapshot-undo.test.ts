import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  readSnapshotIds,
  readSnapshot,
  SNAPSHOT_DIR,
} from "../../src/adapters/snapshot-store.ts";
import { readUndoSnapshots, runUndo } from "../../src/app/snapshot/run-undo.ts";
import {
  takeSnapshot,
  type SnapshotDeps,
  type SnapshotRequest,
} from "../../src/app/snapshot/take-snapshot.ts";
import { PlaybookError } from "../../src/core/errors.ts";
import {
  SNAPSHOT_LIMITS,
  type SnapshotLimits,
} from "../../src/core/snapshot/manifest.ts";
import {
  createTempProject,
  type TempProject,
} from "../helpers/temp-project.ts";

/** A repository with committed work, and uncommitted work of every kind on top of it. */
function repository(): TempProject {
  const p = createTempProject({
    "README.md": "# readme\n",
    "src/app.ts": "export const app = 1;\n",
    "src/lib/util.ts": "export const util = 1;\n",
    "bin/run.sh": "#!/bin/sh\necho run\n",
    "keep.txt": "kept\n",
    ".gitignore": "*.log\n.claude/playbook/\n",
    "plan/playbook-x.md": "# playbook\n",
  });
  git(p, "init", "-q", "-b", "main");
  chmodSync(p.path("bin/run.sh"), 0o755);
  git(p, "add", "-A");
  git(p, "commit", "-q", "-m", "init");
  return p;
}

function git(p: TempProject, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd: p.dir,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@e.x",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@e.x",
    },
  });
}

/** Uncommitted work: changed, new, binary, staged only, executable, in a subfolder, and a deleted file. */
const BINARY = Buffer.from([0, 1, 2, 255, 254, 10, 13, 0, 128]);
function makeWork(p: TempProject): void {
  p.write("src/app.ts", "export const app = 2; // changed\n");
  p.write("src/lib/util.ts", "export const util = 2;\n");
  p.write("notes/new.md", "untracked, not ignored\n");
  writeFileSync(p.path("data.bin"), BINARY);
  p.write("staged.ts", "staged only\n");
  git(p, "add", "staged.ts");
  p.write("bin/run.sh", "#!/bin/sh\necho changed\n");
  rmSync(p.path("keep.txt"));
  p.write("debug.log", "ignored\n");
}

function expectWork(p: TempProject): void {
  expect(p.read("src/app.ts")).toBe("export const app = 2; // changed\n");
  expect(p.read("src/lib/util.ts")).toBe("export const util = 2;\n");
  expect(p.read("notes/new.md")).toBe("untracked, not ignored\n");
  expect(readFileSync(p.path("data.bin")).equals(BINARY)).toBe(true);
  expect(p.read("staged.ts")).toBe("staged only\n");
  expect(p.read("bin/run.sh")).toBe("#!/bin/sh\necho changed\n");
  expect(lstatSync(p.path("bin/run.sh")).mode & 0o111).not.toBe(0);
}

let clock = Date.parse("2026-11-27T10:00:00Z");
function deps(overrides: Partial<SnapshotDeps> = {}): SnapshotDeps {
  return {
    now: () => new Date((clock += 1000)),
    timeLeft: () => 60_000,
    suffix: () =>
      Math.floor(Math.random() * 0x10000)
        .toString(16)
        .padStart(4, "0"),
    ...overrides,
  };
}

function snap(
  p: TempProject,
  command = "python3 -c '...'",
  extra: Partial<SnapshotRequest> = {},
  d = deps(),
) {
  return takeSnapshot(
    { root: p.dir, session: "s1", command, write: true, ...extra },
    d,
  );
}

/** A line the Bash parser cannot read: Python, its code base64-encoded, running `command` through a shell. */
function blind(command: string): string {
  const code = `import subprocess;subprocess.run(${JSON.stringify(command)}, shell=True)`;
  return `python3 -c "import base64;exec(base64.b64decode('${Buffer.from(code).toString("base64")}'))"`;
}

function run(p: TempProject, command: string): void {
  const result = spawnSync("bash", ["-c", command], {
    cwd: p.dir,
    encoding: "utf8",
  });
  expect(result.status, result.stderr).toBe(0);
}

describe("a snapshot, then a command that throws the work away, then playbook undo", () => {
  it.each([
    ["git read-tree -u --reset HEAD", "git read-tree -u --reset HEAD"],
    ["git checkout-index -a -f", "git checkout-index -a -f"],
    ["git -C src checkout -- ..", "git -C src checkout -- .."],
    ["git checkout .", "git checkout ."],
    ["git reset --hard", "git reset --hard"],
    // Claude Code's sandbox keeps the store read-only (the end-to-end test runs it there): here the command spares it.
    [
      "git clean -fd -e '!*' after a reset",
      "git reset -q --hard && git clean -fdq -e '!*' -e /.claude/",
    ],
    [
      "base64-encoded Python running git checkout -- .",
      blind("git checkout -- . && git reset -q --hard && git clean -fdq"),
    ],
  ])(
    "%s: every uncommitted change comes back, byte for byte",
    async (_name, destroy) => {
      const p = repository();
      makeWork(p);
      const taken = await snap(p, destroy);
      expect(taken.kind).toBe("taken");
      if (taken.kind !== "taken") return;

      run(p, destroy);
      expect(p.read("src/app.ts")).toBe("export const app = 1;\n");

      const undone = await runUndo(p.dir, taken.id, { dryRun: false }, deps());
      expectWork(p);
      expect(undone.failed).toEqual([]);
      expect(undone.restored.map((r) => r.path)).toContain("src/app.ts");
      // The file the work had deleted, back from git, stays: undo deletes nothing.
      if (existsSync(p.path("keep.txt")))
        expect(undone.left).toContainEqual({
          path: "keep.txt",
          why: "it was deleted then; undo deletes no file",
        });
    },
  );

  it("git clean -e '!*' deletes ignored files too: those were never in a snapshot", async () => {
    const p = repository();
    makeWork(p);
    const taken = await snap(p);
    if (taken.kind !== "taken") throw new Error(taken.kind);
    run(p, "git clean -fdq -e '!*' -e /.claude/");
    expect(existsSync(p.path("debug.log"))).toBe(false);
    await runUndo(p.dir, taken.id, { dryRun: false }, deps());
    expect(p.read("notes/new.md")).toBe("untracked, not ignored\n");
    expect(existsSync(p.path("debug.log"))).toBe(false);
    const manifest = readSnapshot(p.dir, taken.id);
    expect(manifest?.files.map((f) => f.path)).not.toContain("debug.log");
  });

  it("the manifest names each path with its blob, the deleted file, the command, the session and HEAD", async () => {
    const p = repository();
    makeWork(p);
    const taken = await snap(p, "npm test");
    if (taken.kind !== "taken") throw new Error(taken.kind);
    const manifest = readSnapshot(p.dir, taken.id);
    expect(manifest).toMatchObject({
      command: "npm test",
      session: "s1",
      head: git(p, "rev-parse", "HEAD").trim(),
    });
    expect(manifest?.files.map((f) => f.path)).toEqual([
      "bin/run.sh",
      "data.bin",
      "keep.txt",
      "notes/new.md",
      "src/app.ts",
      "src/lib/util.ts",
      "staged.ts",
    ]);
    expect(manifest?.files.find((f) => f.path === "keep.txt")).toEqual({
      path: "keep.txt",
      deleted: true,
    });
    expect(manifest?.files.find((f) => f.path === "bin/run.sh")).toMatchObject({
      mode: "100755",
    });
  });

  it("content is copied into the store, not linked: a later write to the file leaves the copy as it was", async () => {
    const p = repository();
    makeWork(p);
    const taken = await snap(p);
    if (taken.kind !== "taken") throw new Error(taken.kind);
    const blobs = join(p.dir, SNAPSHOT_DIR, "blobs");
    const stored = readdirSync(blobs, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => lstatSync(join(e.parentPath, e.name)));
    expect(stored.every((s) => s.nlink === 1)).toBe(true);
    writeFileSync(p.path("src/app.ts"), "overwritten in place\n", {
      flag: "r+",
    });
    await runUndo(p.dir, taken.id, { dryRun: false }, deps());
    expect(p.read("src/app.ts")).toBe("export const app = 2; // changed\n");
  });
});

describe("what a snapshot keeps, and how often", () => {
  it("writes nothing for a clean tree, and nothing new while the work is as the newest snapshot holds it", async () => {
    const p = repository();
    expect((await snap(p)).kind).toBe("clean");
    expect(existsSync(join(p.dir, SNAPSHOT_DIR, "manifests"))).toBe(false);
    makeWork(p);
    const first = await snap(p);
    const second = await snap(p);
    expect(first.kind).toBe("taken");
    expect(second).toEqual({
      kind: "unchanged",
      id: first.kind === "taken" ? first.id : "",
    });
    expect(readSnapshotIds(p.dir)).toHaveLength(1);
  });

  it("a file over the size cap is named in the manifest, not copied", async () => {
    const p = repository();
    p.write("big.txt", "x".repeat(5000));
    p.write("small.txt", "small\n");
    const limits: SnapshotLimits = { ...SNAPSHOT_LIMITS, maxFileBytes: 1000 };
    const taken = await snap(p, "make", { limits });
    if (taken.kind !== "taken") throw new Error(taken.kind);
    expect(taken.skipped).toEqual([
      { path: "big.txt", why: "over the 1000 bytes cap for one file" },
    ]);
    expect(readSnapshot(p.dir, taken.id)?.files).toContainEqual({
      path: "big.txt",
      skipped: "over the 1000 bytes cap for one file",
      size: 5000,
    });
    const listed = readUndoSnapshots(p.dir);
    expect(listed[0]).toMatchObject({ id: taken.id, files: 1, skipped: 1 });
  });

  it("past the count cap, paths are counted, not named", async () => {
    const p = repository();
    for (const name of ["a", "b", "c", "d"]) p.write(`new/${name}.txt`, name);
    const limits: SnapshotLimits = { ...SNAPSHOT_LIMITS, maxFiles: 2 };
    const taken = await snap(p, "make", { limits });
    if (taken.kind !== "taken") throw new Error(taken.kind);
    const manifest = readSnapshot(p.dir, taken.id);
    expect(manifest?.files.map((f) => f.path)).toEqual([
      "new/a.txt",
      "new/b.txt",
    ]);
    expect(manifest?.unlisted).toBe(2);
    expect(taken.newlySkipped).toEqual([
      { path: "2 more files", why: "past the cap of 2 files in one snapshot" },
    ]);
    expect(await snap(p, "make", { limits })).toMatchObject({
      kind: "unchanged",
    });
    expect(readUndoSnapshots(p.dir)[0]).toMatchObject({ files: 2, skipped: 2 });
  });

  it("keeps the newest snapshots up to the retention count, removing the oldest and the content only they held", async () => {
    const p = repository();
    const limits: SnapshotLimits = { ...SNAPSHOT_LIMITS, keep: 3 };
    // Each snapshot two minutes after the last, starting an hour after the real clock: the grace
    // period is measured against the blobs' real modification times, so a fixed date failed on that day.
    let minute = Date.now() + 3_600_000;
    const later = () => deps({ now: () => new Date((minute += 120_000)) });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      p.write("work.txt", `version ${i}\n`);
      const taken = await snap(p, `step ${i}`, { limits }, later());
      if (taken.kind !== "taken") throw new Error(taken.kind);
      ids.push(taken.id);
    }
    expect(readSnapshotIds(p.dir)).toEqual(ids.slice(2));
    const blobs = readdirSync(join(p.dir, SNAPSHOT_DIR, "blobs"), {
      recursive: true,
      withFileTypes: true,
    }).filter((e) => e.isFile() && !e.name.endsWith(".tmp"));
    expect(blobs).toHaveLength(3);
    await expect(
      runUndo(p.dir, ids[0]!, { dryRun: true }, deps()),
    ).rejects.toThrow(/No snapshot/);
  });

  it("keeps the store under its byte cap, the oldest going first", async () => {
    const p = repository();
    const limits: SnapshotLimits = { ...SNAPSHOT_LIMITS, maxStoreBytes: 1000 };
    let minute = Date.now() + 3_600_000;
    const later = () => deps({ now: () => new Date((minute += 120_000)) });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      p.write("work.txt", `${i}`.repeat(400));
      const taken = await snap(p, `step ${i}`, { limits }, later());
      if (taken.kind !== "taken") throw new Error(taken.kind);
      ids.push(taken.id);
    }
    // 400 bytes each: two fit in 1000.
    expect(readSnapshotIds(p.dir)).toEqual(ids.slice(2));
  });

  it("a file over the store's cap on its own is named, and the command goes on", async () => {
    const p = repository();
    const limits: SnapshotLimits = { ...SNAPSHOT_LIMITS, maxStoreBytes: 100 };
    p.write("work.txt", "y".repeat(500));
    const taken = await snap(p, "make", { limits });
    if (taken.kind !== "taken") throw new Error(taken.kind);
    expect(taken.skipped).toEqual([
      { path: "work.txt", why: "no room: the store is at its 100 bytes cap" },
    ]);
  });

  it("runs out of time as the outcome `failed`, never as a half-written manifest", async () => {
    const p = repository();
    makeWork(p);
    let left = 5000;
    const taken = await snap(
      p,
      "make",
      {},
      deps({ timeLeft: () => (left -= 2000) }),
    );
    expect(taken).toMatchObject({ kind: "failed", outOfTime: true });
    expect(readSnapshotIds(p.dir)).toEqual([]);
  });

  it("outside a git repository there is nothing to keep", async () => {
    const p = createTempProject({ "a.txt": "a\n" });
    expect((await snap(p)).kind).toBe("no-repository");
  });

  it("where git is not installed there is nothing to keep either", async () => {
    const p = repository();
    makeWork(p);
    const path = process.env["PATH"];
    process.env["PATH"] = p.path("no-such-folder");
    try {
      expect((await snap(p)).kind).toBe("no-repository");
    } finally {
      process.env["PATH"] = path;
    }
  });

  it("stores a link as its target, never the file it points to", async () => {
    const p = repository();
    const outside = mkdtempSync(join(tmpdir(), "playbook-outside-"));
    writeFileSync(join(outside, "secret.txt"), "secret outside the project\n");
    symlinkSync(join(outside, "secret.txt"), p.path("link.txt"));
    const taken = await snap(p);
    if (taken.kind !== "taken") throw new Error(taken.kind);
    const entry = readSnapshot(p.dir, taken.id)?.files.find(
      (f) => f.path === "link.txt",
    );
    expect(entry).toMatchObject({ mode: "120000" });
    const stored = readdirSync(join(p.dir, SNAPSHOT_DIR, "blobs"), {
      recursive: true,
      withFileTypes: true,
    })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"));
    expect(stored).not.toContain("secret outside the project\n");
    rmSync(p.path("link.txt"));
    await runUndo(p.dir, taken.id, { dryRun: false }, deps());
    expect(readlinkSync(p.path("link.txt"))).toBe(join(outside, "secret.txt"));
    rmSync(outside, { recursive: true, force: true });
  });
});

describe("playbook undo", () => {
  it("never deletes a file created after the snapshot, and keeps the work as it was so the undo can be undone", async () => {
    const p = repository();
    makeWork(p);
    const taken = await snap(p);
    if (taken.kind !== "taken") throw new Error(taken.kind);
    p.write("src/app.ts", "export const app = 3; // later\n");
    p.write("created-later.txt", "new since\n");
    const undone = await runUndo(p.dir, taken.id, { dryRun: false }, deps());
    expect(p.read("src/app.ts")).toBe("export const app = 2; // changed\n");
    expect(p.read("created-later.txt")).toBe("new since\n");
    expect(undone.before).not.toBeNull();
    await runUndo(p.dir, undone.before!, { dryRun: false }, deps());
    expect(p.read("src/app.ts")).toBe("export const app = 3; // later\n");
  });

  it("--dry-run says what it would write and writes nothing", async () => {
    const p = repository();
    makeWork(p);
    const taken = await snap(p);
    if (taken.kind !== "taken") throw new Error(taken.kind);
    git(p, "checkout", "--", ".");
    const plan = await runUndo(p.dir, taken.id, { dryRun: true }, deps());
    expect(plan.restored.map((r) => r.path)).toContain("src/app.ts");
    expect(p.read("src/app.ts")).toBe("export const app = 1;\n");
    expect(readSnapshotIds(p.dir)).toEqual([taken.id]);
  });

  it("uses the newest snapshot as the state before the undo when it holds the work as it is now (the hook's, in the sandbox)", async () => {
    const p = repository();
    makeWork(p);
    const first = await snap(p);
    if (first.kind !== "taken") throw new Error(first.kind);
    p.write("src/app.ts", "export const app = 4;\n");
    const hooks = await snap(p, "npx --no playbook undo");
    if (hooks.kind !== "taken") throw new Error(hooks.kind);
    const undone = await runUndo(p.dir, first.id, { dryRun: false }, deps());
    expect(undone.before).toBe(hooks.id);
    expect(readSnapshotIds(p.dir)).toEqual([first.id, hooks.id]);
  });

  it("leaves state.md and playbooks to the Edit tool and says where their content is", async () => {
    const p = repository();
    p.write("plan/playbook-x.md", "# playbook, ticked\n");
    const taken = await snap(p);
    if (taken.kind !== "taken") throw new Error(taken.kind);
    git(p, "checkout", "--", ".");
    const undone = await runUndo(p.dir, taken.id, { dryRun: false }, deps());
    expect(p.read("plan/playbook-x.md")).toBe("# playbook\n");
    expect(undone.left[0]?.path).toBe("plan/playbook-x.md");
    expect(undone.left[0]?.why).toMatch(
      /Edit tool .*\.claude\/playbook\/snapshots\/blobs\//,
    );
  });

  it("replaces a link planted where a file was, and never writes through it", async () => {
    const p = repository();
    makeWork(p);
    const taken = await snap(p);
    if (taken.kind !== "taken") throw new Error(taken.kind);
    const outside = mkdtempSync(join(tmpdir(), "playbook-outside-"));
    writeFileSync(join(outside, "target.txt"), "outside\n");
    rmSync(p.path("src/app.ts"));
    symlinkSync(join(outside, "target.txt"), p.path("src/app.ts"));
    await runUndo(p.dir, taken.id, { dryRun: false }, deps());
    expect(readFileSync(join(outside, "target.txt"), "utf8")).toBe("outside\n");
    expect(lstatSync(p.path("src/app.ts")).isFile()).toBe(true);
    expect(p.read("src/app.ts")).toBe("export const app = 2; // changed\n");
    rmSync(outside, { recursive: true, force: true });
  });

  it("refuses to write through a folder that became a link", async () => {
    const p = repository();
    makeWork(p);
    const taken = await snap(p);
    if (taken.kind !== "taken") throw new Error(taken.kind);
    const outside = mkdtempSync(join(tmpdir(), "playbook-outside-"));
    mkdirSync(join(outside, "lib"));
    rmSync(p.path("src"), { recursive: true });
    symlinkSync(outside, p.path("src"));
    const undone = await runUndo(p.dir, taken.id, { dryRun: false }, deps());
    expect(readdirSync(outside)).toEqual(["lib"]);
    expect(readdirSync(join(outside, "lib"))).toEqual([]);
    expect(undone.failed.map((f) => f.path)).toEqual([
      "src/app.ts",
      "src/lib/util.ts",
    ]);
    expect(undone.failed[0]?.why).toBe("src is a link now");
    rmSync(outside, { recursive: true, force: true });
  });

  it("an unknown id is an error that lists the ids", async () => {
    const p = repository();
    makeWork(p);
    const taken = await snap(p);
    if (taken.kind !== "taken") throw new Error(taken.kind);
    const error = await runUndo(p.dir, "nope", { dryRun: false }, deps()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlaybookError);
    expect((error as PlaybookError).code).toBe("E_NOT_FOUND");
    expect((error as PlaybookError).message).toContain(taken.id);
    // The start of an id is enough when only one snapshot has it.
    const byPrefix = await runUndo(
      p.dir,
      taken.id.slice(0, 17),
      { dryRun: true },
      deps(),
    );
    expect(byPrefix.id).toBe(taken.id);
  });

  it("lists snapshots newest first, with how many of their files differ now", async () => {
    const p = repository();
    makeWork(p);
    const first = await snap(p, "npm test");
    p.write("src/app.ts", "export const app = 5;\n");
    const second = await snap(p, "npm run build");
    if (first.kind !== "taken" || second.kind !== "taken")
      throw new Error("not taken");
    const listed = readUndoSnapshots(p.dir);
    expect(listed.map((s) => [s.id, s.command, s.files, s.differ])).toEqual([
      [second.id, "npm run build", 6, 0],
      [first.id, "npm test", 6, 1],
    ]);
  });
});
