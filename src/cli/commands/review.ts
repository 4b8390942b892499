import { defineCommand } from "citty";
import { assertRuntimeWritable } from "../../app/records/runtime-writable.ts";
import { createRecordDeps } from "../../app/deps.ts";
import { runReview } from "../../app/records/review.ts";
import { locationAt, PlaybookError } from "../../core/errors.ts";
import { createColors } from "../print/colors.ts";
import { formatDiagnostics } from "../print/diagnostics.ts";
import {
  failureJson,
  formatFailure,
  toCliFailure,
} from "../print/failure.ts";
import { toTerminalText } from "../print/terminal-text.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const reviewCommand = defineCommand({
  meta: {
    name: "review",
    description:
      "Record approve/reject of the playbook and set `reviewed` (reviewer subagent or a person at a terminal)",
  },
  args: {
    ...sharedArgs,
    action: {
      type: "positional",
      required: true,
      description: "approve or reject",
      valueHint: "approve|reject",
    },
    playbook: {
      type: "string",
      description: "The playbook to review (default: `active` in state.md)",
      valueHint: "path",
    },
    notes: {
      type: "string",
      description: "The reviewer's notes, kept in the record",
      valueHint: "text",
    },
  },
  run({ args }) {
    const action = args.action;
    if (action !== "approve" && action !== "reject")
      throw new PlaybookError(
        "E_USAGE",
        action === undefined
          ? "Missing the verdict, expected `playbook review approve` or `playbook review reject`."
          : `Unexpected verdict ${action}, expected approve or reject.`,
        { hint: "Run `playbook review --help`." },
      );
    const extra = args._.slice(1);
    if (extra.length > 0)
      throw new PlaybookError(
        "E_USAGE",
        `Unexpected argument ${extra[0] ?? ""}, expected \`playbook review approve|reject [--notes <text>]\`.`,
        {
          hint: 'Quote the notes: --notes "the plan covers the error states".',
        },
      );
    const root = projectRoot(args);
    assertRuntimeWritable(root, `playbook review ${action}`);
    const outcome = runReview(
      root,
      { action, playbook: args.playbook, notes: args.notes },
      createRecordDeps(root),
    );
    if (outcome.status === "refused") {
      const n = outcome.diagnostics.length;
      const [first] = outcome.diagnostics;
      const failure = toCliFailure(
        new PlaybookError(
          "E_CONFIG",
          `${outcome.playbook} has ${n} lint error${n === 1 ? "" : "s"}, so it cannot be approved; nothing was recorded.`,
          {
            hint: `Fix ${n === 1 ? "it" : "them"} (\`playbook lint ${outcome.playbook}\` checks again), then approve again.`,
            ...(first && { location: locationAt(first.file, first) }),
          },
        ),
      );
      if (args.json) {
        process.stdout.write(
          `${JSON.stringify({ error: failureJson(failure), diagnostics: outcome.diagnostics }, null, 2)}\n`,
        );
      } else
        process.stdout.write(
          `${formatDiagnostics(outcome.diagnostics, createColors()).join("\n")}\n`,
        );
      process.stderr.write(
        formatFailure(failure, createColors(process.stderr)),
      );
      process.exitCode = failure.exitCode;
      return;
    }
    const { record, changed } = outcome;
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify({ playbook: outcome.playbook, reviewed: action === "approve", changed, record }, null, 2)}\n`,
      );
      return;
    }
    const c = createColors();
    const playbook = toTerminalText(outcome.playbook);
    const verdict =
      action === "approve" ? c.green("approved") : c.yellow("rejected");
    const lines = [
      `${verdict} ${playbook}  ${c.dim(`review by ${toTerminalText(record.by)}, ${record.contentHash.slice(0, 19)}`)}`,
      `reviewed: ${action === "approve"} ${changed ? "set" : "was already set"} in ${playbook}`,
      c.dim(
        action === "approve"
          ? "Editing a criterion, validation or done_when later makes this review stale."
          : "Revise the playbook as the review says, then ask the reviewer again.",
      ),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  },
});
