import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const SRC = join(import.meta.dirname, "..", "..", "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory()
      ? sourceFiles(path)
      : path.endsWith(".ts")
        ? [path]
        : [];
  });
}

/** Diagnostic codes as the source writes them (a kebab string followed by the severity argument), per folder. */
export function emittedCodes(folder: "core" | "app" | "" = ""): string[] {
  const codes = new Set<string>();
  for (const file of sourceFiles(join(SRC, folder))) {
    // Codes of .claude/protected-files.txt are documented in docs/guards.md, not in the playbook format.
    if (file.includes(join("core", "guards"))) continue;
    for (const match of readFileSync(file, "utf8").matchAll(
      /"([a-z]+(?:-[a-z]+)+)",\s+(?:"error"|"warning"|REQUIRED|severity)/g,
    )) {
      codes.add(match[1]!);
    }
  }
  return [...codes].sort();
}
