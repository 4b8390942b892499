import { createLoopDeps } from "../../app/deps.ts";
import { defineCommand } from "citty";
import {
  runLoopCancel,
  runLoopStart,
  runLoopStatus,
} from "../../app/loop/loop.ts";
import { PlaybookError } from "../../core/errors.ts";
import { createColors } from "../print/colors.ts";
import { toTerminalText } from "../print/terminal-text.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

const USAGE =
  '`playbook loop start "<prompt>" [--max N] [--promise TEXT]`, `playbook loop status` or `playbook loop cancel`';

export const loopCommand = defineCommand({
  meta: {
    name: "loop",
    description:
      "Run a prompt again and again until the agent keeps its promise (start, status, cancel)",
  },
  args: {
    ...sharedArgs,
    action: {
      type: "positional",
      required: true,
      description: "start, status or cancel",
      valueHint: "start|status|cancel",
    },
    prompt: {
      type: "positional",
      required: false,
      description: "The prompt fed again at each stop (start)",
      valueHint: "prompt",
    },
    max: {
      type: "string",
      description: "Most iterations (default 10)",
      valueHint: "N",
    },
    promise: {
      type: "string",
      description:
        "The words that end the loop inside <promise>...</promise> (default DONE)",
      valueHint: "text",
    },
    session: {
      type: "string",
      description:
        "The session the loop runs in (default: CLAUDE_CODE_SESSION_ID, else the first to stop)",
      valueHint: "id",
    },
  },
  run({ args }) {
    const root = projectRoot(args);
    const deps = createLoopDeps();
    const c = createColors();
    const print = (value: unknown, text: string) =>
      process.stdout.write(
        args.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`,
      );
    switch (args.action) {
      case "start": {
        const max = args.max === undefined ? 10 : Number(args.max);
        const loop = runLoopStart(
          root,
          {
            prompt: args.prompt ?? "",
            max,
            promise: args.promise ?? "DONE",
            session: args.session ?? null,
          },
          deps,
        );
        return print(
          { loop },
          `${c.green("loop started")}: up to ${loop.max} iterations, ends at <promise>${toTerminalText(loop.promise)}</promise>${loop.session ? ` (session ${toTerminalText(loop.session)})` : " (the first session that stops claims it)"}.\n${c.dim("Stop it any time with `playbook loop cancel`.")}`,
        );
      }
      case "status": {
        const status = runLoopStatus(root, deps);
        const lines = [
          status.loop
            ? `loop: iteration ${status.loop.iteration}/${status.loop.max}, promise <promise>${toTerminalText(status.loop.promise)}</promise>, session ${toTerminalText(status.loop.session ?? "unclaimed")}\n  ${toTerminalText(status.loop.prompt)}`
            : "loop: none running",
          ...status.sessions.map(
            (s) =>
              `session ${toTerminalText(s.id)}: ${s.consecutive} continuations in a row; per phase ${
                Object.entries(s.byPhase)
                  .map(([p, n]) => `${toTerminalText(p)} ${n}`)
                  .join(", ") || "none"
              }`,
          ),
        ];
        if (status.cancel)
          lines.push(c.dim(`last cancel: ${status.cancel.at}`));
        return print(status, lines.join("\n"));
      }
      case "cancel": {
        const loop = runLoopCancel(root, deps);
        return print(
          { cancelled: loop },
          `${loop ? `${c.yellow("loop cancelled")} at iteration ${loop.iteration}/${loop.max}.` : "no loop was running."} The playbook continuation is paused until the next prompt.`,
        );
      }
      default:
        throw new PlaybookError(
          "E_USAGE",
          args.action === undefined
            ? `Missing the subcommand, expected ${USAGE}.`
            : `Unexpected subcommand ${args.action}, expected ${USAGE}.`,
          { hint: "Run `playbook loop --help`." },
        );
    }
  },
});
