import { resolveRealPath } from "../../adapters/resolve-real-path.ts";
import { stringsInToolInput } from "../../core/guards/unknown-tool.ts";
import { toRepoPath } from "../../core/paths/repo-path.ts";
import { expandTilde } from "../../core/bash/expand-tilde.ts";

export interface UnknownToolInput {
  projectDir: string;
  cwd: string;
  homeDir: string | null;
  toolInput: Record<string, unknown>;
}

/** Bare names that are guarded themselves; any other bare word is taken for a word, not a path. */
const GUARDED_NAMES = /^(?:state\.md|plan|\.claude|\.git|node_modules)$/i;

/**
 * The paths a tool the guards do not know names in its input, inside the repository (repository-relative) and
 * outside it (absolute): absolute, relative to the call's cwd,
 * `~`, `~+` or a `file://` URL, with `..` and symlinks resolved. Words that are no path (`hello`, `42`) are skipped.
 */
export function unknownToolPaths(input: UnknownToolInput): {
  inside: string[];
  outside: string[];
} {
  const paths = new Set<string>();
  const outside = new Set<string>();
  for (const raw of stringsInToolInput(input.toolInput)) {
    const file = fromFileUrl(raw);
    if (!/[/\\]|^[~.]/.test(file) && !GUARDED_NAMES.test(file)) continue;
    const absolute = resolveRealPath(
      input.cwd,
      expandTilde(file, input.cwd, input.homeDir),
    );
    const path = toRepoPath(input.projectDir, "/", absolute);
    if (path !== null) paths.add(path);
    else outside.add(absolute);
  }
  return { inside: [...paths], outside: [...outside] };
}

function fromFileUrl(text: string): string {
  if (!/^file:\/\//i.test(text)) return text;
  try {
    return decodeURIComponent(new URL(text).pathname);
  } catch {
    return text.slice("file://".length);
  }
}
