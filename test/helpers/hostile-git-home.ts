import { chmodSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTempProject } from "./temp-project.ts";

export interface HostileGitHome {
  /** The folder to use as HOME: its `.gitconfig` and `.config/git/` name a program for every key git runs one from. */
  home: string;
  /**
   * The marks left so far: one file per program that ran, named after the key that ran it, with `hook-` in front
   * when it ran in a hook process or a job it started (`PLAYBOOK_HOOK_PROCESS=1`, which the hook's git inherits).
   */
  marks(): string[];
  /** A program that leaves the mark `name` and then does what git expects of it (passes its input through). */
  program(name: string): string;
}

/**
 * A HOME as the agent's Write tool could leave it (it is not sandboxed): `~/.gitconfig` and `~/.config/git/config`
 * name a program for every key git runs one from, an include pulls in more, `~/.config/git/attributes` applies the
 * filter everywhere and `~/.config/git/ignore` hides `hiddenPath`. Each program leaves a mark file, so a test asserts
 * on disk that none ran. The identity in `.gitconfig` is a plain value a trusted process may read on purpose.
 */
export function createHostileGitHome(
  options: { identity?: boolean; hiddenPath?: string; home?: string } = {},
): HostileGitHome {
  const home = options.home ?? createTempProject().dir;
  const marks = join(home, "marks");
  const bin = join(home, "bin");
  mkdirSync(marks, { recursive: true });
  mkdirSync(bin, { recursive: true });
  const program = (name: string) => {
    const file = join(bin, name);
    writeFileSync(
      file,
      `#!/bin/sh\nkind=\${PLAYBOOK_HOOK_PROCESS:+hook-}\ntouch "${marks}/\${kind}${name}"\n[ -t 0 ] || cat\nexit 0\n`,
    );
    chmodSync(file, 0o755);
    return file;
  };
  const hooks = join(home, "hooks");
  mkdirSync(hooks, { recursive: true });
  for (const hook of [
    "pre-commit",
    "commit-msg",
    "post-commit",
    "pre-push",
    "reference-transaction",
    "post-checkout",
    "post-merge",
  ]) {
    writeFileSync(
      join(hooks, hook),
      `#!/bin/sh\nkind=\${PLAYBOOK_HOOK_PROCESS:+hook-}\ntouch "${marks}/\${kind}git-hook-${hook}"\nexit 0\n`,
    );
    chmodSync(join(hooks, hook), 0o755);
  }
  const included = join(home, "included.gitconfig");
  writeFileSync(
    included,
    `[core]\n\tfsmonitor = ${program("included-fsmonitor")}\n[filter "evil"]\n\tclean = ${program("included-clean")}\n`,
  );
  const settings = (prefix: string) =>
    [
      options.identity === false
        ? ""
        : `[user]\n\tname = Global User\n\temail = global@example.com\n`,
      `[filter "evil"]\n\tclean = ${program(`${prefix}-clean`)}\n\tsmudge = ${program(`${prefix}-smudge`)}\n`,
      `[diff "evil"]\n\ttextconv = ${program(`${prefix}-textconv`)}\n\tcommand = ${program(`${prefix}-diff-command`)}\n`,
      `[merge "evil"]\n\tdriver = ${program(`${prefix}-merge-driver`)} %O %A %B\n`,
      `[diff]\n\texternal = ${program(`${prefix}-diff-external`)}\n`,
      `[core]\n\tsshCommand = ${program(`${prefix}-ssh`)}\n\teditor = ${program(`${prefix}-editor`)}\n\tpager = ${program(`${prefix}-pager`)}\n\tfsmonitor = ${program(`${prefix}-fsmonitor`)}\n\thooksPath = ${hooks}\n\taskPass = ${program(`${prefix}-askpass`)}\n`,
      `[sequence]\n\teditor = ${program(`${prefix}-sequence-editor`)}\n`,
      `[gpg]\n\tprogram = ${program(`${prefix}-gpg`)}\n[commit]\n\tgpgSign = true\n[tag]\n\tgpgSign = true\n[log]\n\tshowSignature = true\n`,
      `[credential]\n\thelper = !${program(`${prefix}-credential`)}\n`,
      `[url "ext::${program(`${prefix}-ext`)} %S "]\n\tinsteadOf = /\n\tpushInsteadOf = /\n`,
      `[include]\n\tpath = ${included}\n`,
    ].join("");
  writeFileSync(join(home, ".gitconfig"), settings("global"));
  mkdirSync(join(home, ".config", "git"), { recursive: true });
  writeFileSync(
    join(home, ".config", "git", "config"),
    settings("xdg").replace(/\[user\][^[]*/, ""),
  );
  writeFileSync(
    join(home, ".config", "git", "attributes"),
    "* filter=evil diff=evil merge=evil\n",
  );
  if (options.hiddenPath)
    writeFileSync(
      join(home, ".config", "git", "ignore"),
      `${options.hiddenPath}\n`,
    );
  return {
    home,
    marks: () => readdirSync(marks).sort(),
    program,
  };
}
