import { parse, postprocess, preprocess } from "micromark";
import { renderLargePlaybook } from "./test/helpers/large-playbook.ts";
for (const n of [10, 20, 40]) {
  const t = renderLargePlaybook(n, 20);
  let s = performance.now(); const ev = parse().document().write(preprocess()(t, undefined, true)); const a = performance.now() - s;
  s = performance.now(); postprocess(ev); const b = performance.now() - s;
  console.log(n * 20, Math.round(a), Math.round(b));
}
