/** A file the archive refuses to commit, and why. */
export interface SecretFinding {
  path: string;
  reason: string;
}

/** Names that hold secrets by convention; templates of them (`.env.example`) are meant to be committed. */
const SECRET_NAMES: readonly [RegExp, string][] = [
  [
    /(?:^|\/)\.env(?:\.(?!example$|sample$|template$|dist$)[^/]*)?$/i,
    "an environment file",
  ],
  [/\.(?:pem|key|p12|pfx|jks|keystore)$/i, "a key or certificate file"],
  [/(?:^|\/)id_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?$/, "an SSH key"],
  [
    /(?:^|\/)(?:\.npmrc|\.pypirc|\.netrc|credentials(?:\.json)?|secrets?\.(?:json|ya?ml))$/i,
    "a credentials file",
  ],
];

/** Content that is a secret whatever the file is called. */
const SECRET_CONTENT: readonly [RegExp, string][] = [
  [
    /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----/,
    "a private key",
  ],
  [
    /\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{60,}\b/,
    "a GitHub token",
  ],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, "an AWS access key"],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}\b/, "a Slack token"],
  [
    /\bsk-(?:live|proj|ant)-[A-Za-z0-9_-]{20,}\b|\bsk_live_[A-Za-z0-9]{20,}\b/,
    "an API secret key",
  ],
  [/\bglpat-[A-Za-z0-9_-]{20,}\b/, "a GitLab token"],
  [/\bnpm_[A-Za-z0-9]{36}\b/, "an npm token"],
];

/**
 * The files among those about to be committed that look like secrets (docs/archive.md step 1): by name (`.env*`, keys,
 * certificates, credential files) or by content (private keys, well-known token formats). `content` is null for a
 * deletion or a file that could not be read; only its name is judged then.
 */
export function findSecrets(
  files: readonly { path: string; content: string | null }[],
): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const file of files) {
    const named = SECRET_NAMES.find(([pattern]) => pattern.test(file.path));
    if (named) {
      findings.push({ path: file.path, reason: named[1] });
      continue;
    }
    if (file.content === null) continue;
    const found = SECRET_CONTENT.find(([pattern]) =>
      pattern.test(file.content ?? ""),
    );
    if (found)
      findings.push({ path: file.path, reason: `it contains ${found[1]}` });
  }
  return findings;
}
