import {
  describeErrors,
  resolveRef,
  validatorAt,
  type ParameterObject,
  type ResponseObject,
} from "./openapi.ts";
import type { Reply } from "./replies.ts";
import type { MatchedRoute } from "./routing.ts";

export function checkQuery(
  matched: MatchedRoute,
  query: Record<string, string>,
): string[] {
  const problems: string[] = [];
  (matched.operation.parameters ?? []).forEach((entry, index) => {
    const { node: parameter, pointer } = resolveRef<ParameterObject>(entry);
    const value = query[parameter.name];
    if (parameter.in !== "query" || value === undefined || !parameter.schema)
      return;
    const type = parameter.schema.type;
    // A query string carries only text; the schema types numbers as numbers.
    const coerced =
      (type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(value)
        ? Number(value)
        : value;
    const validate = validatorAt(
      `${pointer ?? `${matched.pointer}/parameters/${index}`}/schema`,
    );
    if (!validate(coerced))
      problems.push(
        ...describeErrors(
          matched.operation.operationId,
          `request query ${parameter.name}`,
          validate.errors,
        ),
      );
  });
  return problems;
}

/** Problems with the request body; none when the operation takes no body or the body is valid. */
export function checkRequestBody(
  matched: MatchedRoute,
  body: unknown,
): string[] {
  if (!matched.operation.requestBody?.content["application/json"]?.schema)
    return [];
  const validate = validatorAt(
    `${matched.pointer}/requestBody/content/application~1json/schema`,
  );
  if (validate(body)) return [];
  return describeErrors(
    matched.operation.operationId,
    "request body",
    validate.errors,
  );
}

/** Problems with a reply; a status the operation does not document is not checked. */
export function checkResponse(matched: MatchedRoute, reply: Reply): string[] {
  const documented = matched.operation.responses[`${reply.status}`];
  if (!documented) return [];
  const { node: response, pointer } = resolveRef<ResponseObject>(documented);
  if (!response.content?.["application/json"]?.schema) return [];
  const validate = validatorAt(
    `${pointer ?? `${matched.pointer}/responses/${reply.status}`}/content/application~1json/schema`,
  );
  if (validate(reply.body)) return [];
  return describeErrors(
    matched.operation.operationId,
    `response ${reply.status}`,
    validate.errors,
  );
}
