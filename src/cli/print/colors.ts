import pc from "picocolors";

export type Colors = ReturnType<typeof pc.createColors>;

/** Colours for stdout: off with NO_COLOR or when stdout is not a terminal, on with FORCE_COLOR. */
export function createColors(): Colors {
  return pc.createColors(pc.isColorSupported);
}
