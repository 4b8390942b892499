/** What a sandboxed validation may write and reach. */
export interface SandboxReach {
  root: string;
  /** The command's own temp folder (its TMPDIR), made for the run and removed after it. */
  tempDir: string;
  /** Every folder it may write: the project, its temp folder, the package managers' caches, `verify.allowWrite`. */
  writable: string[];
  /** What it may never write, whatever the configuration says: the trust paths, Claude Code's settings, `.git`. */
  guarded: string[];
  allowedDomains: string[];
  /**
   * How the sandbox refuses a write where it may not: Linux mounts those paths read-only (EROFS), macOS's sandbox
   * answers "Operation not permitted" (EPERM), which elsewhere is often the code's own doing.
   */
  refusesWritesWith: "EROFS" | "EPERM";
}

/** Something the sandbox refused a validation, which its output or the sandbox itself shows. */
export interface SandboxRefusal {
  /** For the user: "a write to /home/u/.cache/x", "a connection to registry.npmjs.org". */
  what: string;
  /** The `.claude/playbook.json` key that allows it, or null when nothing may. */
  key: "verify.allowWrite" | "verify.allowedDomains" | null;
  /** Why no key allows it (when `key` is null). */
  why: string | null;
}

/** Output lines worth reading for a refusal: a read-only file system, a refused operation, a name not resolved. */
export const REFUSAL_LINE =
  /EROFS|Read-only file system|EPERM|Operation not permitted|EAI_AGAIN|ENOTFOUND|Could not resolve host|Temporary failure in name resolution/i;

const READ_ONLY = /EROFS|Read-only file system/i;
const NOT_PERMITTED = /EPERM|Operation not permitted/i;
const NAME_NOT_RESOLVED =
  /getaddrinfo\s+(?:ENOTFOUND|EAI_AGAIN)\s+([\w.-]+)|Could not resolve host:?\s*([\w.-]+)|EAI_AGAIN|ENOTFOUND|Temporary failure in name resolution/i;
const SOCKET = /\b(?:listen|connect|bind)\b|\.sock\b|\.pipe\b/i;

/**
 * Why a failed validation may have failed because of the sandbox rather than the code: a connection the sandbox
 * refused (`violations`, as the sandbox reports them), a name it could not resolve with no network allowed, or a write
 * refused outside what the validation may write (`lines`, from its output). The first one found, or null.
 */
export function findSandboxRefusal(input: {
  lines: readonly string[];
  violations: readonly string[];
  reach: SandboxReach;
}): SandboxRefusal | null {
  const { reach } = input;
  for (const violation of input.violations) {
    const host = /network-outbound\s+(\[[^\]]+\]|[^\s:]+)/.exec(violation)?.[1];
    if (host)
      return {
        what: `a connection to ${host}`,
        key: "verify.allowedDomains",
        why: null,
      };
  }
  for (const line of input.lines) {
    const name = NAME_NOT_RESOLVED.exec(line);
    if (name) {
      const host = name[1] ?? name[2] ?? null;
      if (host !== null && isAllowedHost(host, reach.allowedDomains)) continue;
      if (host === null && reach.allowedDomains.length > 0) continue;
      return {
        what: `a connection to ${host ?? "the network"}`,
        key: "verify.allowedDomains",
        why: null,
      };
    }
    const readOnly = READ_ONLY.test(line);
    const notPermitted = NOT_PERMITTED.test(line);
    if (!readOnly && !notPermitted) continue;
    const found = pathIn(line);
    if (found === null) continue;
    const path = absolute(found, reach.root);
    const inside = (folder: string) =>
      path === folder || path.startsWith(`${folder}/`);
    if (SOCKET.test(line) && notPermitted) {
      if (inside(reach.tempDir)) continue;
      return {
        what: `a unix socket at ${path}`,
        key: null,
        why: "validations open unix sockets only in their own temp folder ($TMPDIR)",
      };
    }
    if (reach.guarded.some(inside))
      return {
        what: `a write to ${shown(path, reach.root)}`,
        key: null,
        why: "the trust paths, Claude Code's settings and .git stay read-only for every validation",
      };
    const refused =
      readOnly || (notPermitted && reach.refusesWritesWith === "EPERM");
    if (!refused) continue;
    if (inside(reach.root))
      return {
        what: `a write to ${shown(path, reach.root)}`,
        key: null,
        why: "files that configure shells, editors and git stay read-only for every validation",
      };
    if (reach.writable.some(inside)) continue;
    return { what: `a write to ${path}`, key: "verify.allowWrite", why: null };
  }
  return null;
}

/** The path a refusal line names: quoted (`open '/x'`), after a socket call, or before bash's `: Read-only ...`. */
function pathIn(line: string): string | null {
  const quoted =
    /'([^'\n]*[/.][^'\n]*)'|"([^"\n]*[/.][^"\n]*)"|‘([^’\n]+)’/.exec(line);
  if (quoted) return quoted[1] ?? quoted[2] ?? quoted[3] ?? null;
  const socket = /\b(?:listen|connect|bind)\s+E\w+:[^/]*?(\/\S+)/.exec(line);
  if (socket?.[1]) return socket[1];
  const shell =
    /(?:^|:\s)([^:\s][^:]*?):\s*(?:Read-only file system|Operation not permitted)\s*$/.exec(
      line,
    );
  return shell?.[1]?.trim() ?? null;
}

function absolute(path: string, root: string): string {
  const joined = path.startsWith("/") ? path : `${root}/${path}`;
  const parts: string[] = [];
  for (const part of joined.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

function shown(path: string, root: string): string {
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

function isAllowedHost(host: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => {
    const pattern = entry.replace(/:\d+$/, "");
    return pattern.startsWith("*.")
      ? host.endsWith(pattern.slice(1))
      : host === pattern;
  });
}
