import { describe, expect, it } from "vitest";
import { scanForSecrets } from "../../../src/adapters/secret-scan.ts";
import { describeSecretFinding } from "../../../src/core/archive/secrets.ts";
import {
  AWS_SECRET_LINE,
  AWS_SECRET_NAME,
  FAKE_AWS_SECRET,
  FAKE_GITHUB_TOKEN,
  FAKE_NPM_TOKEN,
  FAKE_PRIVATE_KEY,
} from "../../helpers/fake-secrets.ts";

// The rule engine behind the archive's secret scan (secretlint's recommended rules and no-dotenv), on text in memory.

const scan = async (path: string, content: string | null) =>
  (await scanForSecrets([{ path, content }])).map((f) => ({
    where: `${f.path}:${f.line}`,
    rule: f.rule,
    kind: f.kind,
  }));

describe("scanForSecrets", () => {
  it.each([
    [
      "an AWS secret access key in config.env",
      "config.env",
      `# deploy settings\nREGION=eu-west-1\n${AWS_SECRET_LINE}\n`,
      { where: "config.env:3", rule: "aws", kind: "AWSSecretAccessKey" },
    ],
    [
      "a GitHub token in code",
      "src/client.ts",
      `import x from "y";\n\nexport const token = "${FAKE_GITHUB_TOKEN}";\n`,
      { where: "src/client.ts:3", rule: "github" },
    ],
    [
      "an npm token in .npmrc",
      ".npmrc",
      `registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${FAKE_NPM_TOKEN}\n`,
      { where: ".npmrc:2", rule: "npm" },
    ],
    [
      "a private key block",
      "deploy/key.txt",
      `notes\n${FAKE_PRIVATE_KEY}\n`,
      { where: "deploy/key.txt:2", rule: "privatekey" },
    ],
    [
      "a file named .env",
      ".env",
      "DEBUG=1\n",
      { where: ".env:1", rule: "no-dotenv" },
    ],
  ])("finds %s, at its line", async (_, path, content, expected) => {
    expect(await scan(path, content)).toContainEqual(
      expect.objectContaining(expected),
    );
  });

  it.each([
    [
      "an .npmrc with only a registry",
      ".npmrc",
      "registry=https://registry.npmjs.org/\n",
    ],
    [
      ".env.example with placeholders",
      ".env.example",
      `${AWS_SECRET_NAME}=change-me\nAPI_KEY=\n`,
    ],
    [
      "docs that name a token's prefix",
      "docs/keys.md",
      "GitHub tokens start with ghp_ and are 40 characters long.\n",
    ],
    [
      "code that reads the environment",
      "src/env.ts",
      `export const key = process.env.${AWS_SECRET_NAME};\n`,
    ],
    [
      "a placeholder private key",
      "docs/pem.md",
      "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\n",
    ],
    ["a deleted or binary file", "keys/store.p12", null],
  ])("finds nothing in %s", async (_, path, content) => {
    expect(await scan(path, content)).toEqual([]);
  });

  it("a secretlint-disable comment, which the agent could write, does not silence it", async () => {
    const content = `// secretlint-disable\nexport const t = "${FAKE_GITHUB_TOKEN}"; // secretlint-disable-line\n`;
    expect(await scan("src/t.ts", content)).toEqual([
      { where: "src/t.ts:2", rule: "github", kind: "GITHUB_TOKEN" },
    ]);
  });

  it("says where and which rule, with the value masked", async () => {
    const [finding] = await scanForSecrets([
      { path: "config.env", content: `${AWS_SECRET_LINE}\n` },
    ]);
    expect(finding).toBeDefined();
    const text = describeSecretFinding(finding!);
    expect(text).toMatch(
      /^config\.env:1:\d+ .*\*\*\*\* \(rule aws, AWSSecretAccessKey\)$/,
    );
    expect(text).not.toContain(FAKE_AWS_SECRET.slice(0, 8));
    expect(JSON.stringify(finding)).not.toContain(FAKE_AWS_SECRET.slice(0, 8));
  });

  it("places a secret in a branch's additions at its line in the commit that added it", async () => {
    const commit = "c".repeat(40);
    const [finding] = await scanForSecrets([
      {
        path: "src/config.ts",
        content: `// first\nconst t = "${FAKE_GITHUB_TOKEN}";`,
        origins: [
          { line: 4, commit },
          { line: 12, commit },
        ],
      },
    ]);
    expect(finding).toMatchObject({ path: "src/config.ts", line: 12, commit });
  });
});
