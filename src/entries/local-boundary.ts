/**
 * `dist/local-boundary.cjs`: the settings editor that writes the sandbox's derived lists into
 * `.claude/settings.local.json`. The hooks load it only when those lists change.
 */
export { applyLocalBoundary } from "../app/workspace/apply-local-boundary.ts";
