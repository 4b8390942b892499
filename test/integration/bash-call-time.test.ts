import { describe, expect, it } from "vitest";
import { readBashCall } from "../../src/app/hook/read-bash-call.ts";
import { analyzeBash } from "../../src/core/bash/analyze-bash.ts";
import { isOutOfTime, OutOfTime } from "../../src/core/time/deadline.ts";
import { createGuardedRepo } from "../helpers/guarded-repo.ts";

// Claude Code runs a call unchecked once the hook has not answered in 10 s, so a long line must not be read to its
// end on borrowed time. The clock here is the test's: it says the time is up on a given question, on any machine.

/** Two thousand deletions in one line (the hook refused one of forty thousand, under the 1 MB limit, for time). */
const LINE = Array.from(
  { length: 2000 },
  (_, i) => `rm -rf build/d${i}/*`,
).join("; ");

/** A check of the time that counts its questions and says the time is up on the `upAt`th. */
function clock(upAt = Infinity) {
  let asked = 0;
  return {
    checkTime: () => {
      asked += 1;
      if (asked >= upAt) throw new OutOfTime(6000);
    },
    asked: () => asked,
  };
}

function read(checkTime: () => void) {
  const repo = createGuardedRepo();
  return readBashCall(
    {
      projectDir: repo.dir,
      cwd: repo.dir,
      homeDir: null,
      tmpDir: null,
      shellTempDirs: [],
    },
    LINE,
    checkTime,
  );
}

describe("reading a Bash call asks the time throughout", () => {
  it("with time enough, every command of a long line is read, and the time was asked at each", () => {
    const time = clock();
    const call = read(time.checkTime);
    expect(call.bash.commands).toHaveLength(2000);
    expect(
      call.changes.filter((c) => c.op === "delete" && c.glob !== undefined),
    ).toHaveLength(2000);
    expect(time.asked()).toBeGreaterThanOrEqual(2000);
  });

  it("when the time is up while the line is parsed, or while its targets are matched, the reading stops with OutOfTime: no partial answer lets the line through", () => {
    const parsing = clock();
    analyzeBash(LINE, parsing.checkTime);
    const total = clock();
    read(total.checkTime);
    expect(total.asked()).toBeGreaterThan(parsing.asked());
    for (const upAt of [
      Math.floor(parsing.asked() / 2),
      Math.floor((parsing.asked() + total.asked()) / 2),
    ]) {
      const time = clock(upAt);
      let thrown: unknown = null;
      try {
        read(time.checkTime);
      } catch (error) {
        thrown = error;
      }
      expect(isOutOfTime(thrown), `time up at question ${upAt}`).toBe(true);
      expect(time.asked()).toBe(upAt);
    }
  });
});
