import Handlebars from "handlebars";
import { PlaybookError } from "../core/errors.ts";
import type { SkeletonContext, TemplateContext } from "./template-context.ts";

/**
 * A template that did not render, with where and why. `template` is its path inside playbook-kit's package; the line
 * and column are Handlebars' when it names them.
 */
export class TemplateError extends PlaybookError {
  readonly template: string;
  constructor(
    template: string,
    message: string,
    at: { line?: number; column?: number } = {},
  ) {
    super("E_TEMPLATE", `${template}: ${message}`, {
      hint: "playbook's own templates are broken: reinstall playbook-kit (`npm i -D playbook-kit`), and report it if it happens again. Nothing was changed.",
      location: { file: template, ...at },
    });
    this.name = "TemplateError";
    this.template = template;
  }
}

/**
 * One isolated Handlebars environment: strict (a name the context lacks is an error, never an empty string), no
 * HTML escaping (the output is markdown, YAML and JSON), and one helper, `eq`, for comparing with a literal.
 */
export function createRenderer(): (
  name: string,
  source: string,
  context: TemplateContext | SkeletonContext,
) => string {
  const hbs = Handlebars.create();
  hbs.registerHelper("eq", (a: unknown, b: unknown) => a === b);
  const compiled = new Map<string, Handlebars.TemplateDelegate>();
  return (name, source, context) => {
    try {
      let template = compiled.get(name);
      if (!template) {
        template = hbs.compile(source, { strict: true, noEscape: true });
        compiled.set(name, template);
      }
      return template(context);
    } catch (error) {
      throw new TemplateError(
        name,
        error instanceof Error ? error.message : String(error),
        handlebarsPlace(error),
      );
    }
  };
}

/**
 * Where Handlebars says the problem is: its exceptions carry `lineNumber` and a 0-based `column`; its parse errors
 * name only the line, in the message.
 */
function handlebarsPlace(error: unknown): { line?: number; column?: number } {
  const { lineNumber, column, message } = (error ?? {}) as {
    lineNumber?: unknown;
    column?: unknown;
    message?: unknown;
  };
  if (typeof lineNumber === "number")
    return typeof column === "number"
      ? { line: lineNumber, column: column + 1 }
      : { line: lineNumber };
  const line = /^Parse error on line (\d+):/.exec(String(message))?.[1];
  return line === undefined ? {} : { line: Number(line) };
}
