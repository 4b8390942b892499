import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  takeGrant,
  writeGrant,
  type Grant,
} from "../../src/adapters/grant-store.ts";
import { createTempProject } from "../helpers/temp-project.ts";

const DIR = ".claude/playbook/grants";
const NOW = new Date("2026-11-21T10:00:00.000Z");

function grant(overrides: Partial<Grant> = {}): Grant {
  return {
    kind: "review",
    agentType: "reviewer",
    sessionId: "s1",
    command: "playbook review approve",
    at: "2026-11-21T09:59:30.000Z",
    ...overrides,
  };
}

function files(dir: string): string[] {
  return existsSync(`${dir}/${DIR}`) ? readdirSync(`${dir}/${DIR}`).sort() : [];
}

describe("grant store", () => {
  it("writes one file per grant and gives each out once", () => {
    const project = createTempProject();
    writeGrant(project.dir, grant());
    expect(files(project.dir)).toEqual([
      expect.stringMatching(/^review-[0-9a-f]{16}\.json$/),
    ]);
    expect(takeGrant(project.dir, "review", NOW)).toEqual(grant());
    expect(files(project.dir)).toEqual([]);
    expect(takeGrant(project.dir, "review", NOW)).toBeNull();
  });

  it("takes the oldest usable grant of the kind asked for", () => {
    const project = createTempProject();
    writeGrant(
      project.dir,
      grant({ command: "newer", at: "2026-11-21T09:59:50.000Z" }),
    );
    writeGrant(
      project.dir,
      grant({ command: "older", at: "2026-11-21T09:59:00.000Z" }),
    );
    writeGrant(
      project.dir,
      grant({ kind: "crit", agentType: "critic", command: "crit" }),
    );
    expect(takeGrant(project.dir, "review", NOW)?.command).toBe("older");
    expect(takeGrant(project.dir, "review", NOW)?.command).toBe("newer");
    expect(takeGrant(project.dir, "review", NOW)).toBeNull();
    expect(takeGrant(project.dir, "crit", NOW)?.agentType).toBe("critic");
  });

  it.each([
    ["older than the limit", "2026-11-21T09:57:59.000Z"],
    ["far in the future", "2026-11-21T10:01:00.000Z"],
    ["not a date", "soon"],
  ])("deletes a grant made %s", (_name, at) => {
    const project = createTempProject();
    writeGrant(project.dir, grant({ at }));
    expect(takeGrant(project.dir, "review", NOW)).toBeNull();
    expect(files(project.dir)).toEqual([]);
  });

  it("honours a custom age limit", () => {
    const project = createTempProject();
    writeGrant(project.dir, grant({ at: "2026-11-21T09:59:55.000Z" }));
    expect(takeGrant(project.dir, "review", NOW, 1_000)).toBeNull();
    writeGrant(project.dir, grant({ at: "2026-11-21T09:59:55.000Z" }));
    expect(takeGrant(project.dir, "review", NOW, 10_000)).not.toBeNull();
  });

  it("deletes corrupt grants of the kind and leaves other files alone", () => {
    const project = createTempProject({
      [`${DIR}/review-bad.json`]: "{",
      [`${DIR}/review-shape.json`]: JSON.stringify({
        kind: "review",
        agentType: 3,
      }),
      [`${DIR}/review-mismatch.json`]: JSON.stringify(grant({ kind: "crit" })),
      [`${DIR}/crit-other.json`]: "{",
      [`${DIR}/README`]: "x",
    });
    expect(takeGrant(project.dir, "review", NOW)).toBeNull();
    expect(files(project.dir)).toEqual(["README", "crit-other.json"]);
  });

  it("answers null when there is no grants folder", () => {
    expect(takeGrant(createTempProject().dir, "crit", NOW)).toBeNull();
  });
});
