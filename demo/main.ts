// `npm run demo`: the Golden Path end to end on a sample project, driven by the real Claude Code CLI (pinned,
// headless) against a scripted model, in a project where `playbook init` installed playbook from the packed tarball.
// `--github` archives through the local GitHub-compatible server instead of a local merge; `--keep` keeps the project;
// `--summary <file>` writes the numbers as JSON (the benchmark reads them).
import { parseArgs } from "node:util";
import { playDemo } from "./play-demo.ts";

const { values } = parseArgs({
  options: {
    github: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    summary: { type: "string" },
  },
});
const run = await playDemo({
  github: values.github,
  summary: values.summary,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
process.exitCode = await run.close(values.keep);
