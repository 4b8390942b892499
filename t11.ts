import { readFileSync } from "node:fs";
import { parsePlaybook } from "./src/core/parse/parse-playbook.ts";
const big = readFileSync("test/fixtures/playbooks/large-1000-subtasks.md", "utf8");
for (let i = 0; i < 3; i++) parsePlaybook(big, "x");
