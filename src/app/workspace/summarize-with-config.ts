import { openChunkCache } from "../../adapters/lint-cache.ts";
import type { Summarize } from "../../adapters/parse-cache.ts";
import { summarizeDocument } from "../../core/parse/summarize-document.ts";
import { readLintConfig } from "./read-lint-config.ts";

/**
 * A summarizer that applies the project's lint options (`.claude/playbook.json`), read once, so cached
 * diagnostics match what `playbook lint` reports. The parse cache keys entries by the config file's stamp. A
 * playbook is parsed with its chunk cache, so after an edit only the chunks it touched are parsed again.
 */
export function summarizeWithConfig(projectDir: string): Summarize {
  let options: ReturnType<typeof readLintConfig>["options"] | undefined;
  return (kind, text, file) => {
    options ??= readLintConfig(projectDir).options;
    if (kind !== "playbook")
      return summarizeDocument(kind, text, file, options);
    const chunks = openChunkCache(projectDir, file);
    const summary = summarizeDocument(kind, text, file, options, chunks);
    chunks.save();
    return summary;
  };
}
