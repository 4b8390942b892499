import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PlaybookError } from "../core/errors.ts";

let cached: { root: string; version: string } | undefined;

/**
 * The installed playbook-kit package (its templates, frameworks, rules and dist/): the nearest folder above this file
 * whose package.json is playbook-kit's. Works from `dist/cli.mjs` and from the sources alike.
 */
export function findPackageRoot(): { root: string; version: string } {
  if (cached) return cached;
  let dir = import.meta.dirname;
  for (;;) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "playbook-kit") {
        cached = { root: dir, version: pkg.version ?? "0.0.0" };
        return cached;
      }
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new PlaybookError(
        "E_CONFIG",
        "playbook-kit's package.json was not found above the running CLI, so its templates cannot be found.",
        {
          hint: "Reinstall playbook-kit (`npm i -D playbook-kit`), then run the command again.",
        },
      );
    dir = parent;
  }
}
