import type { SimpleCommand } from "../bash/types.ts";
import {
  isPlaybookPath,
  isRuntimePath,
  isStatePath,
} from "../paths/repo-path.ts";
import { isWholeFolderGlob, shellGlob } from "../paths/shell-glob.ts";
import { baseName, gitArgs, hasFlag, playbookArgs } from "./command-words.ts";
import { spellingProblem } from "./playbook-spelling.ts";
import { ALLOW, block, context, isAgent } from "./facts.ts";
import type {
  Effect,
  FileChange,
  Guard,
  GuardContext,
  GuardResult,
} from "./types.ts";

/**
 * docs/guards.md #10 and §6: a Bash command is judged by the simple commands a shell parser finds in it. Records rules
 * (every mode): no shell writes to playbooks, `state.md` or the runtime folder, and `playbook review|crit|confirm`
 * only from the reviewer, the critic or a person. Destructive commands are blocked (context only in developer mode).
 */
export const bashCheckGuard: Guard = {
  id: "bash-check",
  number: 10,
  events: ["PreToolUse"],
  // It judges writes to the records and the trust paths: a failure must not let a write through.
  failClosed: true,
  check(ctx) {
    if (ctx.toolName === "PowerShell") return checkPowerShell(ctx);
    const bash = ctx.bash;
    if (!bash) return ALLOW;
    // What the parser gives up on could do anything: refused, never run unchecked.
    if (bash.error !== null)
      return block(
        `Blocked: playbook could not analyse this command (${bash.error}), so what it changes cannot be checked. Next: split it into simpler commands (fewer nested \`$(...)\`, \`bash -c\` or \`eval\` levels), or put long scripts in a file and run that.`,
      );
    return (
      checkRecordWrites(ctx) ??
      checkInlineRecordCommands(bash.inlineCode) ??
      checkPlaybookCommands(ctx, bash.commands) ??
      checkDestructive(ctx, bash.commands)
    );
  },
};

function checkRecordWrites(ctx: GuardContext): GuardResult | null {
  for (const change of ctx.changes) {
    if (change.tool !== "Bash" || change.path === null) continue;
    const path = change.path;
    const guarded =
      isRuntimePath(path) || isPlaybookPath(path) || isStatePath(path);
    if (!guarded) continue;
    const command = `\`${change.command ?? ""}\``;
    const via =
      change.op === "inline-code"
        ? `code run by ${command}`
        : change.op === "link"
          ? `${command} links to it, so a later write through the link`
          : change.dynamic
            ? `${command}, which names its target (\`${change.raw}\`) only when it runs,`
            : command;
    if (isRuntimePath(path))
      return block(
        `Blocked: ${via} could change \`${path}\`. Records, grants and locks are written only by playbook commands. Next: use \`playbook verify\`, the reviewer or the critic to create proof.`,
      );
    return block(
      `Blocked: ${via} could change \`${path}\` from the shell, where the change cannot be checked. Next: use the Edit or Write tool for ${isStatePath(path) ? "state.md" : "playbooks"} (they stay editable)${change.dynamic ? ", and name files explicitly in shell commands" : ""}.`,
    );
  }
  return null;
}

/**
 * PowerShell is not parsed (the shell parser knows Bash): a PowerShell command that names a guarded file or runs a
 * record command is refused, since what it does to them cannot be checked.
 */
function checkPowerShell(ctx: GuardContext): GuardResult {
  const raw = ctx.toolInput["command"];
  const command = typeof raw === "string" ? raw : "";
  const guarded =
    /(?:^|[\s"'\\/])(?:state\.md|\.claude|playbook-[^\s"'\\/]*\.md)\b|(?:^|[\s"'])plan(?:[\\/]|\b)|\bplaybook\s+(?:review|crit|confirm)\b/i;
  if (!guarded.test(command)) return ALLOW;
  return block(
    "Blocked: this PowerShell command names state.md, a playbook, plan/ or .claude/, and playbook cannot check PowerShell's effect on them. Next: use the Edit or Write tool for those files, and Bash or PowerShell only for other work.",
  );
}

