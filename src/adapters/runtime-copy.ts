import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { PlaybookError } from "../core/errors.ts";
import { RUNTIME_COPY } from "../core/scaffold/setup-kind.ts";

/**
 * Copies the running package (what its package.json `files` ship, and package.json) into the project's
 * `.claude/playbook/runtime`, replacing an older copy in one rename, so a hook that runs meanwhile finds the old copy or
 * the new one. Code caches the hooks wrote next to the bundles are not copied: each copy writes its own. Nothing is
 * done when the package is that copy already. Returns the copy's folder.
 */
export function writeRuntimeCopy(
  projectDir: string,
  packageRoot: string,
): string {
  const target = join(projectDir, RUNTIME_COPY);
  if (resolve(packageRoot) === resolve(target)) return target;
  const manifest = JSON.parse(
    readFileSync(join(packageRoot, "package.json"), "utf8"),
  ) as { files?: unknown };
  const shipped = Array.isArray(manifest.files)
    ? manifest.files.filter((f): f is string => typeof f === "string")
    : [];
  const suffix = `${process.pid}.${Date.now().toString(36)}`;
  const fresh = `${target}.new-${suffix}`;
  const old = `${target}.old-${suffix}`;
  mkdirSync(dirname(target), { recursive: true });
  try {
    mkdirSync(fresh);
    for (const name of ["package.json", "LICENSE", ...shipped]) {
      const from = join(packageRoot, name);
      if (!existsSync(from)) continue;
      cpSync(from, join(fresh, name), {
        recursive: true,
        dereference: true,
        filter: (source) => !basename(source).endsWith(".v8cache"),
      });
    }
    if (existsSync(target)) renameSync(target, old);
    renameSync(fresh, target);
  } catch (error) {
    rmSync(fresh, { recursive: true, force: true });
    if (!existsSync(target) && existsSync(old)) renameSync(old, target);
    throw new PlaybookError(
      "E_WRITE",
      `Could not copy playbook-kit into ${RUNTIME_COPY}: ${String(error)}.`,
      {
        hint: "Check that the project's folder is writable, then run the command again.",
        cause: error,
      },
    );
  }
  rmSync(old, { recursive: true, force: true });
  return target;
}
