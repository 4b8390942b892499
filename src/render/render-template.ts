import Handlebars from "handlebars";
import { PlaybookError } from "../core/errors.ts";
import type { SkeletonContext, TemplateContext } from "./template-context.ts";

/** A template that did not render, with where and why. */
export class TemplateError extends PlaybookError {
  readonly template: string;
  constructor(template: string, message: string) {
    super("E_TEMPLATE", `${template}: ${message}`, {
      hint: "playbook's own templates are broken: reinstall playbook-kit (`npm i -D playbook-kit`), and report it if it happens again. Nothing was changed.",
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
      );
    }
  };
}
