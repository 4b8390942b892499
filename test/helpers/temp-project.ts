import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { onTestFinished } from "vitest";

export interface TempProject {
  /** Absolute, symlink-free path of the project root. */
  dir: string;
  /** Absolute path of `rel` inside the project. */
  path(rel: string): string;
  /** Writes `text` to `rel`, creating parent directories. */
  write(rel: string, text: string): void;
  read(rel: string): string;
}

/** A throwaway project directory holding `files` (paths relative to its root), removed when the test finishes. */
export function createTempProject(
  files: Record<string, string> = {},
): TempProject {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "playbook-test-")));
  removeWhenDone(dir);
  const path = (rel: string) => join(dir, rel);
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(path(rel)), { recursive: true });
    writeFileSync(path(rel), text);
  };
  const read = (rel: string) => readFileSync(path(rel), "utf8");
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  return { dir, path, write, read };
}

const leftovers: string[] = [];

/** Removed after the test; a project made in `beforeAll` is removed when the test process exits. */
function removeWhenDone(dir: string): void {
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    if (leftovers.length === 0)
      process.on("exit", () => {
        for (const left of leftovers)
          rmSync(left, { recursive: true, force: true });
      });
    leftovers.push(dir);
  }
}

/** A throwaway git repository on `main` with one empty commit by "Dev", holding `files` uncommitted: what init needs. */
export function createTempRepository(
  files: Record<string, string> = {},
): TempProject {
  const p = createTempProject(files);
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: p.dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "Dev");
  git("config", "user.email", "dev@example.com");
  git("commit", "-q", "--allow-empty", "-m", "init");
  return p;
}
