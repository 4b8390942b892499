// Writes test/fixtures/github/openapi-subset.json: the operations the archive workflow calls, with every component
// they reference, from GitHub's official OpenAPI description as published in @octokit/openapi (api.github.com.json).
// The package is 385 MB unpacked, so it is not a dependency: download it once, e.g.
//   npm pack @octokit/openapi@23.0.2 && tar -xzf octokit-openapi-23.0.2.tgz package/generated/api.github.com.json
//   node scripts/extract-github-openapi.mjs package/generated/api.github.com.json 23.0.2
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

export const OPERATIONS = [
  "pulls/create",
  "pulls/list",
  "pulls/get",
  "pulls/update",
  "pulls/merge",
  "git/delete-ref",
  "repos/get",
  "repos/get-combined-status-for-ref",
  "checks/list-for-ref",
  "repos/get-branch-rules",
  "repos/get-content",
  "pulls/list-reviews",
];

/** The subset of `spec` that `operations` need, `$ref`s kept as they are. */
export function extractSubset(spec, operations) {
  const paths = {};
  const components = {};
  const pending = [];
  const seen = new Set();
  const collect = (node) => {
    if (Array.isArray(node)) return node.forEach(collect);
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && !seen.has(value)) {
        seen.add(value);
        pending.push(value);
      } else collect(value);
    }
  };
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operations.includes(operation?.operationId)) continue;
      paths[path] ??= {};
      paths[path][method] = operation;
      collect(operation);
    }
  }
  while (pending.length > 0) {
    const ref = pending.pop();
    const [, , kind, name] = ref.split("/");
    const value = spec.components[kind][name];
    components[kind] ??= {};
    components[kind][name] = value;
    collect(value);
  }
  const sorted = Object.fromEntries(
    Object.entries(components)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, entries]) => [
        kind,
        Object.fromEntries(
          Object.entries(entries).sort(([a], [b]) => a.localeCompare(b)),
        ),
      ]),
  );
  return { openapi: spec.openapi, info: spec.info, paths, components: sorted };
}

if (process.argv[1] === import.meta.filename) {
  const [source, version] = process.argv.slice(2);
  if (!source || !version) {
    process.stderr.write(
      "usage: node scripts/extract-github-openapi.mjs <api.github.com.json> <@octokit/openapi version>\n",
    );
    process.exit(2);
  }
  const spec = JSON.parse(readFileSync(source, "utf8"));
  const subset = extractSubset(spec, OPERATIONS);
  const found = Object.values(subset.paths).flatMap((item) =>
    Object.values(item).map((op) => op.operationId),
  );
  const missing = OPERATIONS.filter((id) => !found.includes(id));
  if (missing.length > 0)
    throw new Error(`missing operations: ${missing.join(", ")}`);
  subset["x-provenance"] = {
    package: "@octokit/openapi",
    version,
    file: "generated/api.github.com.json",
    operations: OPERATIONS,
    script: "scripts/extract-github-openapi.mjs",
  };
  const out = join(
    import.meta.dirname,
    "..",
    "test",
    "fixtures",
    "github",
    "openapi-subset.json",
  );
  writeFileSync(out, `${JSON.stringify(subset, null, 2)}\n`);
  process.stdout.write(
    `wrote ${out}: ${found.length} operations, ${Object.values(subset.components).reduce((n, c) => n + Object.keys(c).length, 0)} components\n`,
  );
}
