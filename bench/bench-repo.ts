import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Runs git in `dir` with a fixed identity, so commits work without a global git config. */
export function benchGit(dir: string): (...args: string[]) => void {
  return (...args) => {
    execFileSync("git", args, {
      cwd: dir,
      stdio: "ignore",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "b",
        GIT_AUTHOR_EMAIL: "b@e.x",
        GIT_COMMITTER_NAME: "b",
        GIT_COMMITTER_EMAIL: "b@e.x",
      },
    });
  };
}

/** `count` small source files under `dir/src/<folder>/`, 100 per folder, committed in one commit. */
export function commitSourceFiles(
  dir: string,
  count: number,
  message: string,
): void {
  for (let i = 0; i < count; i++) {
    const folder = join(dir, "src", `m${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
  const git = benchGit(dir);
  git("add", "-A");
  git("commit", "-q", "-m", message);
}
