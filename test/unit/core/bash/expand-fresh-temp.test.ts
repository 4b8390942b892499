import { describe, expect, it } from "vitest";
import {
  expandFreshTemp,
  freshTempFolder,
  showFreshTemp,
} from "../../../../src/core/bash/expand-fresh-temp.ts";
import { expandTilde } from "../../../../src/core/bash/expand-tilde.ts";
import { FRESH_TEMP } from "../../../../src/core/bash/fresh-temp-call.ts";

const F = FRESH_TEMP;

describe("freshTempFolder", () => {
  it.each([
    ["/tmp", "/tmp"],
    ["/var/folders/x/T/", "/var/folders/x/T"],
    [null, null],
    ["", null],
    ["/tmp/with space", null],
    ["/tmp/*", null],
    // Inside the project a new name could still match a guarded pattern (`plan/playbook-*.md`).
    ["/repo", null],
    ["/repo/plan", null],
    ["/repository", "/repository"],
  ])("%s → %s", (tmpDir, expected) => {
    expect(freshTempFolder(tmpDir, "/repo")).toBe(expected);
  });
});

describe("expandFreshTemp", () => {
  it.each([
    [F, "/tmp/playbook-fresh-mktemp"],
    [`${F}/out.txt`, "/tmp/playbook-fresh-mktemp/out.txt"],
    [`${F}/a/./b`, "/tmp/playbook-fresh-mktemp/a/./b"],
    [`${F}/$XARGS`, "/tmp/playbook-fresh-mktemp/$XARGS"],
    // Still a variable: unknown, anywhere below the working directory.
    [`${F}/../state.md`, "$(mktemp)/../state.md"],
    [`${F}/a/../../state.md`, "$(mktemp)/a/../../state.md"],
    [`${F}x`, "$(mktemp)x"],
    [`x${F}`, "x$(mktemp)"],
  ])("%s → %s", (path, expected) => {
    expect(expandFreshTemp(path, "/tmp")).toBe(expected);
  });

  it("leaves the marker unknown without a temp folder", () => {
    expect(expandFreshTemp(`${F}/out`, null)).toBe("$(mktemp)/out");
  });

  it("is what expandTilde does with the marker", () => {
    expect(expandTilde(`${F}/out`, "/repo", "/home/dev", "/repo", "/tmp")).toBe(
      "/tmp/playbook-fresh-mktemp/out",
    );
    expect(expandTilde(`${F}/out`, "/repo", "/home/dev")).toBe("$(mktemp)/out");
  });

  it("spells the marker for messages", () => {
    expect(showFreshTemp(`rm -rf ${F}/..`)).toBe("rm -rf $(mktemp)/..");
    expect(showFreshTemp("rm -rf x")).toBe("rm -rf x");
  });
});
