import { describe, expect, it } from "vitest";
import { readFixture } from "../helpers/read-fixture.ts";

interface OpenApiDocument {
  openapi: string;
  info: unknown;
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

const read = (name: string) =>
  JSON.parse(readFixture(`github/${name}`)) as OpenApiDocument;

const subset = read("openapi-subset.json");
const copied = read("github-openapi-pulls-subset.json");

const operations = Object.entries(copied.paths).flatMap(([path, item]) =>
  Object.keys(item).map((method) => [path, method] as const),
);
const components = Object.entries(copied.components).flatMap(
  ([kind, entries]) =>
    Object.keys(entries).map((name) => [kind, name] as const),
);

describe("test/fixtures/github/openapi-subset.json", () => {
  it("comes from the same OpenAPI description as the copied pulls subset", () => {
    expect(subset.openapi).toBe(copied.openapi);
    expect(subset.info).toEqual(copied.info);
    expect(operations.length).toBeGreaterThanOrEqual(5);
    expect(components.length).toBeGreaterThanOrEqual(20);
  });

  it.each(operations)("holds %s %s exactly", (path, method) => {
    expect(subset.paths[path]?.[method]).toEqual(copied.paths[path]![method]);
  });

  it.each(components)("holds components.%s.%s exactly", (kind, name) => {
    expect(subset.components[kind]?.[name]).toEqual(
      copied.components[kind]![name],
    );
  });
});