/** Interpreter code that starts `playbook review|crit|confirm` itself (e.g. through a pseudo-terminal) is refused. */
function checkInlineRecordCommands(
  inline: readonly { interpreter: string; code: string }[],
): GuardResult | null {
  const found = inline.find((c) =>
    /\bplaybook\b[\s\S]{0,40}?\b(?:review|crit|confirm)\b/.test(c.code),
  );
  return found
    ? block(
        `Blocked: ${found.interpreter} code that runs \`playbook review\`, \`crit\` or \`confirm\` would record a verdict outside the reviewer, the critic or the user. Next: let the right agent run the command directly, or ask the user to run \`playbook confirm\`.`,
      )
    : null;
}

/**
 * Commands that write records, the lock, the archive journal or the plan (which the agent's shell may not): the hook
 * runs them itself (see `trusted`).
 */
function writesTrustState(sub: string | undefined, verb: string | undefined) {
  return (
    sub === "new" ||
    sub === "verify" ||
    sub === "post-loop" ||
    sub === "archive" ||
    (sub === "review" && (verb === "approve" || verb === "reject")) ||
    (sub === "crit" && verb === "record")
  );
}

function checkPlaybookCommands(
  ctx: GuardContext,
  commands: readonly SimpleCommand[],
): GuardResult | null {
  const effects: Effect[] = [];
  for (const cmd of commands) {
    const args = playbookArgs(cmd.argv);
    if (!args) continue;
    const misspelled = spellingProblem(cmd.argv, args, ctx.cliSetup, ctx);
    if (misspelled) return block(misspelled);
    const [sub, verb] = args;
    if (writesTrustState(sub, verb)) {
      const alone = trustedCommand(ctx, commands, cmd);
      if (!alone)
        return block(
          `Blocked: \`playbook ${sub}${verb && sub !== "verify" ? ` ${verb}` : ""}\` writes ${sub === "new" ? "the plan" : "proof"}, so playbook runs it itself, outside your shell, and it has to be a command of its own. Next: run \`${cmd.text}\` alone, with its arguments spelled out (no \`cd ... &&\`, pipes, redirects or variables).`,
        );
      if (alone.kind === "refused")
        return block(
          `Blocked: \`${cmd.text}\`: ${alone.reason}. playbook runs this command itself, outside your shell, at the project's root, and accepts only its own arguments. Next: run it as \`playbook ${sub}${verb && sub !== "verify" ? ` ${verb}` : ""} ...\` with those arguments (from any folder of the project).`,
        );
      effects.push(alone);
    }
    if (
      sub === "init" ||
      sub === "uninstall" ||
      sub === "upgrade" ||
      sub === "install"
    )
      return block(
        `Blocked: \`playbook ${sub}\` changes the hook wiring and the framework's own files, so only the user runs it, in their own terminal. Next: tell the user what you want changed and ask them to run \`playbook ${sub}\`.`,
      );
    if (sub === "confirm")
      return block(
        "Blocked: `playbook confirm` records that a person checked the work, so only the user runs it, in their own terminal. Next: ask the user to run it.",
      );
    if (sub === "review" && (verb === "approve" || verb === "reject")) {
      if (!isAgent(ctx, "reviewer"))
        return block(
          "Blocked: `playbook review` records the reviewer's verdict and runs only in the reviewer subagent. Next: ask the reviewer subagent to review the playbook.",
        );
      effects.push(grant(ctx, "review", cmd.text));
    }
    if (sub === "crit" && verb === "record") {
      if (!isAgent(ctx, "critic"))
        return block(
          "Blocked: `playbook crit record` records the critic's verdict and runs only in the critic subagent. Next: run /crit so the critic verifies the phase.",
        );
      effects.push(grant(ctx, "crit", cmd.text));
    }
  }
  return effects.length > 0 ? { decision: { kind: "allow" }, effects } : null;
}

