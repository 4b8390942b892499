/**
 * `sha256:<hex>` of a text, the form records and fingerprints use. `node:crypto` is loaded on the first call, not at
 * import: the hook bundle needs it only on a tick.
 */
export function sha256Text(text: string): string {
  const { createHash } = process.getBuiltinModule("node:crypto");
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

/** The SHA-256 of bytes as bare hex, the name a snapshot's blob is stored under. */
export function sha256Hex(bytes: string | Uint8Array): string {
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(bytes).digest("hex");
}
