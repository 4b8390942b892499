import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createGuardedRepo,
  expectAllowed,
  expectDenied,
  type GuardedRepo,
} from "../helpers/guarded-repo.ts";
import { runCli } from "../helpers/run-cli.ts";

const MANIFESTS = ".claude/playbook/snapshots/manifests";

function manifests(repo: GuardedRepo): string[] {
  const dir = repo.path(MANIFESTS);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

function withWork(): GuardedRepo {
  const repo = createGuardedRepo();
  repo.write("src/app.ts", "export const app = 2; // uncommitted\n");
  repo.write("src/new.ts", "export const fresh = true;\n");
  return repo;
}

/** Base64-encoded Python running `command` in a shell: a line the Bash parser cannot read. */
function blind(command: string): string {
  const code = `import subprocess;subprocess.run(${JSON.stringify(command)}, shell=True)`;
  return `python3 -c "import base64;exec(base64.b64decode('${Buffer.from(code).toString("base64")}'))"`;
}

describe("the hook keeps a copy of the uncommitted work before a shell command that may change files", () => {
  it.each([
    "git status",
    "git diff --stat",
    "ls src | head -3",
    "cat src/app.ts",
  ])("%s: provably read-only, no snapshot", (command) => {
    const repo = withWork();
    expectAllowed(repo.bash(command));
    expect(manifests(repo)).toEqual([]);
  });

  it("a parser-blind destroyer runs only after its snapshot, and playbook undo brings the work back", () => {
    const repo = withWork();
    const command = blind("git checkout -- . && git clean -fdq");
    expectAllowed(repo.bash(command));
    const [manifest] = manifests(repo);
    expect(manifest).toBeDefined();
    const kept = JSON.parse(
      readFileSync(repo.path(`${MANIFESTS}/${manifest}`), "utf8"),
    ) as { command: string; session: string; files: { path: string }[] };
    expect(kept.command).toBe(command);
    expect(kept.session).toBe("session-1");
    expect(kept.files.map((f) => f.path)).toEqual(["src/app.ts", "src/new.ts"]);

    // What Claude Code then runs.
    spawnSync("bash", ["-c", command], { cwd: repo.dir });
    expect(repo.read("src/app.ts")).toBe("export const app = 1;\n");
    expect(existsSync(repo.path("src/new.ts"))).toBe(false);

    const id = manifest!.slice(0, -5);
    const listed = runCli(["undo"], { cwd: repo.dir });
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain("2 of 2 differ now");
    const undone = runCli(["undo", id], { cwd: repo.dir });
    expect(undone.status, undone.stderr).toBe(0);
    expect(undone.stdout).toContain("restored 2 files");
    expect(repo.read("src/app.ts")).toBe(
      "export const app = 2; // uncommitted\n",
    );
    expect(repo.read("src/new.ts")).toBe("export const fresh = true;\n");
  });

  it("playbook undo --json and an unknown id", () => {
    const repo = withWork();
    expectAllowed(repo.bash("npm test"));
    const listed = JSON.parse(
      runCli(["undo", "--json"], { cwd: repo.dir }).stdout,
    ) as { snapshots: { id: string; command: string; differ: number }[] };
    expect(listed.snapshots).toHaveLength(1);
    expect(listed.snapshots[0]).toMatchObject({
      command: "npm test",
      differ: 0,
    });
    const unknown = runCli(["undo", "20990101-000000-0000"], { cwd: repo.dir });
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain(listed.snapshots[0]!.id);
    expect(unknown.stderr).toContain("playbook undo");
  });

  it("a snapshot that cannot be taken refuses the command, with the reason and the next step", () => {
    const repo = withWork();
    // A damaged index: git cannot list the work.
    writeFileSync(repo.path(".git/index"), "not an index");
    expectDenied(
      repo.bash("npm test"),
      "could not this time",
      "git ls-files failed",
    );
    expect(manifests(repo)).toEqual([]);
  });

  it("in developer mode the command runs anyway, with a note that it cannot be undone", () => {
    const repo = createGuardedRepo({ security: "developer" });
    repo.write("src/app.ts", "changed\n");
    writeFileSync(repo.path(".git/index"), "not an index");
    const reply = repo.bash("npm test");
    expect(reply.decision).toBeNull();
    expect(reply.context).toContain("could not keep a copy");
    expect(reply.context).toContain("playbook undo");
  });

  it("a clean tree writes nothing", () => {
    const repo = createGuardedRepo();
    expectAllowed(repo.bash("npm test"));
    expect(manifests(repo)).toEqual([]);
  });

  it("a refused command is not snapshotted", () => {
    const repo = withWork();
    expectDenied(repo.bash("git reset --hard"), "playbook undo");
    expect(manifests(repo)).toEqual([]);
  });

  it.each([
    ["git read-tree -u --reset HEAD", "would throw away uncommitted changes"],
    ["git checkout-index -a -f", "would throw away uncommitted changes"],
    ["git -C src checkout -- ..", "would throw away uncommitted changes"],
    ["git clean -fd -e '!*'", "deletes ignored files"],
  ])(
    "the parser still refuses %s early, before a copy is taken; run unchecked, the line throws the work away",
    (command, reason) => {
      const repo = withWork();
      const work = () => [
        repo.read("src/app.ts"),
        existsSync(repo.path("src/new.ts")),
      ];
      const before = work();
      expectDenied(repo.bash(command), reason);
      expect(manifests(repo)).toEqual([]);
      // What the refusal kept: run unchecked, the same line throws the work away.
      spawnSync("bash", ["-c", command], { cwd: repo.dir });
      expect(work()).not.toEqual(before);
    },
  );

  it("playbook undo is not refused, and the hook keeps the work before it runs", () => {
    const repo = withWork();
    expectAllowed(repo.bash("npm test"));
    const [first] = manifests(repo);
    repo.write("src/app.ts", "export const app = 3;\n");
    const command = `npx --no playbook undo ${first!.slice(0, -5)}`;
    expectAllowed(repo.bash(command));
    const kept = manifests(repo);
    expect(kept).toHaveLength(2);
    expect(
      JSON.parse(readFileSync(repo.path(`${MANIFESTS}/${kept[1]}`), "utf8")),
    ).toMatchObject({ command });
    expect(
      existsSync(join(repo.dir, ".claude/playbook/snapshots/cache.json")),
    ).toBe(true);
  });
});
