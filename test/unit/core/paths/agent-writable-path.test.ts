import { isAbsolute } from "node:path";
import { describe, expect, it } from "vitest";
import {
  agentWritablePathEntries,
  withoutAgentWritable,
} from "../../../../src/core/paths/agent-writable-path.ts";
import { withAgentPath } from "../../../../src/adapters/trusted-path-env.ts";

const find = (path: string) =>
  agentWritablePathEntries(path, {
    projectDir: "/home/u/proj",
    tempDirs: ["/tmp", "/var/tmp/"],
    delimiter: ":",
    isAbsolute,
  });

describe("PATH entries the agent could plant a program in", () => {
  it("finds empty, relative, project and temp entries, and keeps the system's", () => {
    const path =
      "/home/u/proj/node_modules/.bin::bin:./x:/usr/bin:/tmp/tools:/var/tmp:/home/u/project-other/bin:/home/u/.local/bin";
    expect(find(path)).toEqual([
      "/home/u/proj/node_modules/.bin",
      "",
      "bin",
      "./x",
      "/tmp/tools",
      "/var/tmp",
    ]);
    expect(withoutAgentWritable(path, find(path), ":")).toBe(
      "/usr/bin:/home/u/project-other/bin:/home/u/.local/bin",
    );
  });

  it("a validation keeps the agent's PATH inside the sandbox, quoted for the shell", () => {
    expect(withAgentPath("npm test", {})).toBe("npm test");
    expect(
      withAgentPath("npm test", { PLAYBOOK_AGENT_PATH: "/p/bin:/it's" }),
    ).toBe(`PATH='/p/bin:/it'\\''s'; export PATH; npm test`);
  });
});
