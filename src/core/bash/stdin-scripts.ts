import type { ShellRedirect } from "./shell-syntax.ts";

/** The text a command reads on standard input from its own here-documents and here-strings. */
export function stdinScripts(redirects: readonly ShellRedirect[]): string[] {
  const scripts: string[] = [];
  for (const r of redirects) {
    if (r.fd !== null && r.fd !== 0) continue;
    if (r.hereDoc) scripts.push(r.hereDoc.body);
    else if (r.op === "<<<" && r.target) scripts.push(r.target.value);
  }
  return scripts;
}
