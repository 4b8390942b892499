/**
 * `dist/git.cjs`: the git runner and the tree's listing. The loader starts a tick's listing from it, and the hook's
 * bundles reach the runner through it (scripts/build.mjs): git is needed only by a tick, which has loaded it by then,
 * and by rare events.
 */
export * from "../adapters/git-runner.ts";
export { startTreeListing } from "../adapters/tree-listing.ts";
