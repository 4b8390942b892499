/**
 * Whether interpreter code (`python3 -c`, `node -e`, a script file) could change files: it calls something that
 * writes, deletes, moves, runs other programs or reaches functions by a computed name. Read-only code (`print(
 * open('state.md').read())`) only mentions the files it names. A heuristic for friendly, early reasons: it errs on
 * the side of "could write", and the OS sandbox keeps the trust paths read-only whatever the code does.
 */
export function mayWriteFiles(interpreter: string, code: string): boolean {
  const text = code.replace(STANDARD_STREAMS, "");
  if (WRITING.some((pattern) => pattern.test(text))) return true;
  // In shells, Perl, Ruby and PHP backticks run a command.
  return (
    !/^(?:node|nodejs|deno|bun|python\d*(?:\.\d+)?)$/.test(interpreter) &&
    text.includes("`")
  );
}

/** Printing is not writing a file. */
const STANDARD_STREAMS =
  /\b(?:sys\.|process\.)?std(?:out|err)\.write\b|\bconsole\.\w+\b|\bprint(?:ln|f)?\b/g;

const WRITING: readonly RegExp[] = [
  // File changes by name, in any of the usual libraries.
  /write|append|unlink|remove|delete|rmdir|rmtree|rename|truncate|symlink|chmod|chown|mkdir|makedirs|touch|copy|move|dump|save|utime|mkfifo|put_contents|fputs|extract|\blink\s*\(/i,
  // Other programs, and code or functions reached by a computed name.
  /\b(?:system|popen|spawn\w*|exec\w*|fork|eval|compile|subprocess|shutil|child_process|Function|__import__|importlib|getattr|setattr|globals|Reflect|binding|FileUtils|syscall|ctypes|sysopen|open3|qx|Deno|Bun)\b/,
  /\bimport\s*\(|\brequire\s*\(\s*[^'"\s]/,
  // open() with a mode that writes: 'w', 'a', 'x', '+', a flag, or Perl's `>`/`|`.
  /\bopen\w*\s*\([^)]*(?:['"][rbtU]*[wax+][rbtU+]*['"]|\bmode\s*=|O_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND)|['"]\s*[+>|])/,
  /\bopen\b[^;\n]*['"]\s*[+>|]/,
  // Path.replace(target) moves a file; str.replace(a, b) takes two arguments.
  /\.replace\(\s*[^,()]*\)/,
];
