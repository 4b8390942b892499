import { readdirSync } from "node:fs";
import { readBounded } from "../../adapters/read-bounded.ts";
import { MAX_PATCH_BYTES } from "../../core/paths/input-limits.ts";
import { join } from "node:path";
import { resolveRealPath } from "../../adapters/resolve-real-path.ts";
import type { BashAnalysis, SimpleCommand } from "../../core/bash/types.ts";
import {
  cdFolders,
  DYNAMIC,
  findNameFilter,
  gitApplyPatches,
  linkTargets,
  mentionsIn,
  patchTargets,
  staticFolder,
  VARIABLE,
} from "../../core/bash/bash-targets.ts";
import type { FileChange } from "../../core/guards/types.ts";
import { mayWriteFiles } from "../../core/bash/code-writes.ts";
import { toAbsolute, toRepoPath } from "../../core/paths/repo-path.ts";
import { isTrustPath } from "../../core/paths/trust-paths.ts";
import { shellGlob } from "../../core/paths/shell-glob.ts";
import { NO_DEADLINE, type CheckTime } from "../../core/time/deadline.ts";
import {
  freshTempFolder,
  showFreshTemp,
} from "../../core/bash/expand-fresh-temp.ts";
import { expandTilde } from "../../core/bash/expand-tilde.ts";

export interface BashChangeInput {
  projectDir: string;
  cwd: string;
  homeDir: string | null;
  /** The temp folder `mktemp` makes new names in (TMPDIR, else /tmp), for `d=$(mktemp -d); rm -rf "$d"`. */
  tmpDir: string | null;
  /** Throws once the time for the call is up: asked for each target and each folder walked. */
  checkTime?: CheckTime;
}

/**
 * The files a parsed Bash line would change, resolved: relative paths against the payload's cwd and every folder a
 * `cd` in the line leads to (one after another), globs expanded against the guarded files that exist (a glob only
 * ever names existing files), `$VAR` targets kept as "somewhere in this folder", a path in a fresh `mktemp` folder
 * as a new name in the temp folder, link targets as `link`, interpreter code by the guarded names it mentions, and
 * `git apply` by the files its patch names.
 */
export function collectBashChanges(
  input: BashChangeInput,
  bash: BashAnalysis,
): FileChange[] {
  const tmpDir = freshTempFolder(input.tmpDir, input.projectDir);
  const cwds = cdFolders(
    input.cwd,
    bash.commands,
    input.homeDir,
    input.projectDir,
    tmpDir,
  );
  const checkTime = input.checkTime ?? NO_DEADLINE;
  // Listed only when a target needs it: most commands (`git status`, `npm test`) write nothing.
  let listed: string[] | undefined;
  const guardedFiles = () =>
    (listed ??= existingGuarded(input.projectDir, checkTime));
  const changes: FileChange[] = [];
  const root = input.projectDir.replace(/\/$/, "");
  let lineNamed: ((file: string) => boolean) | undefined;
  const namedByLine = (file: string) =>
    (lineNamed ??= lineNames(bash.commands.map((c) => c.text).join("\n")))(
      file,
    );
  const add = (raw: string, op: FileChange["op"], command: string) => {
    checkTime();
    const named = findNameFilter(bash.commands, command);
    const within = (folder: string, dynamic: boolean) => {
      for (const file of guardedFiles())
        if (file.startsWith(`${folder}/`) && named(file)) {
          checkTime();
          changes.push(change(input, "/", file, raw, op, command, dynamic));
        }
    };
    for (const cwd of cwds) {
      const word = expandTilde(
        raw,
        cwd,
        input.homeDir,
        input.projectDir,
        tmpDir,
      );
      if (!DYNAMIC.test(word)) {
        const direct = change(input, cwd, word, raw, op, command, false);
        changes.push(direct);
        // Deleting or moving a folder takes the guarded files inside it along.
        if (op === "delete" || op === "move") within(direct.absolute, false);
        continue;
      }
      const folder = change(
        input,
        cwd,
        staticFolder(word),
        raw,
        op,
        command,
        true,
      );
      if (VARIABLE.test(word)) {
        changes.push(folder);
        // `$F` is known only at run time: it could be any guarded file below the folder it starts in. Below the
        // root that folder says where the line aims (`plan/$f`, `.claude/$x`). From the root it could be any file
        // at all: the sandbox keeps the trust paths, Claude Code's settings and git's config and hooks read-only,
        // and a tick written there is checked against the records later, so only state.md and the playbooks the
        // line itself names count (`f=state.md; ... $f` spelled so that the parser cannot follow it).
        if (!isAtOrAbove(folder.absolute, root) || raw === UNREAD_PATCH)
          within(folder.absolute, true);
        else
          for (const file of guardedFiles())
            if (isStateOrPlaybook(root, file) && namedByLine(file)) {
              checkTime();
              changes.push(change(input, "/", file, raw, op, command, true));
            }
        continue;
      }
      const glob = toAbsolute(cwd, word);
      changes.push({ ...folder, glob });
      const pattern = shellGlob(glob);
      // A guarded folder (`.claude/playbook`) is reached by a glob that matches it, a folder above it, or a path
      // inside it (`.claude/*/records`).
      for (const file of guardedFiles()) {
        // A pattern can be as long as the command: each match costs pattern × path steps.
        checkTime();
        if (pattern.reaches(file) || pattern.reachesInside(file))
          changes.push(change(input, "/", file, raw, op, command, true));
      }
    }
  };
  for (const write of bash.writes) add(write.path, write.op, write.command);
  for (const cmd of bash.commands) {
    for (const target of linkTargets(cmd)) add(target, "link", cmd.text);
    for (const file of patchedFiles(cmd, cwds[0] ?? input.cwd))
      add(file, "write", cmd.text);
  }
  for (const code of bash.inlineCode) {
    // Code that only reads changes nothing: naming `state.md` in `print(open('state.md').read())` is no write.
    if (!mayWriteFiles(code.interpreter, code.code)) continue;
    for (const mention of mentionsIn(
      code.code,
      guardedFiles(),
      input.projectDir,
    ))
      add(mention, "inline-code", code.command);
  }
  // What interpreter code does to a trust path the OS decides: the agent's shell sees them read-only.
  return changes.filter(
    (c) =>
      c.absolute !== "/dev/null" &&
      !(c.op === "inline-code" && c.path !== null && isTrustPath(c.path)),
  );
}

