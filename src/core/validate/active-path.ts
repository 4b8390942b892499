/**
 * Why `active` may not be followed, or null when it is a safe path: relative, inside the repository, under
 * `plan/`, a markdown file. Never resolves the path: the caller checks existence.
 */
export function explainUnsafeActivePath(active: string): string | null {
  const path = active.replace(/\\/g, "/");
  if ([...path].some((ch) => ch.charCodeAt(0) < 0x20))
    return "it contains control characters";
  if (path.startsWith("/") || path.startsWith("~") || /^[A-Za-z]:/.test(path))
    return "it is absolute";
  const segments = path.replace(/^\.\//, "").split("/");
  if (segments.includes("..")) return "it leaves the repository with `..`";
  if (segments[0] !== "plan" || segments.length < 2)
    return "it is not under plan/";
  if (!path.endsWith(".md")) return "it is not a markdown file";
  return null;
}

/** `./plan/x.md`, `plan//x.md`, `plan/./x.md` and `plan\\x.md` all become `plan/x.md`. */
export function normaliseActivePath(active: string): string {
  return active
    .replace(/\\/g, "/")
    .split("/")
    .filter((segment) => segment !== "" && segment !== ".")
    .join("/");
}
