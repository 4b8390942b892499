import type { SecurityMode } from "../model/state.ts";
import type { ProtectedRule } from "../guards/protected-rules.ts";
import { isRepairPath } from "./repo-path.ts";
import { sandboxDenyWrite } from "./trust-paths.ts";

/** A protected-files rule the operating system cannot hold as written, and what to do about it. */
export interface UnheldRule {
  rule: ProtectedRule;
  why: string;
  next: string;
}

/** What `.claude/protected-files.txt` adds to the boundary, and which of its rules only the hook holds. */
export interface ProtectedBoundary {
  /** `sandbox.filesystem.denyWrite` entries, relative to the project. */
  denyWrite: string[];
  /** `permissions.deny` rules for the file tools. */
  deny: string[];
  unheld: UnheldRule[];
}

/**
 * How one gitignore pattern is held at the OS level. Claude Code's sandbox runtime on Linux takes literal paths, and
 * a trailing `/**` as the folder; any other glob character makes it skip the entry without a word, so such a
 * pattern is reported instead. A pattern without a slash (other than a trailing one) matches a name at any depth:
 * the sandbox holds the one at the root, and `doctor` names deeper files it finds writable.
 */
export function toSandboxPath(
  pattern: string,
): { path: string; folder: boolean; anywhere: boolean } | { why: string } {
  let body = pattern.replace(/\\ /g, " ").trimEnd();
  const folderOnly = body.endsWith("/");
  body = body.replace(/\/+$/, "");
  const anchored = body.startsWith("/") || body.includes("/");
  body = body.replace(/^\/+/, "");
  let folder = folderOnly;
  if (body.endsWith("/**")) {
    body = body.slice(0, -3);
    folder = true;
  }
  if (body === "" || body === "**" || body === "*")
    return { why: "it covers the whole project" };
  if (/[*?[\]]/.test(body) || /\\./.test(body))
    return { why: "the sandbox takes only plain paths and `folder/**`" };
  if (body.split("/").some((part) => part === ".." || part === "."))
    return { why: "it names a path outside the project's layout" };
  return { path: body, folder, anywhere: !anchored };
}

/**
 * The sandbox entries and file-tool rules for the enforced rules of `.claude/protected-files.txt`: HARD_BLOCK in every
 * mode, BLOCK in strict (WARN never refuses); `Edit(...)` rules for HARD_BLOCK only. The built-in rules are the trust paths, held already. A negation
 * (`!pattern`) cannot carve a path out of a read-only folder: it removes an entry it names exactly, and is reported
 * otherwise (the file tools honour it, the shell does not). Entries on the repair path (`state.md`, `plan/**`) or
 * above it are never added, so no list can lock the workflow. A path that does not exist (yet) is added once it does.
 */
export function planProtectedBoundary(
  rules: readonly ProtectedRule[],
  security: SecurityMode,
  exists: (path: string) => boolean = () => true,
): ProtectedBoundary {
  const enforced = rules.filter(
    (r) =>
      r.source !== "built-in" &&
      (r.level === "HARD_BLOCK" ||
        (r.level === "BLOCK" && security === "strict")),
  );
  const held = new Map<string, { folder: boolean; hard: boolean }>();
  const unheld: UnheldRule[] = [];
  const fixed = new Set(sandboxDenyWrite());
  for (const rule of enforced) {
    const negated = rule.pattern.startsWith("!");
    const found = toSandboxPath(negated ? rule.pattern.slice(1) : rule.pattern);
    if ("why" in found) {
      unheld.push({
        rule,
        why: `\`${rule.pattern}\` is held by the hook alone: ${found.why}`,
        next: negated
          ? "Name the files to keep writable instead, or list only the files to protect."
          : "List the files themselves (e.g. `/deploy/production.key`) or their folder (`/secrets/**`).",
      });
      continue;
    }
    if (negated) {
      if (held.delete(found.path)) continue;
      unheld.push({
        rule,
        why: `\`${rule.pattern}\` reopens paths inside a folder the sandbox keeps read-only: the file tools may write them, the agent's shell may not`,
        next: "List the protected files one by one instead of their folder, if the shell must write the others.",
      });
      continue;
    }
    if (isRepairPath(found.path) || isAboveRepairPath(found.path)) {
      unheld.push({
        rule,
        why: `\`${rule.pattern}\` would cover state.md or plan/, which stay writable so the workflow can always go on`,
        next: "Protect the files beside them one by one.",
      });
      continue;
    }
    if (fixed.has(found.path)) continue;
    held.set(found.path, {
      folder: found.folder || (held.get(found.path)?.folder ?? false),
      hard:
        rule.level === "HARD_BLOCK" || (held.get(found.path)?.hard ?? false),
    });
  }
  // A path that does not exist is left out until it does: the sandbox would make an empty mount point there for
  // every command, which `git add -A` and the tree's fingerprint (a verify running beside the command) would see.
  for (const path of [...held.keys()]) if (!exists(path)) held.delete(path);
  const denyWrite = [...held.keys()];
  // Claude Code keeps a permission rule it loaded until it restarts, and makes the sandbox deny its path as well: a
  // BLOCK rule, which a change of security mode lifts, gets no Edit rule (the hook's guard refuses the file tools).
  const deny = [...held]
    .filter(([, { hard }]) => hard)
    .flatMap(([path, { folder }]) =>
      folder ? [`Edit(/${path}/**)`] : [`Edit(/${path})`, `Edit(/${path}/**)`],
    );
  return { denyWrite, deny, unheld };
}

function isAboveRepairPath(path: string): boolean {
  return ["state.md", "plan/"].some((p) => p.startsWith(`${path}/`));
}
