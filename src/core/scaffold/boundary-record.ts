import * as v from "valibot";

/** What init added to settings.json for the boundary, so upgrade and uninstall take out exactly that. */
export const boundaryRecordSchema = v.object({
  /** `sandbox` switches that were absent before init set them (`enabled`, `failIfUnavailable`, ...). */
  addedKeys: v.array(v.string()),
  denyWrite: v.array(v.string()),
  deny: v.array(v.string()),
  /** `sandbox.filesystem.allowWrite` entries for the project's toolchain (`toolchainAllowWrite`). */
  allowWrite: v.optional(v.array(v.string())),
});
export type BoundaryRecord = v.InferOutput<typeof boundaryRecordSchema>;
