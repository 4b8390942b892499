// `npm run bench:view`: only the proof page's figures (bench/view.ts), printed; `npm run bench` records them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { benchView } from "./view.ts";

const large = readFileSync(
  join(
    import.meta.dirname,
    "..",
    "test",
    "fixtures",
    "playbooks",
    "large-1000-subtasks.md",
  ),
  "utf8",
);
process.stdout.write(`${(await benchView(large, 3)).join("\n")}\n`);
