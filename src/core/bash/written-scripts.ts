import { commandName } from "./command-name.ts";
import { SHELLS } from "./nested-scripts.ts";
import type { ShellRedirect } from "./shell-syntax.ts";

export interface WrittenScript {
  path: string;
  body: string;
}

const FILE_REDIRECTS = new Set([">", ">|", ">>", "&>", "&>>"]);

/** The script files `cat > F <<'EOF'` (or `tee F <<'EOF'`) writes from a here-document on its standard input. */
export function writtenScripts(
  argv: readonly string[],
  redirects: readonly ShellRedirect[],
): WrittenScript[] {
  const body = redirects.find(
    (r) => r.hereDoc !== null && (r.fd === null || r.fd === 0),
  )?.hereDoc?.body;
  if (body === undefined) return [];
  const name = commandName(argv[0]);
  const args = argv.slice(1);
  const paths =
    name === "cat" && args.every((a) => a === "-")
      ? redirects
          .filter((r) => FILE_REDIRECTS.has(r.op) && (r.fd ?? 1) === 1)
          .map((r) => r.target?.value ?? "")
      : name === "tee"
        ? args.filter((a) => !a.startsWith("-"))
        : [];
  return paths
    .filter((p) => p !== "")
    .map((path) => ({ path: samePath(path), body }));
}

/**
 * The script file a command runs from the shell: `bash F`, `sh -e F`, `source F`, `. F`, or `./F` itself.
 * Paths come back as {@link writtenScripts} keys them, so `F` and `./F` meet.
 */
export function ranScript(argv: readonly string[]): string | null {
  const name = commandName(argv[0]);
  const args = argv.slice(1);
  if (name === "source" || name === ".")
    return args[0] === undefined ? null : samePath(args[0]);
  if (SHELLS.has(name)) {
    const script = args.find((a) => !/^[-+]/.test(a));
    const options = args.slice(
      0,
      script === undefined ? 0 : args.indexOf(script),
    );
    // `-c` runs its operand as code and `-o`/`-O` take one: neither names a script file.
    if (script === undefined || options.some((o) => /^-[a-zA-Z]*[coO]/.test(o)))
      return null;
    return samePath(script);
  }
  const word = argv[0];
  return word !== undefined && word.includes("/") ? samePath(word) : null;
}

/** `./run.sh` and `run.sh` are one literal path; nothing else is normalised. */
function samePath(path: string): string {
  return path.replace(/^(?:\.\/)+/, "");
}
