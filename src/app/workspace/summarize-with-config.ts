import type { Summarize } from "../../adapters/parse-cache.ts";
import { summarizeDocument } from "../../core/parse/summarize-document.ts";
import { readLintConfig } from "./read-lint-config.ts";

/**
 * A summarizer that applies the project's lint options (`.claude/playbook.json`), read once, so cached
 * diagnostics match what `playbook lint` reports. The parse cache keys entries by the config file's stamp.
 */
export function summarizeWithConfig(projectDir: string): Summarize {
  let options: ReturnType<typeof readLintConfig>["options"] | undefined;
  return (kind, text, file) => {
    options ??= readLintConfig(projectDir).options;
    return summarizeDocument(kind, text, file, options);
  };
}
