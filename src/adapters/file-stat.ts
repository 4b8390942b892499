import { mkdirSync, statSync, writeFileSync, type BigIntStats } from "node:fs";
import { dirname } from "node:path";

/**
 * A file's identity and state as one string: device, inode, size, mode, and modification and change times in
 * nanoseconds. While it is the same the content is too: any write sets the change time, which no process can set back.
 */
export function statId(stat: BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mode}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/**
 * The file system's time now, as it stamps files (its clock may be coarser than the system's): the change time of
 * `probe`, written empty. A file last written before it may be taken by its stat later; one written in the same tick
 * could be written again within that tick after it was read, keeping its stat (git's "racily clean" rule). Null when
 * `probe` cannot be written (then nothing is taken by its stat).
 */
export function fileClock(probe: string): bigint | null {
  try {
    mkdirSync(dirname(probe), { recursive: true });
    writeFileSync(probe, "");
    return statSync(probe, { bigint: true }).ctimeNs;
  } catch {
    return null;
  }
}

/** Whether `stat` was last written before `clock` (see `fileClock`), so its stat may stand for its content later. */
export function isSettled(stat: BigIntStats, clock: bigint | null): boolean {
  return clock !== null && stat.mtimeNs < clock && stat.ctimeNs < clock;
}
