import { defineCommand } from "citty";
import { assertRuntimeWritable } from "../../app/records/runtime-writable.ts";
import { createRecordDeps } from "../../app/deps.ts";
import { runCrit } from "../../app/records/crit.ts";
import { PlaybookError } from "../../core/errors.ts";
import { createColors } from "../print/colors.ts";
import { toTerminalText } from "../print/terminal-text.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

const USAGE = "`playbook crit record <phase> PASS|FAIL [--evidence <text>]`";

export const critCommand = defineCommand({
  meta: {
    name: "crit",
    description:
      "Record the critic's PASS or FAIL for a phase (critic subagent or a person at a terminal)",
  },
  args: {
    ...sharedArgs,
    action: {
      type: "positional",
      required: true,
      description: "record",
      valueHint: "record",
    },
    phase: {
      type: "positional",
      required: true,
      description: "The phase id, e.g. p1",
      valueHint: "phase",
    },
    verdict: {
      type: "positional",
      required: true,
      description: "PASS or FAIL",
      valueHint: "PASS|FAIL",
    },
    evidence: {
      type: "string",
      description: "What the critic ran and saw, kept in the record",
      valueHint: "text",
    },
    playbook: {
      type: "string",
      description: "The playbook (default: `active` in state.md)",
      valueHint: "path",
    },
  },
  run({ args }) {
    if (args.action !== "record")
      throw new PlaybookError(
        "E_USAGE",
        args.action === undefined
          ? `Missing the subcommand, expected ${USAGE}.`
          : `Unexpected subcommand ${args.action}, expected ${USAGE}.`,
        { hint: "Run `playbook crit --help`." },
      );
    const phase = args.phase;
    const verdict = args.verdict?.toUpperCase();
    if (phase === undefined || (verdict !== "PASS" && verdict !== "FAIL"))
      throw new PlaybookError(
        "E_USAGE",
        phase === undefined
          ? `Missing the phase id, expected ${USAGE}.`
          : args.verdict === undefined
            ? `Missing the verdict, expected ${USAGE}.`
            : `Unexpected verdict ${args.verdict}, expected PASS or FAIL.`,
        { hint: "Run `playbook crit --help`." },
      );
    const extra = args._.slice(3);
    if (extra.length > 0)
      throw new PlaybookError(
        "E_USAGE",
        `Unexpected argument ${extra[0] ?? ""}, expected ${USAGE}.`,
        { hint: 'Quote the evidence: --evidence "ran npm test, 12 passed".' },
      );
    const root = projectRoot(args);
    assertRuntimeWritable(root, `playbook crit record ${phase} ${verdict}`);
    const { playbook, record } = runCrit(
      root,
      { phase, verdict, evidence: args.evidence, playbook: args.playbook },
      createRecordDeps(root),
    );
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify({ playbook, record }, null, 2)}\n`,
      );
      return;
    }
    const c = createColors();
    const mark = verdict === "PASS" ? c.green("PASS") : c.red("FAIL");
    const lines = [
      `${mark} ${toTerminalText(phase)} of ${toTerminalText(playbook)}  ${c.dim(`critic record by ${toTerminalText(record.by)}, ${record.contentHash.slice(0, 19)}`)}`,
      c.dim(
        verdict === "PASS"
          ? `The phase may now be set to \`**status**: done\`; changing its subtasks first makes this verdict stale.`
          : "Fix what the critic found, then run /crit again.",
      ),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  },
});
