import {
  linkSync,
  mkdirSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { describe, expect, it } from "vitest";
import { createGuardedRepo, PLAYBOOK } from "../helpers/guarded-repo.ts";
import { runCli } from "../helpers/run-cli.ts";

/**
 * Every name a write reaches (docs/trust-boundary.md): the hook judges `state.md` and the playbook only as regular
 * files with one name, in their own folders. A playbook swapped for a link to `docs/pb-copy.md` would otherwise be
 * judged as the plan while the agent edits the copy, which the hook sees as an ordinary file.
 */
describe("a plan document that is not its own file is broken, through the hook and the CLI", () => {
  const swaps: [
    string,
    (repo: ReturnType<typeof createGuardedRepo>) => void,
  ][] = [
    [
      "a symbolic link to a copy",
      (repo) => {
        writeFileSync(repo.path("docs-pb-copy.md"), repo.read(PLAYBOOK));
        renameSync(repo.path(PLAYBOOK), repo.path("plan/old.md"));
        symlinkSync("../docs-pb-copy.md", repo.path(PLAYBOOK));
      },
    ],
    [
      "a hard link",
      (repo) => linkSync(repo.path(PLAYBOOK), repo.path("docs-pb-copy.md")),
    ],
    [
      "a plan folder that is a link",
      (repo) => {
        renameSync(repo.path("plan"), repo.path("elsewhere"));
        symlinkSync("elsewhere", repo.path("plan"));
        writeFileSync(repo.path("docs-pb-copy.md"), "");
      },
    ],
  ];

  it.each(swaps)(
    "%s: the copy's edit and every other change are refused until a person repairs it",
    (_, swap) => {
      const repo = createGuardedRepo();
      repo.bash("git status");
      swap(repo);
      const ticked = repo.pre("Edit", {
        file_path: repo.path("docs-pb-copy.md"),
        old_string: "- [ ] **p1.1**",
        new_string: "- [x] **p1.1**",
      });
      expect(ticked.decision).toBe("deny");
      expect(ticked.reason).toContain(PLAYBOOK);
      expect(ticked.reason).toMatch(/symbolic link|other name/);
      const code = repo.pre("Edit", {
        file_path: repo.path("src/app.ts"),
        old_string: "export const app = 1;",
        new_string: "export const app = 2;",
      });
      expect(code.decision).toBe("deny");

      const verify = runCli(["verify", "p1.1", "--cwd", repo.dir]);
      expect(verify.status).toBe(1);
      expect(verify.stderr).toMatch(/symbolic link|other name/);
      expect(verify.stderr).toContain("realpath");
    },
  );

  it("a regular playbook in a regular folder is judged as always", () => {
    const repo = createGuardedRepo();
    mkdirSync(repo.path("docs"), { recursive: true });
    const reply = repo.pre("Edit", {
      file_path: repo.path("src/app.ts"),
      old_string: "export const app = 1;",
      new_string: "export const app = 2;",
    });
    expect(reply.decision).toBeNull();
  });
});
