import remarkParse from "remark-parse";
import { unified } from "unified";
import { renderLargePlaybook } from "./test/helpers/large-playbook.ts";
const p = unified().use(remarkParse);
for (const n of [5, 10, 20, 40, 50]) {
  const t = renderLargePlaybook(n, 20);
  p.parse(t);
  const s = performance.now(); p.parse(t); console.log(n * 20, Math.round(performance.now() - s));
}
// one item with a deep list vs flat
const flat = Array.from({ length: 1000 }, (_, i) => `- a${i}\n  - b\n    - c`).join("\n");
let s = performance.now(); p.parse(flat); console.log("1000 nested one list", Math.round(performance.now() - s));
const sep = Array.from({ length: 1000 }, (_, i) => `- a${i}\n  - b\n    - c\n\npara\n`).join("\n");
s = performance.now(); p.parse(sep); console.log("1000 separate lists", Math.round(performance.now() - s));
