import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { isPlaceholderOnDisk } from "./placeholder-check.ts";
import { sha256Text } from "./sha256-text.ts";
import {
  fingerprintText,
  parseListedTree,
  type TreeEntry,
} from "../core/records/tree-fingerprint.ts";

export interface TreeReading {
  /** `sha256:<hex>` of the working tree's files, or null outside a git repository. */
  fingerprint: string | null;
  /** Per path (per stage for unmerged paths): the files the fingerprint covers. */
  entries: Map<string, TreeEntry>;
}

/**
 * The working tree as a validation sees it (docs/guards.md): tracked files at their current content plus untracked
 * files git does not ignore, without `plan/`, `state.md` and `.claude/playbook/`. One `git ls-files` reads the index
 * and stats the tree (unchanged files keep the blob id the index has); only modified and untracked files are hashed,
 * by `git hash-object`, so clean filters (line endings, LFS) apply as they will when the files are committed.
 *
 * @throws Error when git fails inside a repository.
 */
export function readWorkingTree(root: string, timeoutMs = 8000): TreeReading {
  // Loaded here, not at the top: the hook needs them only for an edit that claims proof.
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const { createHash } = process.getBuiltinModule("node:crypto");
  const git = (args: string[], input?: string) => {
    const result = spawnSync("git", args, {
      cwd: root,
      encoding: "utf8",
      input,
      timeout: timeoutMs,
      maxBuffer: 1 << 30,
      windowsHide: true,
    });
    return result.error
      ? { status: -1, stdout: "", stderr: result.error.message }
      : result;
  };
  const listed = git([
    "ls-files",
    "-z",
    "-t",
    "-s",
    "-c",
    "-m",
    "-o",
    "-d",
    "--exclude-standard",
  ]);
  if (listed.status !== 0) {
    if (/not a git repository/i.test(listed.stderr))
      return { fingerprint: null, entries: new Map() };
    throw new Error(`git ls-files failed: ${listed.stderr.trim()}`);
  }
  const { entries, changed } = parseListedTree(listed.stdout);
  const blob = (content: Buffer | string) =>
    createHash("sha1")
      .update(`blob ${Buffer.byteLength(content)}\0`)
      .update(content)
      .digest("hex");
  const files: { path: string; mode: string }[] = [];
  for (const path of changed) {
    // A sandbox's mount point, there only while a sandboxed command runs: not part of the code.
    if (!entries.has(path) && isPlaceholderOnDisk(root, path)) continue;
    let stat;
    try {
      stat = lstatSync(join(root, path));
    } catch {
      entries.delete(path);
      continue;
    }
    const known = entries.get(path)?.mode;
    if (stat.isSymbolicLink())
      entries.set(path, {
        path,
        mode: "120000",
        oid: blob(readlinkSync(join(root, path))),
      });
    else if (stat.isFile())
      files.push({
        path,
        mode:
          process.platform === "win32"
            ? (known ?? "100644")
            : stat.mode & 0o100
              ? "100755"
              : "100644",
      });
  }
  // --stdin-paths reads lines: a name with a line break in it is hashed here, without git's filters.
  const byGit = files.filter((f) => !/[\r\n]/.test(f.path));
  if (byGit.length > 0) {
    const hashed = git(
      ["hash-object", "--stdin-paths"],
      `${byGit.map((f) => f.path).join("\n")}\n`,
    );
    const oids = hashed.stdout.split("\n");
    if (hashed.status !== 0 || oids.length < byGit.length)
      throw new Error(`git hash-object failed: ${hashed.stderr.trim()}`);
    byGit.forEach((f, i) => entries.set(f.path, { ...f, oid: oids[i] ?? "" }));
  }
  for (const f of files)
    if (!byGit.includes(f))
      entries.set(f.path, {
        ...f,
        oid: blob(readFileSync(join(root, f.path))),
      });
  return {
    fingerprint: sha256Text(fingerprintText(entries.values())),
    entries,
  };
}
