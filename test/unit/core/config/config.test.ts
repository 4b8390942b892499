import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CONFIG_SCHEMA_FILE,
  renderConfigJsonSchema,
} from "../../../../scripts/gen-config-schema.ts";
import {
  defaultConfig,
  resolveConfig,
} from "../../../../src/core/config/config.ts";

describe("resolveConfig", () => {
  it("fills every default when there is no file", () => {
    expect(resolveConfig(undefined)).toEqual({
      config: defaultConfig(),
      problems: [],
    });
    expect(defaultConfig().loop).toEqual({
      continuation: true,
      maxIterations: 10,
      maxConsecutiveBlocks: 5,
      sameErrorLimit: 3,
      contextLimitPercent: 85,
    });
    expect(defaultConfig().context.maxBytes).toBe(1500);
  });

  it("applies what a valid file asks for and keeps the rest at the defaults", () => {
    const { config, problems } = resolveConfig({
      $schema: "./node_modules/playbook-kit/schema/playbook.schema.json",
      loop: { maxIterations: 4 },
      context: { prompt: false },
      archive: { mergeMethod: "squash", repository: "acme/app" },
    });
    expect(problems).toEqual([]);
    expect(config.loop.maxIterations).toBe(4);
    expect(config.loop.sameErrorLimit).toBe(3);
    expect(config.context).toEqual({
      sessionStart: true,
      prompt: false,
      maxBytes: 1500,
    });
    expect(config.archive.mergeMethod).toBe("squash");
    expect(config.archive.merge).toBe("auto");
    expect(config.archive.repository).toBe("acme/app");
  });

  it.each([
    [{ loop: { maxIterations: 0 } }, "loop.maxIterations", "loop"],
    [{ loop: { maxIterations: 2.5 } }, "loop.maxIterations", "loop"],
    [{ context: { maxBytes: "big" } }, "context.maxBytes", "context"],
    [
      { archive: { mergeMethod: "fast-forward" } },
      "archive.mergeMethod",
      "archive",
    ],
    [{ archive: { merge: "sometimes" } }, "archive.merge", "archive"],
    [
      { archive: { repository: "not a repo" } },
      "archive.repository",
      "archive",
    ],
    [{ lint: { bannedPhrases: "properly" } }, "lint.bannedPhrases", "lint"],
    [{ intent: [] }, "intent", "intent"],
  ])(
    "a refused value (%j) names %s and only that section falls back",
    (json, where, section) => {
      const { config, problems } = resolveConfig(json);
      expect(problems).toHaveLength(1);
      expect(problems[0]?.severity).toBe("error");
      expect(problems[0]?.message).toContain(`\`${where}\``);
      expect(problems[0]?.message).toContain("defaults");
      expect(config[section as keyof typeof config]).toEqual(
        defaultConfig()[section as keyof typeof config],
      );
    },
  );

  it("refuses unknown keys with the key it most likely meant, also inside a section, and keeps valid siblings", () => {
    const { config, problems } = resolveConfig({
      lop: {},
      loop: { maxIteration: 3, continuation: false },
      zzz: 1,
    });
    expect(problems.map((p) => [p.severity, p.path.join(".")])).toEqual([
      ["error", "lop"],
      ["error", "zzz"],
      ["error", "loop.maxIteration"],
    ]);
    expect(problems[0]?.message).toBe(
      "Unexpected key `lop`, expected one of lint, context, intent, loop, session, logging, archive, verify, security. Did you mean `loop`? An unknown key is ignored: fix its spelling.",
    );
    expect(problems[1]?.message).not.toContain("Did you mean");
    expect(problems[2]?.message).toContain(
      "Did you mean `loop.maxIterations`?",
    );
    expect(config.loop.continuation).toBe(false);
  });

  it("refuses a pattern that is not a regular expression, and that section falls back", () => {
    const { config, problems } = resolveConfig({
      intent: { work: ["\\bship it\\b", "(unclosed"], enabled: false },
    });
    expect(problems).toEqual([
      {
        path: ["intent", "work", 1],
        severity: "error",
        message: expect.stringMatching(
          /^Unexpected "\(unclosed" at `intent\.work\.1`, expected a regular expression \(.+\)\. The defaults of `intent` apply until it is fixed\.$/,
        ) as unknown,
      },
    ]);
    expect(config.intent).toEqual(defaultConfig().intent);
  });

  it("refuses a file that is not an object and applies the defaults", () => {
    for (const json of [[], 3, "x", null]) {
      const { config, problems } = resolveConfig(json);
      expect(config).toEqual(defaultConfig());
      expect(problems[0]?.severity).toBe("error");
    }
  });
});

describe("schema/playbook.schema.json", () => {
  it("is generated from the schema the code validates with (run `npm run gen:schema` after a change)", () => {
    expect(JSON.parse(readFileSync(CONFIG_SCHEMA_FILE, "utf8"))).toEqual(
      JSON.parse(renderConfigJsonSchema()),
    );
  });

  it("flags unknown keys and carries the defaults for editors", () => {
    const schema = JSON.parse(renderConfigJsonSchema()) as {
      additionalProperties: boolean;
      properties: Record<
        string,
        { properties: Record<string, { default?: unknown }> }
      >;
    };
    expect(schema.additionalProperties).toBe(false);
    expect(
      schema.properties["loop"]?.properties["maxIterations"]?.default,
    ).toBe(10);
  });
});
