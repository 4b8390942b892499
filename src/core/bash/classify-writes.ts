import { commandName } from "./command-name.ts";
import { FILE_COMMANDS, type Target } from "./file-commands.ts";
import type { ShellRedirect } from "./shell-syntax.ts";
import { TOOL_COMMANDS } from "./tool-commands.ts";

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
 * `touch`, `install`, `ln`, `chmod`/`chown`, `rsync`, `curl -o`, `wget -O`, `patch`, `find -delete`, `sort -o`.
 */
export function classifyWrites(
  argv: readonly string[],
  redirects: readonly ShellRedirect[],
): Target[] {
  const targets = redirects.flatMap(redirectTarget);
  const name = commandName(argv[0]);
  const rule = Object.hasOwn(FILE_COMMANDS, name)
    ? FILE_COMMANDS[name]
    : Object.hasOwn(TOOL_COMMANDS, name)
      ? TOOL_COMMANDS[name]
      : undefined;
  if (rule) targets.push(...rule(argv.slice(1)));
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
