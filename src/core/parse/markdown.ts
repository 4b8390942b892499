import type { Root } from "mdast";
import remarkFrontmatter from "remark-frontmatter";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";

let processor: ReturnType<typeof createProcessor> | undefined;

function createProcessor() {
  return unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkFrontmatter, ["yaml"]);
}

/** Parses markdown into mdast with positions. The processor is built once per process. */
export function parseMarkdown(body: string): Root {
  processor ??= createProcessor();
  return processor.parse(body);
}