function isAtOrAbove(folder: string, root: string): boolean {
  return folder === root || folder === "/" || root.startsWith(`${folder}/`);
}

function isStateOrPlaybook(root: string, file: string): boolean {
  return file === `${root}/state.md` || file.startsWith(`${root}/plan/`);
}

/** Whether the line names `file` (state.md or a playbook): by its file name, or `plan` as a path of its own. */
function lineNames(text: string): (file: string) => boolean {
  const plan = /(?:^|[\s'"=(:])(?:\.\/)?plan(?:\/|[\s'")]|$)/.test(text);
  return (file) =>
    (plan && !file.endsWith("/state.md")) ||
    text.includes(file.slice(file.lastIndexOf("/") + 1));
}

function change(
  input: BashChangeInput,
  cwd: string,
  fixed: string,
  raw: string,
  op: FileChange["op"],
  command: string,
  dynamic: boolean,
): FileChange {
  const absolute = resolveRealPath(cwd, fixed);
  return {
    path: toRepoPath(input.projectDir, "/", absolute),
    absolute,
    raw: showFreshTemp(raw),
    tool: "Bash",
    op,
    command,
    dynamic,
    document: null,
  };
}

/** The files and folders whose change the records rules refuse from the shell, as absolute paths that exist. */
function existingGuarded(projectDir: string, checkTime: CheckTime): string[] {
  const found: string[] = [];
  const root = projectDir.replace(/\/$/, "");
  const walk = (dir: string, depth: number) => {
    checkTime();
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory() && depth < 4) walk(path, depth + 1);
      else if (/^playbook-.*\.md$/i.test(entry.name)) found.push(path);
    }
  };
  walk(`${root}/plan`, 0);
  for (const rel of [
    "state.md",
    ".claude/playbook",
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude/protected-files.txt",
    ".git",
  ])
    found.push(`${root}/${rel}`);
  // What sits directly inside the runtime folder and git's, so `find . -name records -exec rm -rf {} +` (a glob
  // through `**`) is seen to reach `.claude/playbook/records`.
  for (const rel of [".claude/playbook", ".git"]) {
    try {
      for (const name of readdirSync(`${root}/${rel}`))
        found.push(`${root}/${rel}/${name}`);
    } catch {
      // Not there: nothing inside to reach.
    }
  }
  return found;
}

/** What an unreadable patch changes: anything, so every guarded file counts. */
const UNREAD_PATCH = "$PATCHED";

/** The files a `git apply PATCH` would change: read from each patch it applies (`patchTargets`). */
function patchedFiles(cmd: SimpleCommand, cwd: string): string[] {
  const files: string[] = [];
  for (const patch of gitApplyPatches(cmd.argv)) {
    let text: string;
    try {
      text = readBounded(join(cwd, patch), MAX_PATCH_BYTES).text;
    } catch {
      // An unreadable patch could change anything: count it as a change somewhere in the repository.
      files.push(UNREAD_PATCH);
      continue;
    }
    files.push(...patchTargets(text));
  }
  return files;
}
