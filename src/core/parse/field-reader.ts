import { didYouMean } from "../text/did-you-mean.ts";
import type { Diagnostic, Point } from "../model/diagnostic.ts";
import { diagnosticAt } from "../model/diagnostic.ts";
import type { YamlSection } from "../model/state.ts";
import type { Source } from "./source.ts";

/**
 * Typed access to the keys of a yaml section. A value of the wrong type is reported once, at the key's line, and
 * the caller's fallback is used instead, so one bad field never hides the rest of the document.
 */
export function createFieldReader(
  source: Source,
  section: YamlSection | undefined,
  data: Record<string, unknown>,
  diagnostics: Diagnostic[],
) {
  const where = section ? `\`## ${section.name}\`` : "the document";
  const at = (key: string): Point =>
    section?.fields[key]?.start ??
    section?.block?.start ??
    section?.span.start ?? { line: 1, column: 1, offset: 0 };
  const report = (
    key: string,
    got: unknown,
    expected: string,
    fix: string,
    severity: "error" | "warning" = "error",
  ) =>
    diagnostics.push(
      diagnosticAt(
        source.file,
        at(key),
        "field-invalid",
        severity,
        `Unexpected ${key}: ${describe(got)} in ${where}, expected ${expected}. ${fix}`,
      ),
    );

  return {
    has: (key: string) => key in data,
    stringOrNull(key: string): string | null {
      const value = data[key];
      if (value === undefined || value === null) return null;
      if (typeof value === "string") return value.trim() === "" ? null : value;
      if (typeof value === "number" || typeof value === "boolean")
        return String(value);
      report(
        key,
        value,
        "a string or null",
        `Write \`${key}: null\` or a plain value.`,
      );
      return null;
    },
    oneOf<T extends string>(
      key: string,
      allowed: readonly T[],
      fallback: T | null,
    ): T | null {
      const value = data[key];
      if (value === undefined || value === null) return fallback;
      const text =
        typeof value === "string" ||
        typeof value === "number" ||
        typeof value === "boolean"
          ? String(value)
          : "";
      if ((allowed as readonly string[]).includes(text)) return text as T;
      report(
        key,
        value,
        `one of ${allowed.join(", ")}`,
        `Set \`${key}\` to one of those.`,
      );
      return fallback;
    },
    stringList(key: string): string[] {
      const value = data[key];
      if (value === undefined || value === null) return [];
      if (
        Array.isArray(value) &&
        value.every(
          (item) => typeof item === "string" || typeof item === "number",
        )
      ) {
        return value.map(String);
      }
      report(
        key,
        value,
        "a list of strings",
        `Write \`${key}: []\` or one \`- item\` per line.`,
      );
      return [];
    },
    boolean(key: string, fallback: boolean): boolean {
      const value = data[key];
      if (value === undefined || value === null) return fallback;
      if (typeof value === "boolean") return value;
      report(
        key,
        value,
        "true or false",
        `Set \`${key}: ${String(fallback)}\`.`,
      );
      return fallback;
    },
    stringMap(key: string): Record<string, string> {
      const value = data[key];
      if (value === undefined || value === null) return {};
      if (typeof value === "object" && !Array.isArray(value)) {
        const entries = Object.entries(value as Record<string, unknown>);
        if (entries.every(([, v]) => typeof v === "string"))
          return Object.fromEntries(entries) as Record<string, string>;
      }
      report(
        key,
        value,
        "a mapping of names to strings",
        `Write \`${key}: {worker: claudecode}\`.`,
      );
      return {};
    },
    /**
     * Reports keys outside `known`: one close to a known key is a typo, an error (its value is not read); any other a
     * warning.
     */
    reportUnknown(known: readonly string[]) {
      for (const key of Object.keys(data)) {
        if (known.includes(key)) continue;
        const meant = didYouMean(key, known);
        diagnostics.push(
          diagnosticAt(
            source.file,
            section?.keys[key]?.start ?? at(key),
            "field-unknown",
            meant ? "error" : "warning",
            meant
              ? `Unexpected key \`${key}\` in ${where}, expected \`${meant}\`: playbook does not read it. Fix the spelling.`
              : `Unexpected key \`${key}\` in ${where}, expected one of ${known.join(", ")}. Fix the spelling or remove the key.`,
          ),
        );
      }
    },
  };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
