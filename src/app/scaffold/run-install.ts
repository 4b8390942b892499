import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeTextAtomic } from "../../adapters/atomic-write.ts";
import {
  readGitExcludeFile,
  readMissingMountPoints,
} from "../../adapters/git-exclude-file.ts";
import {
  planExcludeLines,
  upsertExcludeBlock,
} from "../../core/scaffold/git-exclude-block.ts";
import { hashBundle } from "../../adapters/hash-bundle.ts";
import { writeRuntimeCopy } from "../../adapters/runtime-copy.ts";
import { createToolchainFolders } from "../../adapters/toolchain-folders.ts";
import { PlaybookError } from "../../core/errors.ts";
import { readLoaderChecks } from "../../core/scaffold/hook-loader.ts";
import {
  RUNTIME_COPY,
  cliSpelling,
  installCommand,
} from "../../core/scaffold/setup-kind.ts";
import { HOOK_LOADER } from "../../core/paths/trust-paths.ts";
import { syncLocalBoundaryAfterInit } from "../workspace/apply-local-boundary.ts";

export interface InstallResult {
  version: string;
  /** The copy's folder, relative to the project. */
  copy: string;
  /** What the sandbox cannot hold of the protected files on this machine (to be said). */
  boundaryNotes: string[];
}

/**
 * `playbook install`: gives a fresh clone (or worktree) of a project in the runtime setup the playbook-kit its
 * committed loader names: the same version, whose hook bundles have the hashes the loader checks. Anything else is
 * refused with the command that fits, and nothing is written.
 */
export function runInstall(
  dir: string,
  pkg: { root: string; version: string },
): InstallResult {
  let text: string;
  try {
    text = readFileSync(join(dir, HOOK_LOADER), "utf8");
  } catch {
    throw new PlaybookError(
      "E_CONFIG",
      `playbook is not set up in ${dir}: ${HOOK_LOADER} is missing.`,
      {
        hint: `Set it up with \`npx playbook-kit@${pkg.version} init\`, or pull the branch that has the setup. Nothing was written.`,
      },
    );
  }
  const checks = readLoaderChecks(text);
  if (checks === null)
    throw new PlaybookError(
      "E_CONFIG",
      `${HOOK_LOADER} is not the loader \`playbook init\` writes.`,
      {
        hint: "Restore it from git (`git checkout -- .claude/hooks/playbook.cjs`). Nothing was written.",
        location: { file: HOOK_LOADER },
      },
    );
  if (checks.setup === "npm")
    throw new PlaybookError(
      "E_USAGE",
      `This project installs playbook with npm (${HOOK_LOADER} runs node_modules/playbook-kit).`,
      { hint: "Run `npm install` here. Nothing was written." },
    );
  if (checks.setup !== "runtime")
    throw new PlaybookError(
      "E_CONFIG",
      `${HOOK_LOADER} runs a playbook checkout on another machine (${checks.dist ?? ""}), which no clone can install.`,
      {
        hint: `Ask whoever set it up to run \`npx playbook-kit@${pkg.version} init\` and commit the result. Nothing was written.`,
      },
    );
  if (checks.version !== pkg.version)
    throw new PlaybookError(
      "E_CONFIG",
      `The setup was made with playbook-kit ${checks.version}; this is playbook-kit ${pkg.version}.`,
      {
        hint: `Run \`${installCommand("runtime", checks.version)}\` to install the setup's version, or \`npx playbook-kit@${pkg.version} upgrade\` to upgrade the setup (then commit it). Nothing was written.`,
      },
    );
  const differ = (distDir: string) =>
    Object.entries(checks.hashes)
      .filter(([name, hash]) => hashBundle(join(distDir, name)) !== hash)
      .map(([name]) => name);
  const mismatched = differ(join(pkg.root, "dist"));
  if (mismatched.length > 0)
    throw new PlaybookError(
      "E_CONFIG",
      `playbook-kit ${pkg.version}'s ${mismatched.join(", ")} differ from the bundles ${HOOK_LOADER} checks: this is another build of ${pkg.version} than the one the setup was made with.`,
      {
        hint: `Run \`npx playbook-kit@${pkg.version} upgrade\` to set the project up for this build, then commit it. Nothing was written.`,
      },
    );
  const copy = writeRuntimeCopy(dir, pkg.root);
  const after = differ(join(copy, "dist"));
  if (after.length > 0)
    throw new PlaybookError(
      "E_WRITE",
      `The copy in ${RUNTIME_COPY} does not hold the bundles the setup checks (${after.join(", ")}).`,
      {
        hint: `Run \`${installCommand("runtime", pkg.version)}\` again; \`${cliSpelling("runtime")} doctor\` says what is wrong.`,
      },
    );
  writeExcludeBlock(dir);
  createToolchainFolders(dir);
  return {
    version: pkg.version,
    copy: RUNTIME_COPY,
    boundaryNotes: syncLocalBoundaryAfterInit(dir),
  };
}

/**
 * The repository's exclude file gets the block init wrote in the first clone (it is not committed): Claude Code's
 * sandbox mount points and this machine's settings.local.json stay out of `git add -A`.
 */
function writeExcludeBlock(dir: string): void {
  const file = readGitExcludeFile(dir);
  if (file === null) return;
  const missing = new Set([
    ...readMissingMountPoints(dir),
    ".claude/settings.local.json",
    ".claude/playbook",
  ]);
  const after = upsertExcludeBlock(
    file.text,
    planExcludeLines(file.prefix, missing),
  );
  if (after === (file.text ?? "")) return;
  const path = join(dir, file.path);
  mkdirSync(dirname(path), { recursive: true });
  writeTextAtomic(path, after);
}
