// Writes test/fixtures/playbooks/large-1000-subtasks.md: 50 phases x 20 subtasks, deterministic.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderLargePlaybook } from "../test/helpers/large-playbook.ts";

const out = join(
  import.meta.dirname,
  "..",
  "test",
  "fixtures",
  "playbooks",
  "large-1000-subtasks.md",
);
writeFileSync(out, renderLargePlaybook(50, 20));
process.stdout.write(`wrote ${out}\n`);
