import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createTempProject } from "../helpers/temp-project.ts";

const root = join(import.meta.dirname, "..", "..");

interface PackedFile {
  path: string;
  size: number;
  mode: number;
}
interface Packed {
  size: number;
  unpackedSize: number;
  files: PackedFile[];
}

/** The folders whose files run or are read at run time (docs/decisions.md, "Publishing"). */
const RUNTIME_FOLDERS = [
  "dist/",
  "templates/",
  "frameworks/",
  "rules/",
  "schema/",
  "plan/template/",
  "agents/",
  "skills/",
  "commands/",
  "hooks/",
  ".claude-plugin/",
];
const TOP_LEVEL_FILES = [
  "CHANGELOG.md",
  "LICENSE",
  "README.md",
  "package.json",
];

/** What `npm publish` would upload from `dir`, read without writing a tarball or reaching the registry. */
function pack(dir: string): Packed {
  const out = execFileSync(
    "npm",
    ["pack", "--dry-run", "--json", "--ignore-scripts", "--offline"],
    { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  const [packed] = JSON.parse(out) as Packed[];
  if (!packed) throw new Error(`npm pack listed nothing: ${out}`);
  return packed;
}

describe("the published tarball", () => {
  let packed: Packed;
  let paths: string[];
  beforeAll(() => {
    packed = pack(root);
    paths = packed.files.map((f) => f.path);
  });

  it("holds only the top-level files and the folders that run", () => {
    const outside = paths.filter(
      (p) =>
        !TOP_LEVEL_FILES.includes(p) &&
        !RUNTIME_FOLDERS.some((folder) => p.startsWith(folder)),
    );
    expect(outside).toEqual([]);
    for (const file of TOP_LEVEL_FILES) expect(paths).toContain(file);
    // Every folder listed still ships something: a stale entry in `files` would go unnoticed otherwise.
    for (const folder of RUNTIME_FOLDERS)
      expect(
        paths.some((p) => p.startsWith(folder)),
        folder,
      ).toBe(true);
  });

  it("leaves out sources, tests, caches and maps", () => {
    expect(
      paths.filter((p) =>
        /^(?:src|test|bench|demo|scripts|docs|node_modules)\/|\/fixtures\/|\.v8cache|\.map$|(?:^|\/)\.(?!claude-plugin\/)/.test(
          p,
        ),
      ),
    ).toEqual([]);
  });

  it("ships the CLI executable and the package's own bin", () => {
    const manifest = JSON.parse(
      readFileSync(join(root, "package.json"), "utf8"),
    ) as { bin: Record<string, string> };
    for (const bin of Object.values(manifest.bin)) {
      const file = packed.files.find((f) => f.path === bin);
      expect(file, bin).toBeDefined();
      expect((file?.mode ?? 0) & 0o111, bin).not.toBe(0);
    }
  });

  it("stays under 2 MiB packed and 7 MiB unpacked", () => {
    expect(packed.size).toBeLessThan(2 * 1024 * 1024);
    expect(packed.unpackedSize).toBeLessThan(7 * 1024 * 1024);
  });

  it("has a CHANGELOG entry for its version", () => {
    const { version } = JSON.parse(
      readFileSync(join(root, "package.json"), "utf8"),
    ) as { version: string };
    expect(readFileSync(join(root, "CHANGELOG.md"), "utf8")).toContain(
      `\n## [${version}] - `,
    );
  });

  it("leaves out the code caches a hook writes into dist/ and any source map, whenever they are there", () => {
    // package.json's `files` rules on a dist/ of a few bundles with what runs and tests leave beside them.
    const p = createTempProject({
      "package.json": readFileSync(join(root, "package.json"), "utf8"),
      "dist/cli.mjs": "",
      "dist/hook-main.cjs": "",
      "dist/chunks/init-ABC.mjs": "",
      "dist/.hook-main.v8cache": "",
      "dist/.hook-main.v8cache.4242": "",
      "dist/chunks/init-ABC.mjs.map": "",
      "dist/hook-main.cjs.map": "",
    });
    expect(
      pack(p.dir)
        .files.map((f) => f.path)
        .sort(),
    ).toEqual([
      "dist/chunks/init-ABC.mjs",
      "dist/cli.mjs",
      "dist/hook-main.cjs",
      "package.json",
    ]);
  });
});
