import { extname } from "node:path";
import { lintSource } from "@secretlint/core";
import { creator as noDotenv } from "@secretlint/secretlint-rule-no-dotenv";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig } from "@secretlint/types";
import {
  sortSecretFindings,
  toSecretFinding,
  type ScannedFile,
  type SecretFinding,
} from "../core/archive/secrets.ts";

/**
 * secretlint's recommended rules (each a maintained package: AWS, GCP, GitHub, GitLab, npm, Slack, Stripe, OpenAI,
 * Anthropic, private keys, basic auth in URLs, database connection strings, ...) and `no-dotenv` (a file named
 * `.env`). Its `secretlint-disable` comments (the preset's `filter-comments`) are not honoured: the scanned files are
 * the agent's to write, so a comment in them does not silence the scan. The preset's rules are registered one by
 * one, since secretlint ignores `disabled` on a rule inside a preset.
 */
const IGNORED_RULES = new Set(["@secretlint/secretlint-rule-filter-comments"]);
const CONFIG: SecretLintCoreConfig = {
  rules: [...recommended.rules, noDotenv]
    .filter((rule) => !IGNORED_RULES.has(rule.meta.id))
    .map((rule) => ({ id: rule.meta.id, rule })),
};

/**
 * The secrets in `files` (docs/archive.md, the secret scan), by file and line; a file whose content is null
 * (deleted, binary, unreadable) is not read. secretlint's own messages quote the value, so only the rule, its kind
 * and the place are kept.
 */
export async function scanForSecrets(
  files: readonly ScannedFile[],
): Promise<SecretFinding[]> {
  const findings: SecretFinding[] = [];
  for (const file of files) {
    if (file.content === null) continue;
    const result = await lintSource({
      source: {
        content: file.content,
        filePath: file.path,
        ext: extname(file.path),
        contentType: "text",
      },
      options: { config: CONFIG, maskSecrets: true, noPhysicFilePath: true },
    });
    for (const message of result.messages)
      findings.push(
        toSecretFinding(file, {
          rule: message.ruleId,
          kind: message.messageId || null,
          range: message.range,
        }),
      );
  }
  return sortSecretFindings(findings);
}