/**
 * The hook runs a proof-writing command itself when it is the whole Bash call: one simple command, no redirect, no
 * run-time value. Then what the agent's shell runs instead only shows the result, so nothing the agent's shell can
 * reach ever writes a record.
 */
function trustedCommand(
  ctx: GuardContext,
  commands: readonly SimpleCommand[],
  cmd: SimpleCommand,
): Effect | { kind: "refused"; reason: string } | null {
  const raw = ctx.toolInput["command"];
  const whole = typeof raw === "string" ? raw.trim() : "";
  if (
    commands.length !== 1 ||
    cmd.depth !== 0 ||
    cmd.dynamic ||
    cmd.redirects.length > 0 ||
    Object.keys(cmd.env).length > 0 ||
    whole !== cmd.text.trim()
  )
    return null;
  const parsed = ctx.bash?.playbookCalls?.get(cmd) ?? {
    ok: false,
    reason: "its arguments could not be checked",
  };
  return parsed.ok
    ? { kind: "trusted-command", args: parsed.args }
    : { kind: "refused", reason: parsed.reason };
}

function grant(
  ctx: GuardContext,
  kind: "review" | "crit",
  command: string,
): Effect {
  return {
    kind: "grant",
    grant: {
      kind,
      agentType: ctx.agentType ?? "",
      sessionId: ctx.sessionId,
      command,
    },
  };
}

function checkDestructive(
  ctx: GuardContext,
  commands: readonly SimpleCommand[],
): GuardResult {
  const blocks: string[] = [];
  const warnings: string[] = [];
  for (const cmd of commands) {
    const found = judgeCommand(ctx, cmd);
    if (found?.level === "block") blocks.push(found.text);
    else if (found) warnings.push(found.text);
  }
  if (blocks.length > 0 && ctx.security !== "developer")
    return block(`Blocked: ${blocks[0]}`);
  const notes = [...blocks, ...warnings];
  return notes.length > 0 ? context(notes.join("\n")) : ALLOW;
}

type Finding = { level: "block" | "warn"; text: string } | null;

/** For the refusals of commands that discard work: what to do when some other command already did. */
const UNDO_HINT =
  "Work a shell command already threw away: `playbook undo` lists the copies playbook keeps.";

function judgeCommand(ctx: GuardContext, cmd: SimpleCommand): Finding {
  const name = baseName(cmd.argv[0] ?? "");
  const args = cmd.argv.slice(1);
  if (name === "rm" || name === "find" || name === "shred" || name === "rmdir")
    return judgeDelete(
      ctx,
      cmd,
      name === "rm" && hasFlag(args, "rR", ["--recursive"]),
    );
  if (name === "chmod" || name === "chown" || name === "chgrp")
    return hasFlag(args, "R", ["--recursive"])
      ? judgeWide(ctx, cmd, `\`${cmd.text}\` changes permissions`)
      : null;
  if (
    /^mkfs(?:\.|$)/.test(name) ||
    ["fdisk", "wipefs", "sfdisk", "parted"].includes(name)
  )
    return {
      level: "block",
      text: `\`${cmd.text}\` rewrites a disk. Next: leave disk changes to the user.`,
    };
  if (
    name === "dd" &&
    args.some((a) => /^of=\/dev\/(?!null\b|zero\b|stdout\b|stderr\b)/.test(a))
  )
    return {
      level: "block",
      text: `\`${cmd.text}\` writes to a device. Next: leave device writes to the user.`,
    };
  if (
    cmd.redirects.some(
      (r) =>
        />/.test(r.op) && /^\/dev\/(?:sd|nvme|disk|hd|mmcblk)/.test(r.target),
    )
  )
    return {
      level: "block",
      text: `\`${cmd.text}\` writes to a device. Next: leave device writes to the user.`,
    };
  const git = gitArgs(cmd.argv);
  if (git) return judgeGit(ctx, cmd, git);
  return null;
}

function isAncestorOrSelf(dir: string, of: string): boolean {
  return dir === "/" || of === dir || of.startsWith(`${dir}/`);
}

