import { defineCommand } from "citty";
import { createSnapshotDeps } from "../../app/deps.ts";
import {
  readUndoSnapshots,
  runUndo,
  type SnapshotSummary,
  type UndoResult,
} from "../../app/snapshot/run-undo.ts";
import { createColors } from "../print/colors.ts";
import { toTerminalText } from "../print/terminal-text.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const undoCommand = defineCommand({
  meta: {
    name: "undo",
    description:
      "List the snapshots of uncommitted work playbook kept before shell commands, or write one back",
  },
  args: {
    ...sharedArgs,
    id: {
      type: "positional",
      description:
        "The snapshot to write back (its id, or the start of it); leave out to list them",
      required: false,
    },
    "dry-run": {
      type: "boolean",
      description: "Show what would be written back; change nothing",
      default: false,
    },
  },
  async run({ args }) {
    const root = projectRoot(args);
    const out = (text: string) => process.stdout.write(`${text}\n`);
    const id = args.id === undefined ? "" : String(args.id);
    if (id === "") {
      const snapshots = readUndoSnapshots(root);
      if (args.json) out(JSON.stringify({ snapshots }, null, 2));
      else printList(snapshots, out);
      return;
    }
    const result = await runUndo(
      root,
      id,
      { dryRun: args["dry-run"] },
      createSnapshotDeps(),
    );
    if (args.json) out(JSON.stringify(result, null, 2));
    else printUndo(result, out);
    if (result.failed.length > 0) process.exitCode = 1;
  },
});

function printList(
  snapshots: readonly SnapshotSummary[],
  out: (text: string) => void,
): void {
  const c = createColors();
  if (snapshots.length === 0) {
    out(
      "No snapshots yet: playbook keeps one before each shell command that may change files, while there is uncommitted work.",
    );
    return;
  }
  out(
    `${c.bold("playbook undo")}: ${snapshots.length} snapshot${snapshots.length === 1 ? "" : "s"}, newest first`,
  );
  for (const s of snapshots) {
    const differ =
      s.differ === 0
        ? c.dim("as now")
        : c.yellow(`${s.differ} of ${s.files} differ now`);
    const command = toTerminalText(s.command.replace(/\s+/g, " "));
    out(
      `  ${s.id}  ${s.at.slice(0, 19).replace("T", " ")}  ${differ}  ${c.dim(command.length > 60 ? `${command.slice(0, 59)}…` : command)}`,
    );
  }
  out(
    c.dim(
      "Next: `playbook undo <id>` writes back its files that differ now (`--dry-run` shows which first); it deletes nothing.",
    ),
  );
}

function printUndo(result: UndoResult, out: (text: string) => void): void {
  const c = createColors();
  const verb = result.dryRun ? "would restore" : "restored";
  const count = result.restored.length;
  out(
    `${c.bold(`playbook undo ${result.id}`)}: ${verb} ${count} file${count === 1 ? "" : "s"}${result.same.length > 0 ? `; ${result.same.length} already as then` : ""}`,
  );
  for (const r of result.restored)
    out(
      `  ${c.green(verb.padEnd(13))} ${toTerminalText(r.path)}${r.now === "missing" ? c.dim(" (it was missing)") : ""}`,
    );
  for (const l of result.left)
    out(
      `  ${c.yellow("left".padEnd(13))} ${toTerminalText(l.path)}: ${c.dim(toTerminalText(l.why))}`,
    );
  for (const f of result.failed)
    out(
      `  ${c.red("failed".padEnd(13))} ${toTerminalText(f.path)}: ${toTerminalText(f.why)}`,
    );
  if (result.before !== null)
    out(
      c.dim(
        `The work as it was before this undo is snapshot ${result.before}: \`playbook undo ${result.before}\` brings it back.`,
      ),
    );
  if (result.dryRun) out(c.dim("dry run: nothing was changed"));
}
