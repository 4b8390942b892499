import { resolve } from "node:path";
import { defineCommand } from "citty";
import { writeTextAtomic } from "../../adapters/atomic-write.ts";
import {
  readProofPage,
  spelledFor,
} from "../../app/view/read-proof-page.ts";
import { PlaybookError } from "../../core/errors.ts";
import { renderProofPage } from "../../core/records/proof-html.ts";
import { createColors } from "../print/colors.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const reportCommand = defineCommand({
  meta: {
    name: "report",
    description:
      "Write the active playbook's proof as one self-contained HTML page (for a CI artifact): claims, proof, staleness",
  },
  args: {
    ...sharedArgs,
    html: {
      type: "string",
      description: "The page to write",
      valueHint: "file",
    },
  },
  run({ args }) {
    if (args.html === undefined || args.html === "")
      throw new PlaybookError("E_USAGE", "`playbook report` needs --html <file>.", {
        hint: "Write `playbook report --html proof.html`.",
      });
    const root = projectRoot(args);
    const target = resolve(process.cwd(), args.html);
    const page = readProofPage(root, new Date());
    writeTextAtomic(target, spelledFor(root)(renderProofPage(page)));
    const out = (text: string) => process.stdout.write(`${text}\n`);
    if (args.json)
      return out(
        JSON.stringify({ file: target, playbook: page.proof?.playbook ?? null }),
      );
    out(
      `${createColors().green("done")}: ${page.proof ? `the proof of ${page.proof.playbook}` : "no active playbook"} written to ${target}.`,
    );
  },
});