function targetsOf(ctx: GuardContext, cmd: SimpleCommand): FileChange[] {
  return ctx.changes.filter((c) => c.tool === "Bash" && c.command === cmd.text);
}

/** `find` predicates that narrow what `-delete` removes: with one of them, `find . -name '*.log' -delete` is routine. */
const FIND_FILTERS = [
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-regex",
  "-iregex",
  "-newer",
  "-mtime",
  "-mmin",
  "-type",
  "-empty",
  "-size",
  "-user",
  "-perm",
];

function judgeDelete(
  ctx: GuardContext,
  cmd: SimpleCommand,
  recursive: boolean,
): Finding {
  const isFind = baseName(cmd.argv[0] ?? "") === "find";
  // A plain `rm "$f"` cannot remove a folder; only recursive deletes can take the repository with them.
  if (!recursive && !isFind) return null;
  const filtered = isFind && cmd.argv.some((a) => FIND_FILTERS.includes(a));
  for (const target of targetsOf(ctx, cmd)) {
    if (target.op !== "delete") continue;
    if (filtered && target.path !== null) continue;
    const wide = judgeTarget(ctx, target, true);
    if (wide)
      return {
        level: "block",
        text:
          target.dynamic && target.glob === undefined
            ? `\`${cmd.text}\` names what it deletes (\`${target.raw}\`) only when it runs, so it could delete ${wide}. Next: delete the specific files or folders the task needs gone, with the path spelled out.`
            : `\`${cmd.text}\` would delete ${wide}. Next: delete the specific files or folders inside the repository that the task needs gone${target.dynamic ? ", with the path spelled out" : ""}.`,
      };
  }
  return null;
}

function judgeWide(
  ctx: GuardContext,
  cmd: SimpleCommand,
  what: string,
): Finding {
  for (const arg of cmd.argv.slice(1)) {
    if (arg.startsWith("-")) continue;
    const target = ctx.changes.find(
      (c) => c.command === cmd.text && c.raw === arg,
    );
    const wide = target ? judgeTarget(ctx, target, true) : null;
    if (wide)
      return {
        level: "block",
        text: `${what} of ${wide}. Next: change permissions only on the paths inside the repository that need it.`,
      };
  }
  return null;
}

/** Why deleting `target` is out of bounds, or null when it is an ordinary path inside the repository. */
function judgeTarget(
  ctx: GuardContext,
  target: FileChange,
  recursive: boolean,
): string | null {
  if (target.glob !== undefined) return judgeGlob(ctx, target.glob, recursive);
  const abs = target.absolute;
  if (isAncestorOrSelf(abs, ctx.projectDir.replace(/\\/g, "/")))
    return abs === ctx.projectDir
      ? "the whole repository"
      : `\`${abs}\`, which contains the repository`;
  if (ctx.homeDir && isAncestorOrSelf(abs, ctx.homeDir))
    return "your home folder";
  if (
    target.path !== null &&
    (target.path === ".git" || target.path.startsWith(".git/"))
  )
    return "git's own data (.git)";
  if (
    target.path === null &&
    recursive &&
    !ctx.tempDirs.some((t) => isAncestorOrSelf(t, abs))
  )
    return `\`${abs}\`, outside the repository`;
  return null;
}

/**
 * A glob deletes what it matches: `*.pyc` at the root cannot reach the repository, `*` takes everything in it, and
 * `../*` takes the repository itself.
 */
function judgeGlob(
  ctx: GuardContext,
  glob: string,
  recursive: boolean,
): string | null {
  const root = ctx.projectDir.replace(/\\/g, "/");
  const pattern = shellGlob(glob);
  const folder = glob.slice(0, glob.lastIndexOf("/")) || "/";
  const whole = isWholeFolderGlob(glob);
  const reaches = (dir: string) =>
    pattern.reaches(dir) || (whole && isAncestorOrSelf(folder, dir));
  if (reaches(root))
    return folder === root && whole
      ? "every file in the repository"
      : `\`${glob}\`, which takes the repository with it`;
  if (ctx.homeDir && reaches(ctx.homeDir)) return "your home folder";
  const git = `${root}/.git`;
  if (
    pattern.reaches(git) ||
    pattern.reachesInside(git) ||
    isAncestorOrSelf(git, folder)
  )
    return "git's own data (.git)";
  const inside = folder === root || folder.startsWith(`${root}/`);
  if (
    !inside &&
    recursive &&
    !ctx.tempDirs.some((t) => isAncestorOrSelf(t, folder))
  )
    return `\`${glob}\`, outside the repository`;
  return null;
}

