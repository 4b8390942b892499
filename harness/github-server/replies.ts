import type { JsonObject } from "./openapi.ts";

export const DOCS_URL = "https://docs.github.com/rest";

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export function error(
  status: number,
  message: string,
  extra: JsonObject = {},
): Reply {
  return {
    status,
    body: {
      message,
      ...extra,
      documentation_url: DOCS_URL,
      status: `${status}`,
    },
  };
}

export function validationFailed(errors: JsonObject[]): Reply {
  return error(422, "Validation Failed", { errors });
}
