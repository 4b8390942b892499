/**
 * Fake secrets for the secret scan's tests: obviously fake ("Fake" spelt out in each), yet shaped so that the rules
 * match them. Each is put together from parts when the test runs, so no file of this repository holds one whole:
 * secret scanners that read the repository (push protection, CI) have nothing to flag.
 */
const join = (...parts: string[]) => parts.join("");

/** `AWS_SECRET_ACCESS_KEY`, the name the AWS rule looks for before the value. */
export const AWS_SECRET_NAME = ["AWS", "SECRET", "ACCESS", "KEY"].join("_");

/** 40 characters, as an AWS secret access key has. */
export const FAKE_AWS_SECRET = "Fake".repeat(10);

/** `ghp_` and 36 characters. */
export const FAKE_GITHUB_TOKEN = join("gh", "p_", "Fake0".repeat(7), "F");

/** `npm_` and 36 characters. */
export const FAKE_NPM_TOKEN = join("np", "m_", "Fake1".repeat(7), "F");

/** A PEM block with an OpenSSH key's magic bytes and 120 characters of base64 that say "Fake". */
export const FAKE_PRIVATE_KEY = [
  join("-----BEGIN OPENSSH ", "PRIVATE KEY-----"),
  join("b3BlbnNzaC1rZXktdjE", "AFakeKeyFakeKey".repeat(4)),
  "FakeKeyFakeKeyFakeKeyFakeKeyFakeKeyFakeKeyFakeKeyFakeKey",
  join("-----END OPENSSH ", "PRIVATE KEY-----"),
].join("\n");

/** `AWS_SECRET_ACCESS_KEY=<40 characters>`, one line of a `config.env`. */
export const AWS_SECRET_LINE = `${AWS_SECRET_NAME}=${FAKE_AWS_SECRET}`;
