import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { GoldenPath, Move } from "../../demo/golden-path.ts";
import type { createMoves } from "../../demo/moves.ts";
import { MULTIPLY } from "../../demo/tasks.ts";
import { createReviewedWorld } from "../helpers/golden-path-world.ts";

const STORE = ".claude/playbook/snapshots";

/** Base64-encoded Python: a line the Bash parser cannot read, so only the OS and the snapshot stand in the way. */
function blindPython(code: string): string {
  return `python3 -c "import base64;exec(base64.b64decode('${Buffer.from(code).toString("base64")}'))"`;
}

/** Every blob and manifest of the store with the SHA-256 of its content (the cache beside them is playbook's own). */
function storeFiles(world: GoldenPath): Record<string, string> {
  const dir = world.path(STORE);
  if (!existsSync(dir)) return {};
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.parentPath !== dir)
      .map((e): [string, string] => {
        const file = join(e.parentPath, e.name);
        return [
          file.slice(dir.length + 1),
          createHash("sha256").update(readFileSync(file)).digest("hex"),
        ];
      })
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

/**
 * Through the real Claude Code CLI with the settings `init` wrote: the agent makes uncommitted changes, throws them
 * away with git spelled so the Bash parser cannot read it, fails to write the snapshot store from its sandboxed
 * shell, and gets its work back with `playbook undo` run from that same shell.
 */
describe("work the agent's spelling cannot destroy, through the real client", () => {
  let world: GoldenPath;
  let m: ReturnType<typeof createMoves>;

  beforeAll(async () => {
    ({ world, m } = await createReviewedWorld());
  }, 600_000);

  it("a parser-blind git checkout -- . and git read-tree -u --reset are undone by playbook undo from the agent's shell", async () => {
    const readme = world.read("README.md");
    const edited = readme.replace(
      "- `sum(a, b)`",
      "- `sum(a, b)`\n- `multiply(a, b)` (uncommitted)",
    );
    expect(edited).not.toBe(readme);
    const destroy = blindPython(
      "import subprocess\nsubprocess.run(['git','checkout','--','.'])\nsubprocess.run(['git','read-tree','-u','--reset','HEAD'])\nsubprocess.run(['git','clean','-fdq'])\n",
    );
    const forge = blindPython(
      [
        "import glob, os",
        "for f in glob.glob('.claude/playbook/snapshots/blobs/*/*'):",
        "  try: open(f, 'w').write('forged')",
        "  except Exception as e: print('blob', e)",
        "for f in glob.glob('.claude/playbook/snapshots/manifests/*.json'):",
        "  try: os.remove(f)",
        "  except Exception as e: print('manifest', e)",
        "try: open('.claude/playbook/snapshots/manifests/20990101-000000-0000.json', 'w').write('{}')",
        "except Exception as e: print('new', e)",
        "",
      ].join("\n"),
    );
    const seen: Record<string, unknown> = {};
    let store: Record<string, string> = {};
    const undoMove: Move = {
      ...m.bash(
        "agent",
        "it brings the work back: playbook undo <id>",
        "npx --no playbook undo",
      ),
      before: () => {
        // The id of the snapshot the hook took before the destroying command, as `playbook undo` lists it.
        const manifests = readdirSync(world.path(`${STORE}/manifests`));
        const id = manifests
          .map(
            (name) =>
              JSON.parse(
                readFileSync(world.path(`${STORE}/manifests/${name}`), "utf8"),
              ) as { id: string; command: string },
          )
          .find((manifest) => manifest.command === destroy)?.id;
        seen["id"] = id;
        undoMove.tool!.input["command"] = `npx --no playbook undo ${id}`;
      },
    };
    let moves: Move[];
    await world.session({
      prompt: "Start p1.1, then start over.",
      moves: (moves = [
        ...m.begin(),
        ...m.work("p1.1"),
        m.read("agent", "README.md"),
        m.edit("agent", "it edits README.md", "README.md", [readme, edited]),
        {
          ...m.bash(
            "agent",
            "it throws the work away, spelled for no parser",
            destroy,
          ),
          before: () => {
            seen["before destroy"] = existsSync(world.path("src/multiply.js"));
          },
        },
        {
          ...m.bash(
            "agent",
            "it tries to write the snapshot store from its shell",
            forge,
          ),
          before: () => {
            seen["after destroy"] = {
              readme: world.read("README.md") === readme,
              multiply: existsSync(world.path("src/multiply.js")),
              test: existsSync(world.path("test/multiply.test.js")),
            };
            store = storeFiles(world);
          },
        },
        m.bash(
          "agent",
          "it lists the snapshots: playbook undo",
          "npx --no playbook undo",
        ),
        undoMove,
        m.say("agent", "it stops", "Done.", "block"),
      ]),
    });
    const tried = world.steps.filter((s) =>
      moves.some((mv) => mv.title === s.title && !mv.quiet),
    );
    const verdicts = Object.fromEntries(
      tried.map((s) => [
        s.title,
        `${s.verdict} ${s.lines.join(" ").slice(0, 300)}`,
      ]),
    );
    expect(
      tried.filter((s) => s.verdict === "missing"),
      JSON.stringify(verdicts),
    ).toEqual([]);

    // The work existed, the destroying command ran and threw it away.
    expect(seen["before destroy"]).toBe(true);
    expect(seen["after destroy"]).toEqual({
      readme: true,
      multiply: false,
      test: false,
    });
    // The sandboxed shell could not touch the store: every file as it was, no forged manifest.
    expect(Object.keys(store).length).toBeGreaterThan(0);
    expect(storeFiles(world)).toMatchObject(store);
    expect(
      Object.keys(storeFiles(world)).filter((f) => f.includes("20990101")),
    ).toEqual([]);
    expect(
      tried
        .find(
          (s) =>
            s.title === "it tries to write the snapshot store from its shell",
        )
        ?.lines.join("\n"),
    ).toMatch(/Read-only file system/);
    // playbook undo, run by the agent's shell, brought every change back.
    expect(world.read("README.md"), JSON.stringify(verdicts)).toBe(edited);
    expect(world.read("src/multiply.js")).toBe(
      MULTIPLY.work["p1.1"]![0]!.tool === "Write"
        ? (MULTIPLY.work["p1.1"]![0] as { content: string }).content
        : "",
    );
    expect(existsSync(world.path("test/multiply.test.js"))).toBe(true);
    const listing = tried.find(
      (s) => s.title === "it lists the snapshots: playbook undo",
    );
    expect(listing?.lines.join("\n")).toContain(String(seen["id"]));
    const restore = tried.find(
      (s) => s.title === "it brings the work back: playbook undo <id>",
    );
    expect(restore?.verdict).toBe("allow");
    expect(restore?.lines.join("\n")).toMatch(/restored +src\/multiply\.js/);
    // The plan is read-only to the shell: the destroying commands could not revert its edit, so undo had none to leave.
    expect(world.read("plan/playbook-multiply.md")).toContain(
      "**status**: in_progress",
    );
    expect(restore?.lines.join("\n")).not.toContain(
      "plan/playbook-multiply.md",
    );
  }, 600_000);
});
