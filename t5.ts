import { readFileSync } from "node:fs";
import remarkFrontmatter from "remark-frontmatter";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
const t = readFileSync("test/fixtures/playbooks/large-1000-subtasks.md", "utf8");
for (const [name, p] of [
  ["parse", unified().use(remarkParse)],
  ["parse+gfm", unified().use(remarkParse).use(remarkGfm)],
  ["parse+fm", unified().use(remarkParse).use(remarkFrontmatter, ["yaml"])],
] as const) {
  const s = performance.now(); (p as any).parse(t); console.log(name, Math.round(performance.now() - s));
}
const half = t.split("\n").slice(0, 3800).join("\n");
let s = performance.now(); unified().use(remarkParse).parse(half); console.log("half", Math.round(performance.now() - s));
