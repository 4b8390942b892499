/**
 * A shell glob as regular-expression source: `*` and `?` stay within a folder, `**` crosses folders, `[...]` is a
 * class (`[!...]` negated); everything else is literal.
 */
export function shellGlobSource(glob: string): string {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] ?? "";
    if (ch === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (ch === "*") source += "[^/]*";
    else if (ch === "?") source += "[^/]";
    else if (ch === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) source += "\\[";
      else {
        source += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else source += ch.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return source;
}

/** Paths a shell glob over absolute paths reaches: what it matches and, since it may name a folder, all inside. */
export function shellGlobReach(glob: string): RegExp {
  return new RegExp(`^${shellGlobSource(glob)}(?:/.*)?$`);
}

/** What a shell glob matches itself (a folder it matches, not the files inside it). */
export function shellGlobMatch(glob: string): RegExp {
  return new RegExp(`^${shellGlobSource(glob)}$`);
}

/** Whether a glob's last segment matches every name in its folder (`dir/*`, `dir/.*`, `dir/**`). */
export function isWholeFolderGlob(glob: string): boolean {
  const last = glob.slice(glob.lastIndexOf("/") + 1);
  return /^(?:\.?\*+|\*\*)$/.test(last);
}
