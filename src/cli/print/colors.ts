import pc from "picocolors";

export type Colors = ReturnType<typeof pc.createColors>;

/**
 * Whether to colour output: never with a non-empty NO_COLOR; otherwise FORCE_COLOR decides when set and non-empty
 * (`0` and `false` turn colour off, anything else on); otherwise colour a terminal that is not `TERM=dumb`, or CI.
 * picocolors alone treats any FORCE_COLOR, even `0`, as on.
 */
function isColorEnabled(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (env["NO_COLOR"]) return false;
  const force = env["FORCE_COLOR"];
  if (force) return force !== "0" && force.toLowerCase() !== "false";
  return (isTTY && env["TERM"] !== "dumb") || Boolean(env["CI"]);
}

/** Colours for `stream` (stdout unless told), on or off as {@link isColorEnabled} decides for this process. */
export function createColors(
  stream: { isTTY?: boolean } = process.stdout,
): Colors {
  return pc.createColors(isColorEnabled(process.env, stream.isTTY === true));
}

const ANSI_SGR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** `text` without colour codes: for text coloured by a library we cannot switch off (citty). */
export function stripColors(text: string): string {
  return text.replace(ANSI_SGR, "");
}
