// `npm run demo`: the main job on the embedded default. Copies plan/template/ into a temporary project, makes the
// first example of plan/template/playbook-examples.md its active playbook, then runs the built CLI on it.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

const root = join(import.meta.dirname, "..");
const require = createRequire(import.meta.url);
const { parsePlaybook, setStateField } = require(
  join(root, "dist", "parser.cjs"),
);
const cli = join(root, "dist", "cli.mjs");

const project = mkdtempSync(join(tmpdir(), "playbook-demo-"));
const keep = process.argv.includes("--keep");
try {
  cpSync(join(root, "plan", "template"), join(project, "plan", "template"), {
    recursive: true,
  });
  const examples = readFileSync(
    join(project, "plan", "template", "playbook-examples.md"),
    "utf8",
  );
  const example = /^~~~markdown\r?\n([\s\S]*?)^~~~\s*$/m.exec(examples)?.[1];
  if (!example)
    throw new Error(
      "plan/template/playbook-examples.md has no ~~~markdown example block",
    );
  const playbook = parsePlaybook(example, "example.md").value;
  const name = playbook.meta.project ?? "example";
  const active = `plan/playbook-${name}.md`;
  writeFileSync(join(project, active), example);

  let state = readFileSync(
    join(project, "plan", "template", "state-initial.md"),
    "utf8",
  );
  for (const [section, key, value] of [
    ["playbook", "active", active],
    ["playbook", "branch", playbook.meta.branch],
    ["goal", "phase", playbook.phases[0]?.id ?? null],
    ["goal", "status", "in_progress"],
  ]) {
    const result = setStateField(state, section, key, value);
    if (!result.ok) throw new Error(result.reason);
    state = result.text;
  }
  writeFileSync(join(project, "state.md"), state);

  const run = (title, args) => {
    process.stdout.write(
      `\n\u001b[1m$ playbook ${args.join(" ")}\u001b[0m   # ${title}\n`,
    );
    const result = spawnSync(
      process.execPath,
      [cli, ...args, "--cwd", project],
      { stdio: "inherit" },
    );
    return result.status ?? 1;
  };
  process.stdout.write(
    `Demo project: ${project}\n(state.md from plan/template/state-initial.md, ${active} from playbook-examples.md)\n`,
  );
  const lint = run("check state.md and every playbook", ["lint"]);
  run("where the work stands", ["status"]);
  process.stdout.write(
    lint === 0
      ? "\nThe example playbook is valid. Run `npm run demo -- --keep` to keep the project and try edits on it.\n"
      : "\nThe example playbook has lint errors (see above).\n",
  );
  process.exitCode = lint;
} finally {
  if (keep) process.stdout.write(`Kept ${project}\n`);
  else rmSync(project, { recursive: true, force: true });
}
