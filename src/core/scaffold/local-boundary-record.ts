import * as v from "valibot";
import { boundaryRecordSchema } from "./boundary-record.ts";

/** What the hook keeps in `.claude/settings.local.json`, apart from init's settings.json: two lists, each its own record. */
export const localBoundaryRecordSchema = v.object({
  /** Derived from `.claude/protected-files.txt` (HARD_BLOCK; BLOCK in strict). */
  protected: boundaryRecordSchema,
  /** The project read-only to the shell: the post-loop lock, or the default branch. */
  readOnly: boundaryRecordSchema,
});
export type LocalBoundaryRecord = v.InferOutput<
  typeof localBoundaryRecordSchema
>;
