import { readFileSync } from "node:fs";
import { parseMarkdown } from "./src/core/parse/markdown.ts";
import { parsePlaybook } from "./src/core/parse/parse-playbook.ts";
const t = readFileSync("test/fixtures/playbooks/large-1000-subtasks.md", "utf8");
let s = performance.now(); parseMarkdown(t); console.log("remark", performance.now() - s);
s = performance.now(); parseMarkdown(t); console.log("remark warm", performance.now() - s);
s = performance.now(); parsePlaybook(t, "x"); console.log("full", performance.now() - s);
