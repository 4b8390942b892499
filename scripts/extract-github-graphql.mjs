// Writes test/fixtures/github/graphql-schema-subset.graphql: the part of GitHub's public GraphQL schema the archive's
// merge policies use, with each field copied as GitHub declares it (arguments, types, descriptions). The local GitHub
// server validates and executes every GraphQL request against it. The schema comes from octokit/graphql-schema
// (schema.graphql, GitHub's published schema), e.g.
//   node scripts/extract-github-graphql.mjs path/to/graphql-schema/schema.graphql <commit of that repository>
import { readFileSync, writeFileSync } from "node:fs";
import process from "node:process";
import { buildASTSchema, Kind, parse, print } from "graphql";

/** Object types and the fields of each the archive selects (or the test server answers); nothing else is kept. */
export const FIELDS = {
  Query: ["viewer", "repository"],
  Mutation: ["enablePullRequestAutoMerge", "enqueuePullRequest"],
  User: ["login"],
  Repository: ["pullRequest"],
  PullRequest: [
    "id",
    "number",
    "headRefOid",
    "autoMergeRequest",
    "mergeQueueEntry",
  ],
  AutoMergeRequest: ["enabledAt", "mergeMethod"],
  MergeQueueEntry: ["state", "position", "enqueuedAt"],
  EnablePullRequestAutoMergePayload: ["clientMutationId", "pullRequest"],
  EnqueuePullRequestPayload: ["clientMutationId", "mergeQueueEntry"],
};

const BUILT_IN = new Set(["String", "Int", "Float", "Boolean", "ID"]);

function namedType(node) {
  return node.kind === Kind.NAMED_TYPE ? node.name.value : namedType(node.type);
}

/** The subset of the schema document `source`, printed as SDL. */
export function extractSubset(source) {
  const byName = new Map();
  for (const definition of parse(source).definitions)
    if ("name" in definition && definition.name)
      byName.set(definition.name.value, definition);
  const kept = new Map();
  const pending = Object.keys(FIELDS);
  const stripDirectives = (node) => ({
    ...node,
    directives: (node.directives ?? []).filter(
      (d) => d.name.value === "deprecated",
    ),
  });
  while (pending.length > 0) {
    const name = pending.shift();
    if (kept.has(name) || BUILT_IN.has(name)) continue;
    const definition = byName.get(name);
    if (!definition) throw new Error(`GitHub's schema has no type ${name}`);
    const refer = (type) => pending.push(namedType(type));
    if (definition.kind === Kind.OBJECT_TYPE_DEFINITION) {
      const wanted = FIELDS[name];
      if (!wanted)
        throw new Error(
          `${name} is reached: list the fields it needs in FIELDS`,
        );
      const fields = definition.fields.filter((f) =>
        wanted.includes(f.name.value),
      );
      const missing = wanted.filter(
        (w) => !fields.some((f) => f.name.value === w),
      );
      if (missing.length > 0)
        throw new Error(`GitHub's ${name} has no ${missing.join(", ")}`);
      for (const field of fields) {
        refer(field.type);
        for (const argument of field.arguments ?? []) refer(argument.type);
      }
      kept.set(name, {
        ...stripDirectives(definition),
        interfaces: [],
        fields: fields.map((f) => ({
          ...stripDirectives(f),
          arguments: (f.arguments ?? []).map(stripDirectives),
        })),
      });
    } else if (definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION) {
      for (const field of definition.fields) refer(field.type);
      kept.set(name, {
        ...stripDirectives(definition),
        fields: definition.fields.map(stripDirectives),
      });
    } else if (definition.kind === Kind.ENUM_TYPE_DEFINITION) {
      kept.set(name, {
        ...stripDirectives(definition),
        values: definition.values.map(stripDirectives),
      });
    } else if (definition.kind === Kind.SCALAR_TYPE_DEFINITION) {
      kept.set(name, stripDirectives(definition));
    } else throw new Error(`${name} is a ${definition.kind}: not supported`);
  }
  const document = {
    kind: Kind.DOCUMENT,
    definitions: [...kept.keys()].sort().map((name) => kept.get(name)),
  };
  buildASTSchema(document);
  return print(document);
}

if (process.argv[1] === import.meta.filename) {
  const [source, commit] = process.argv.slice(2);
  if (!source || !commit) {
    process.stderr.write(
      "usage: node scripts/extract-github-graphql.mjs <schema.graphql> <octokit/graphql-schema commit>\n",
    );
    process.exit(2);
  }
  const subset = extractSubset(readFileSync(source, "utf8"));
  writeFileSync(
    "test/fixtures/github/graphql-schema-subset.graphql",
    `# GitHub's public GraphQL schema, the types and fields the archive's merge policies use, from\n# octokit/graphql-schema ${commit} (schema.graphql), extracted by scripts/extract-github-graphql.mjs.\n\n${subset}`,
  );
}