function judgeGit(
  ctx: GuardContext,
  cmd: SimpleCommand,
  git: string[],
): Finding {
  const [sub = "", ...rest] = git;
  const defaultBranch = ctx.git.defaultBranch ?? "main";
  if (sub === "push") {
    const force =
      hasFlag(rest, "f", ["--force", "--force-with-lease", "--mirror"]) ||
      rest.some((a) => a.startsWith("+"));
    const refspecs = rest.filter((a) => !a.startsWith("-")).slice(1);
    const targets =
      refspecs.length > 0
        ? refspecs.map((r) => {
            const dst = r.replace(/^\+/, "").split(":").pop() ?? "";
            return dst === "HEAD" || dst === ""
              ? (ctx.git.branch ?? "")
              : dst.replace(/^refs\/heads\//, "");
          })
        : [ctx.git.branch ?? ""];
    const deletes =
      hasFlag(rest, "d", ["--delete"]) ||
      refspecs.some((r) => r.startsWith(":"));
    const hitsDefault =
      targets.includes(defaultBranch) ||
      (refspecs.length === 0 && ctx.git.branch === null);
    if ((force || deletes) && targets.includes(defaultBranch))
      return {
        level: "block",
        text: `\`${cmd.text}\` would ${deletes ? "delete" : "force-push"} the default branch \`${defaultBranch}\`, rewriting history others build on. Next: push to the playbook's branch, or merge through a pull request.`,
      };
    if (force)
      return {
        level: "warn",
        text: `\`${cmd.text}\` force-pushes${hitsDefault ? "" : ` ${targets.join(", ")}`}: prefer --force-with-lease and make sure nobody else uses the branch.`,
      };
    return null;
  }
  if (sub === "reset" && rest.includes("--hard")) {
    if (ctx.git.dirtyTracked === true)
      return {
        level: "block",
        text: `\`${cmd.text}\` would throw away uncommitted changes to tracked files. Next: commit them or \`git stash\` them first; then reset. ${UNDO_HINT}`,
      };
    return null;
  }
  // Plumbing that rewrites the working tree from the index or a tree: the porcelain's `reset --hard` by another name.
  if (
    ((sub === "read-tree" && hasFlag(rest, "u")) ||
      (sub === "checkout-index" &&
        hasFlag(rest, "f", ["--force"]) &&
        hasFlag(rest, "a", ["--all", "--stdin"]))) &&
    ctx.git.dirtyTracked === true
  )
    return {
      level: "block",
      text: `\`${cmd.text}\` would throw away uncommitted changes to tracked files. Next: commit them or \`git stash\` them first. ${UNDO_HINT}`,
    };
  if (sub === "!alias")
    return {
      level: "block",
      text: `\`${cmd.text}\` defines a shell alias on the command line, which runs a command playbook cannot read. Next: run the command itself.`,
    };
  if (
    (sub === "checkout" || sub === "restore" || sub === "switch") &&
    ctx.git.dirtyTracked === true
  ) {
    const pathspecs = rest.filter((a) => !a.startsWith("-"));
    const all =
      pathspecs.some(isWholeTreePathspec) ||
      (sub !== "restore" &&
        hasFlag(rest, "f", ["--force", "--discard-changes"]));
    if (all && !(sub === "restore" && isStagedOnly(rest)))
      return {
        level: "block",
        text: `\`${cmd.text}\` would throw away uncommitted changes to tracked files. Next: \`git stash\` them first (or name only the files to restore). ${UNDO_HINT}`,
      };
    return null;
  }
  if (sub === "stash" && ["drop", "clear"].includes(rest[0] ?? ""))
    return {
      level: "block",
      text: `\`${cmd.text}\` deletes stashed work for good. Next: \`git stash pop\` or \`git stash branch <name>\` keeps it; ask the user before dropping a stash.`,
    };
  if (sub === "clean") {
    if (cleansIgnored(rest))
      return {
        level: "block",
        text: `\`${cmd.text}\` deletes ignored files too (.env, local config, build caches) and cannot be undone. Next: delete the specific files, or run \`git clean -n\` to see what it would remove.`,
      };
    if (hasFlag(rest, "f", ["--force"]))
      return {
        level: "warn",
        text: `\`${cmd.text}\` permanently deletes untracked files; \`git clean -n\` shows which (\`playbook undo\` keeps a copy of those git does not ignore).`,
      };
    return null;
  }
  if (sub === "filter-branch" || sub === "filter-repo")
    return {
      level: "warn",
      text: `\`${cmd.text}\` rewrites history; pushed commits would need a force-push afterwards.`,
    };
  if (
    sub === "rebase" &&
    !rest.some((a) =>
      [
        "--abort",
        "--continue",
        "--skip",
        "--quit",
        "--edit-todo",
        "--show-current-patch",
      ].includes(a),
    )
  )
    return {
      level: "warn",
      text: `\`${cmd.text}\` rewrites commits; if they are already pushed, the branch will need a force-push.`,
    };
  if (sub === "commit" && rest.includes("--amend"))
    return {
      level: "warn",
      text: `\`${cmd.text}\` rewrites the last commit; if it is already pushed, the branch will need a force-push.`,
    };
  return null;
}

/**
 * A pathspec that covers the whole tree, its current folder or more: `.`, `./`, `*`, `:/`, `:(top)`, `:/.`, and
 * any path of `.` and `..` steps once resolved (`..`, `../..`, `src/..`), which from a subfolder or `git -C <dir>`
 * reaches the folders above it.
 */
function isWholeTreePathspec(spec: string): boolean {
  return (
    /^(?:\.\/?|\*|:\/?\.?|:\((?:top|glob|icase|[,a-z]+)\)\.?\*?|:\/\*)$/.test(
      spec,
    ) || climbsToFolderAbove(spec)
  );
}

function climbsToFolderAbove(spec: string): boolean {
  const down: string[] = [];
  for (const step of spec.split("/")) {
    if (step === "" || step === ".") continue;
    if (step === "..") down.pop();
    else down.push(step);
  }
  return down.length === 0 && spec.includes("..");
}

/**
 * Whether `git clean` also deletes ignored files: `-x`/`-X`, or an `-e`/`--exclude` pattern starting with `!`, which
 * takes files back out of the ignore rules (`-e '!*'` is `-x`). `-e` takes the rest of its cluster or the next word,
 * so `-ex` is the pattern `x`.
 */
function cleansIgnored(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--") return false;
    if (arg === "--exclude") {
      if ((args[i + 1] ?? "").startsWith("!")) return true;
      i++;
    } else if (arg.startsWith("--exclude=")) {
      if (arg.slice("--exclude=".length).startsWith("!")) return true;
    } else if (/^-[^-]/.test(arg)) {
      for (let at = 1; at < arg.length; at++) {
        const letter = arg[at];
        if (letter === "x" || letter === "X") return true;
        if (letter === "e") {
          const value = at + 1 < arg.length ? arg.slice(at + 1) : args[++i];
          if ((value ?? "").startsWith("!")) return true;
          break;
        }
      }
    }
  }
  return false;
}

/** `git restore --staged` without `--worktree` touches only the index. */
function isStagedOnly(args: readonly string[]): boolean {
  return (
    args.some((a) => a === "--staged" || a === "-S") &&
    !args.some((a) => a === "--worktree" || a === "-W")
  );
}
