import { summarizePlaybook, summarizeState } from "../cache/summary.ts";
import type { DocumentKind, DocumentSummary } from "../model/summary.ts";
import {
  validatePlaybook,
  type PlaybookRuleOptions,
} from "../validate/validate-playbook.ts";
import type { ChunkCache } from "./chunk-tree.ts";
import { parsePlaybook } from "./parse-playbook.ts";
import { parseState } from "./parse-state.ts";

/**
 * Parses and lints one document into its cacheable summary. This is the only entry the hook path lazy-loads.
 * `chunks` keeps a playbook's chunk trees between parses; state.md is small and parsed whole.
 */
export function summarizeDocument(
  kind: DocumentKind,
  text: string,
  file: string,
  options: PlaybookRuleOptions = {},
  chunks?: ChunkCache,
): DocumentSummary {
  if (kind === "state") {
    const parsed = parseState(text, file);
    return summarizeState(parsed.value, parsed.diagnostics);
  }
  const parsed = parsePlaybook(text, file, chunks);
  return summarizePlaybook(parsed.value, [
    ...parsed.diagnostics,
    ...validatePlaybook(parsed.value, file, options),
  ]);
}
