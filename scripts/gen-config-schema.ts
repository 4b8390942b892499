// Writes schema/playbook.schema.json, the JSON Schema of .claude/playbook.json that editors use for completion.
// It is generated from the valibot schema the code validates with, so the two cannot drift (a test compares them).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { toJsonSchema } from "@valibot/to-json-schema";
import { CONFIG_SCHEMA } from "../src/core/config/config.ts";

export const CONFIG_SCHEMA_FILE = join(
  import.meta.dirname,
  "..",
  "schema",
  "playbook.schema.json",
);

/** The published JSON Schema of `.claude/playbook.json`, as the text of `schema/playbook.schema.json`. */
export function renderConfigJsonSchema(): string {
  const schema = closeObjects(
    toJsonSchema(CONFIG_SCHEMA, { errorMode: "ignore" }),
  );
  return `${JSON.stringify(
    {
      $schema: "http://json-schema.org/draft-07/schema#",
      title: "playbook configuration (.claude/playbook.json)",
      ...schema,
    },
    null,
    2,
  )}\n`;
}

/** Unknown keys are typos: editors should flag them, as `playbook lint` does. */
function closeObjects(node: unknown): Record<string, unknown> {
  const copy = { ...(node as Record<string, unknown>) };
  delete copy["$schema"];
  if (copy["type"] === "object") copy["additionalProperties"] = false;
  const properties = copy["properties"] as Record<string, unknown> | undefined;
  if (properties)
    copy["properties"] = Object.fromEntries(
      Object.entries(properties).map(([key, value]) => [
        key,
        closeObjects(value),
      ]),
    );
  return copy;
}

if (process.argv[1] === import.meta.filename) {
  writeFileSync(CONFIG_SCHEMA_FILE, renderConfigJsonSchema());
  console.log(`wrote ${CONFIG_SCHEMA_FILE}`);
}
