import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import ajvFormats from "ajv-formats";
import { readGitHubDescription } from "./github-description.ts";

// GitHub's OpenAPI description (the subset in test/fixtures/github/) and the Ajv validators built from it.

export type JsonObject = Record<string, unknown>;

export interface RefObject {
  $ref: string;
}

export interface ParameterObject {
  name: string;
  in: string;
  schema?: { type?: string | string[] };
}

export interface ResponseObject {
  content?: Record<string, { schema?: unknown }>;
}

export interface Operation {
  operationId: string;
  externalDocs?: { url: string };
  parameters?: (ParameterObject | RefObject)[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, ResponseObject | RefObject>;
}

export interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: {
    examples: Record<string, { value: unknown }>;
    parameters: Record<string, ParameterObject>;
    responses: Record<string, ResponseObject>;
  };
}

const SPEC_ID = "github-openapi-subset";

interface Validation {
  spec: OpenApi;
  ajv: Ajv;
  validators: Map<string, ValidateFunction>;
}

let validation: Validation | undefined;

/** The subset and one Ajv instance holding it, shared by every server of the process (compiling is the slow part). */
export function loadValidation(): Validation {
  if (validation) return validation;
  const spec = JSON.parse(
    readGitHubDescription("openapi-subset.json"),
  ) as OpenApi;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajvFormats.default(ajv);
  ajv.addFormat("repo.nwo", /^[^/\s]+\/[^/\s]+$/);
  ajv.addSchema(toJsonSchema(spec) as JsonObject, SPEC_ID);
  validation = { spec, ajv, validators: new Map() };
  return validation;
}

/** OpenAPI 3.0's `nullable: true` rewritten as JSON Schema, which Ajv understands; examples are left as they are. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== "object") return node;
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(node as JsonObject))
    result[key] =
      key === "example" || key === "examples" ? value : toJsonSchema(value);
  if (result.nullable !== true) return result;
  delete result.nullable;
  if (typeof result.type === "string") {
    result.type = [result.type, "null"];
    if (Array.isArray(result.enum) && !result.enum.includes(null))
      result.enum = [...(result.enum as unknown[]), null];
    return result;
  }
  return { anyOf: [result, { type: "null" }] };
}

export function pointerSegment(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

export function validatorAt(pointer: string): ValidateFunction {
  const { ajv, validators } = loadValidation();
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${SPEC_ID}#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

export function resolveRef<T>(node: T | RefObject): {
  node: T;
  pointer?: string;
} {
  if (typeof node !== "object" || node === null || !("$ref" in node))
    return { node };
  const pointer = node.$ref.slice(1);
  let target: unknown = loadValidation().spec;
  for (const segment of pointer.split("/").slice(1))
    target = (target as JsonObject)[
      segment.replaceAll("~1", "/").replaceAll("~0", "~")
    ];
  return { node: target as T, pointer };
}

export function describeErrors(
  operationId: string,
  where: string,
  errors: ErrorObject[] | null | undefined,
): string[] {
  return (errors ?? []).map(
    (error) =>
      `${operationId} ${where} #${error.instancePath}: ${error.message ?? "is invalid"}`,
  );
}

/** GitHub's example payload `name`, shared by every response: spread or relocate it, never change it. */
export function example(name: string): JsonObject {
  const found = loadValidation().spec.components.examples[name];
  if (!found) throw new Error(`the OpenAPI subset has no example ${name}`);
  return found.value as JsonObject;
}
