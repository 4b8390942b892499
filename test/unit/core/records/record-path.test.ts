import { describe, expect, it } from "vitest";
import {
  recordFileName,
  recordFolderName,
} from "../../../../src/core/records/record-path.ts";

describe("record paths", () => {
  it.each([
    ["plan/playbook-login.md", "plan__playbook-login.md"],
    ["plan/sub/playbook-x.md", "plan__sub__playbook-x.md"],
    ["plan\\playbook-x.md", "plan__playbook-x.md"],
    ["plan/play book.md", "plan__play%20book.md"],
    ["..", "%2E."],
  ])("folder of %s is %s", (playbook, expected) => {
    expect(recordFolderName(playbook)).toBe(expected);
  });

  it.each([
    [
      { kind: "review", playbook: "p", target: "playbook" } as const,
      "review.playbook.json",
    ],
    [
      { kind: "critic", playbook: "p", target: "p1" } as const,
      "critic.p1.json",
    ],
    [
      {
        kind: "evidence",
        playbook: "p",
        target: "p1.1",
        validation: "technical",
      } as const,
      "evidence.p1.1.technical.json",
    ],
    [
      { kind: "confirmation", playbook: "p", target: "p1.1" } as const,
      "confirmation.p1.1.json",
    ],
    [
      { kind: "critic", playbook: "p", target: "../../x" } as const,
      "critic.%2E.%2F..%2Fx.json",
    ],
  ])("file of %j is %s", (key, expected) => {
    expect(recordFileName(key)).toBe(expected);
  });
});
