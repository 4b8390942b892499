// Writes the Claude Code plugin layout of the package (.claude-plugin/, hooks/, agents/, skills/, commands/) from
// the same templates `playbook init` renders. `npm run gen:plugin`; a test fails when the checked-in copy is stale.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { renderPluginFiles } from "../src/app/scaffold/plugin-files.ts";

const root = join(import.meta.dirname, "..");
const { version } = JSON.parse(
  readFileSync(join(root, "package.json"), "utf8"),
) as { version: string };
for (const dir of ["agents", "skills", "commands", "hooks"])
  rmSync(join(root, dir), { recursive: true, force: true });
const files = renderPluginFiles(root, version);
for (const [path, text] of files) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}
process.stdout.write(`wrote ${files.size} plugin files\n`);
