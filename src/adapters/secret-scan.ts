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
 * `.env`). Its `secretlint-disable` comments are not honoured: a comment in the scanned file, which the agent can
 * write, does not silence the scan.
 */
const CONFIG: SecretLintCoreConfig = {
  rules: [
    {
      id: recommended.meta.id,
      rule: recommended,
      rules: [{ id: "@secretlint/secretlint-rule-filter-comments", disabled: true }],
    },
    { id: noDotenv.meta.id, rule: noDotenv },
  ],
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
