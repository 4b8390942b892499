import { commandName } from "./command-name.ts";
import type { ShellRedirect, ShellWord } from "./shell-syntax.ts";

/**
 * The text a command reads on standard input from its own here-documents and here-strings, or from an `echo` or
 * `printf` with fixed words piped into it (`echo CODE | bash`).
 */
export function stdinScripts(
  redirects: readonly ShellRedirect[],
  pipedFrom?: readonly ShellWord[],
): string[] {
  const scripts: string[] = [];
  for (const r of redirects) {
    if (r.fd !== null && r.fd !== 0) continue;
    if (r.hereDoc) scripts.push(r.hereDoc.body);
    else if (r.op === "<<<" && r.target) scripts.push(r.target.value);
  }
  const echoed = pipedFrom ? echoedText(pipedFrom) : null;
  if (echoed !== null) scripts.push(echoed);
  return scripts;
}

/** What `echo WORDS` or `printf WORDS` prints, near enough to analyse as code; null for anything else. */
function echoedText(words: readonly ShellWord[]): string | null {
  const name = commandName(words[0]?.value);
  if (name !== "echo" && name !== "printf") return null;
  let args = words.slice(1).map((w) => w.value);
  if (name === "echo")
    while (/^-[neE]+$/.test(args[0] ?? "")) args = args.slice(1);
  // Escapes become what printf (and `echo -e`) would print; a separator between commands is what matters.
  return args.join(" ").replace(/\\n/g, "\n").replace(/\\t/g, "\t");
}
