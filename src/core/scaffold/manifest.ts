import * as v from "valibot";
import { LANGUAGES, TOOLSTACKS } from "./answers.ts";
import { boundaryRecordSchema } from "./boundary-settings.ts";
import { CI_PROVIDERS } from "./ci-workflow.ts";

export const MANIFEST_FILE = ".claude/playbook-manifest.json";

/**
 * A file init changes in part (settings.json, .gitignore, CLAUDE.md): its text before the first init (null when it
 * did not exist; absent once the user has changed the file after an init, when only a surgical removal is safe) and
 * the hash of what init last wrote.
 */
const sharedFile = v.object({
  original: v.optional(v.nullable(v.string())),
  written: v.string(),
});

const manifestSchema = v.object({
  version: v.literal(1),
  packageVersion: v.string(),
  answers: v.object({
    toolstack: v.picklist(TOOLSTACKS),
    lang: v.picklist(LANGUAGES),
    testCommand: v.string(),
    lintCommand: v.string(),
    plugin: v.optional(v.boolean(), false),
    ci: v.optional(v.picklist(CI_PROVIDERS)),
  }),
  /** Every file init wrote whole, with the hash of its content as written. */
  files: v.record(v.string(), v.string()),
  settings: v.optional(sharedFile),
  gitignore: v.optional(
    v.object({ ...sharedFile.entries, lines: v.array(v.string()) }),
  ),
  claudeMd: v.optional(sharedFile),
  /** What init added to settings.json for the trust boundary (sandbox switches, denyWrite, deny rules). */
  boundary: v.optional(boundaryRecordSchema),
  /** The hook paths init has written into settings.json, so an upgrade finds its old handlers. */
  hookPaths: v.array(v.string()),
  installedAt: v.string(),
  updatedAt: v.string(),
});

export type Manifest = v.InferOutput<typeof manifestSchema>;
export type SharedFileRecord = v.InferOutput<typeof sharedFile>;

export type ManifestRead =
  | { status: "missing" }
  | { status: "ok"; manifest: Manifest }
  | { status: "corrupt"; problem: string };

/** Parses the manifest's text (null when the file does not exist). */
export function parseManifest(text: string | null): ManifestRead {
  if (text === null) return { status: "missing" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      status: "corrupt",
      problem: `it is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const parsed = v.safeParse(manifestSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue.path?.map((p) => String(p.key)).join(".") ?? "";
    return {
      status: "corrupt",
      problem: `${where ? `${where}: ` : ""}${issue.message}`,
    };
  }
  return { status: "ok", manifest: parsed.output };
}
