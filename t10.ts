import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import remarkFrontmatter from "remark-frontmatter";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { parseMarkdown } from "./src/core/parse/markdown.ts";
import { parsePlaybook } from "./src/core/parse/parse-playbook.ts";
import { renderLargePlaybook } from "./test/helpers/large-playbook.ts";
const whole = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ["yaml"]);
for (const t of [readFileSync("/tmp/example.md", "utf8"), renderLargePlaybook(5, 20), "---\n# c\ntitle: x\n---\n# A\ntext\n```\n# not\n```\n<!--\n# no\n-->\n## B\n- a\n  - b\n### C\r\nx\r\n"]) {
  const a = JSON.parse(JSON.stringify(whole.parse(t))); const b = JSON.parse(JSON.stringify(parseMarkdown(t)));
  console.log("equal:", isDeepStrictEqual(a, b));
  if (!isDeepStrictEqual(a, b)) { console.log(JSON.stringify(a.position), JSON.stringify(b.position)); }
}
const big = readFileSync("test/fixtures/playbooks/large-1000-subtasks.md", "utf8");
let s = performance.now(); parsePlaybook(big, "x"); console.log("cold", Math.round(performance.now() - s));
s = performance.now(); parsePlaybook(big, "x"); console.log("warm", Math.round(performance.now() - s));
