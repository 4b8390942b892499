import { ARCHIVE_COMMANDS } from "./archive-commands.ts";
import { commandName } from "./command-name.ts";
import { COPY_COMMANDS } from "./copy-commands.ts";
import { EDITOR_COMMANDS } from "./editor-commands.ts";
import {
  FILE_COMMANDS,
  type Target,
  type TargetRule,
} from "./file-commands.ts";
import { gitTargets } from "./git-command.ts";
import type { ShellRedirect } from "./shell-syntax.ts";
import { TOOL_COMMANDS } from "./tool-commands.ts";

const RULE_TABLES: readonly Readonly<Record<string, TargetRule>>[] = [
  FILE_COMMANDS,
  COPY_COMMANDS,
  TOOL_COMMANDS,
  EDITOR_COMMANDS,
  ARCHIVE_COMMANDS,
  { git: gitTargets },
];

const WRITE_REDIRECTS: Readonly<Record<string, Target["op"]>> = {
  ">": "write",
  ">|": "write",
  "&>": "write",
  "<>": "write",
  ">>": "append",
  "&>>": "append",
};

/** Not files: writing to them changes nothing on disk; `>(cmd)` is a pipe whose commands are analysed apart. */
const PSEUDO_FILES = /^\/dev\/(?:null|stdout|stderr|tty|fd\/\d+)$|^[<>]\(/;

/**
 * The files a simple command would change, as its words and redirections name them: `>`, `>>`, `&>`, `<>` and
 * `>&file` (not fd duplications like `2>&1`), `tee`, `sed -i`, `perl -i`, `cp`, `mv`, `rm`, `truncate`, `dd of=`,
 * `touch`, `install`, `ln`, `chmod`/`chown`, `rsync`, `curl -o`, `wget -O`, `patch`, `find -delete`, `sort -o`,
 * in-place editors (`gawk -i inplace`, `ed`, `vim -es`), archive extraction (`tar -x`, `unzip`, `cpio -i`) and
 * `git rm`/`git mv`.
 */
export function classifyWrites(
  argv: readonly string[],
  redirects: readonly ShellRedirect[],
): Target[] {
  const targets = redirects.flatMap(redirectTarget);
  const name = commandName(argv[0]);
  const table = RULE_TABLES.find((t) => Object.hasOwn(t, name));
  if (table) targets.push(...table[name]!(argv.slice(1)));
  return targets.filter((t) => t.path !== "" && !PSEUDO_FILES.test(t.path));
}

function redirectTarget(redirect: ShellRedirect): Target[] {
  const path = redirect.target?.value;
  if (path === undefined) return [];
  const op = WRITE_REDIRECTS[redirect.op];
  if (op) return [{ path, op }];
  // `>&word` with a word that is no fd number sends stdout and stderr to the file `word`.
  if (redirect.op === ">&" && !/^(?:\d+-?|-)$/.test(path))
    return [{ path, op: "write" }];
  return [];
}
