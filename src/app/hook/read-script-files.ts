import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { commandName } from "../../core/bash/command-name.ts";
import { justfileRecipes } from "../../core/bash/justfile-recipes.ts";
import { makefileRecipes } from "../../core/bash/makefile-recipes.ts";
import type { BashAnalysis, ScriptFile } from "../../core/bash/types.ts";
import { toAbsolute } from "../../core/paths/repo-path.ts";
import { cdFolders } from "../../core/bash/bash-targets.ts";
import { expandTilde } from "../../core/bash/expand-tilde.ts";
import { resolveRealPath } from "../../adapters/resolve-real-path.ts";

export interface ScriptFileInput {
  /** The CLI of the playbook running this hook: not read as a script (`isOwnCli`). */
  ownCli?: string;
  cwd: string;
  homeDir: string | null;
  analyzeBash: (command: string) => BashAnalysis;
}

/** How much of a script is read: its effect on playbook files is in plain sight near the top, if anywhere. */
const MAX_SCRIPT_BYTES = 256 * 1024;
/** Scripts that run scripts are followed this many files deep in all. */
const MAX_SCRIPTS = 8;

/**
 * The analysis with the script files the line runs read and folded in: shell scripts (`bash x.sh`, `./x.sh`,
 * `source x`) are parsed like the line itself, other programs (`python3 fix.py`, a `#!/usr/bin/env node` file)
 * become inline code whose mentions of guarded files count as writes. A missing or unreadable file adds nothing:
 * the command will fail before it changes anything.
 */
export function withScriptFiles(
  input: ScriptFileInput,
  bash: BashAnalysis,
): BashAnalysis {
  if (bash.error !== null || bash.scriptFiles.length === 0) return bash;
  const merged: BashAnalysis = {
    ...bash,
    commands: [...bash.commands],
    writes: [...bash.writes],
    inlineCode: [...bash.inlineCode],
  };
  const queue = [...bash.scriptFiles];
  const seen = new Set<string>();
  // `cd scripts && ./x.sh` runs `scripts/x.sh`: a script is looked for in every folder the line moves to.
  const cwds = cdFolders(input.cwd, bash.commands, input.homeDir);
  while (queue.length > 0 && seen.size < MAX_SCRIPTS) {
    const script = queue.shift()!;
    for (const cwd of cwds) {
      const path = script.makeDefaultFile
        ? findMakefile(resolveScript(input, cwd, script))
        : script.justDefaultFile
          ? findJustfile(resolveScript(input, cwd, script))
          : resolveScript(input, cwd, script);
      // One package.json holds many scripts: each set of names is its own visit.
      const names =
        script.packageScripts ?? script.makeTargets ?? script.justWords;
      const key = names ? `${path}#${names.join(",")}` : path;
      if (seen.has(key)) continue;
      seen.add(key);
      if (input.ownCli !== undefined && isOwnCli(input.ownCli, path)) continue;
      const text = readHead(path);
      if (text !== null) fold(input, merged, queue, script, path, text);
    }
  }
  return merged;
}

/**
 * Whether `path` is the CLI of the very playbook running this hook (the runtime copy, or node_modules/playbook-kit,
 * whose bundles the loader checked by hash): its bundle names guarded files throughout, and the bash guard judges a
 * call of it by its arguments (`playbookArgs`). Any other file named cli.mjs, even one at the place an install would
 * be, is read like every script.
 */
function isOwnCli(ownCli: string, path: string): boolean {
  return resolveRealPath(path, ".") === resolveRealPath(ownCli, ".");
}

/** Folds one script into the analysis: a program's text as inline code, a shell script's commands and writes. */
function fold(
  input: ScriptFileInput,
  merged: BashAnalysis,
  queue: ScriptFile[],
  script: ScriptFile,
  path: string,
  text: string,
): void {
  if (script.packageScripts) {
    for (const [name, body] of packageScriptBodies(text, script.packageScripts))
      foldShell(
        merged,
        queue,
        input.analyzeBash(body),
        `${script.path} scripts.${name}`,
        body,
        script,
      );
    return;
  }
  if (script.makeTargets) {
    // With `-C DIR` make runs each recipe line in DIR: analysed as `cd DIR && LINE`, its paths resolve there too.
    const inDir = (line: string) =>
      script.makeDir === undefined
        ? line
        : `cd '${script.makeDir.replace(/'/g, "'\\''")}' && ${line}`;
    for (const recipe of makefileRecipes(text, script.makeTargets))
      foldShell(
        merged,
        queue,
        input.analyzeBash(inDir(recipe.line)),
        `${script.path} target ${recipe.target}`,
        recipe.line,
        script,
      );
    return;
  }
  if (script.justWords) {
    // just runs recipes in the justfile's folder.
    const inFolder = `cd '${dirname(path).replace(/'/g, "'\\''")}' && `;
    for (const recipe of justfileRecipes(text, script.justWords)) {
      const label = `${script.path} recipe ${recipe.recipe}`;
      if (recipe.interpreter !== null)
        merged.inlineCode.push({
          interpreter: recipe.interpreter,
          code: recipe.text,
          command: `${label}: ${script.command}`,
        });
      else
        foldShell(
          merged,
          queue,
          input.analyzeBash(inFolder + recipe.text),
          label,
          recipe.text,
          script,
        );
    }
    return;
  }
  const interpreter = script.interpreter ?? shebangInterpreter(text);
  const inner = interpreter === null ? input.analyzeBash(text) : null;
  if (inner === null && !isHandWritten(path, text)) return;
  if (inner === null || inner.error !== null) {
    // A program, or a script we cannot parse, is still checked for the guarded files it names.
    merged.inlineCode.push({
      interpreter: interpreter ?? "sh",
      code: text,
      command: script.command,
    });
    return;
  }
  foldShell(merged, queue, inner, script.path, text, script);
}

/** Folds a shell script's commands, writes, inline code and the scripts it runs, each labelled with where it came from. */
function foldShell(
  merged: BashAnalysis,
  queue: ScriptFile[],
  inner: BashAnalysis,
  label: string,
  text: string,
  script: ScriptFile,
): void {
  if (inner.error !== null) {
    // Shell code we cannot parse is still checked for the guarded files it names.
    merged.inlineCode.push({
      interpreter: "sh",
      code: text,
      command: script.command,
    });
    return;
  }
  // Messages then say where a command came from: `scripts/tick.sh: sed -i ... state.md`.
  const where = (text: string) => `${label}: ${text}`;
  merged.commands.push(
    ...inner.commands.map((c) => ({
      ...c,
      text: where(c.text),
      depth: c.depth + 1,
    })),
  );
  merged.writes.push(
    ...inner.writes.map((w) => ({ ...w, command: where(w.command) })),
  );
  merged.inlineCode.push(
    ...inner.inlineCode.map((c) => ({ ...c, command: where(c.command) })),
  );
  queue.push(
    ...inner.scriptFiles.map((f) => ({ ...f, command: where(f.command) })),
  );
}

/** The scripts of a package.json that exist among `names`, in order; none when it is not a package.json we can read. */
function packageScriptBodies(
  text: string,
  names: readonly string[],
): [string, string][] {
  let scripts: unknown;
  try {
    scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
  } catch {
    return [];
  }
  if (typeof scripts !== "object" || scripts === null) return [];
  const table = scripts as Record<string, unknown>;
  return names.flatMap((name) => {
    const body = table[name];
    return typeof body === "string" ? [[name, body] as [string, string]] : [];
  });
}

/** Programs bigger than this are bundles or libraries, not a script the agent just wrote. */
const MAX_HAND_WRITTEN = 64 * 1024;

/**
 * Whether a program file is worth reading for the guarded names it mentions: hand-written scripts are, installed
 * packages (playbook's own CLI among them) and bundles are not, since they name `state.md` or `.claude` without
 * being pointed at this repository's files by the agent.
 */
function isHandWritten(path: string, text: string): boolean {
  return (
    text.length <= MAX_HAND_WRITTEN && !/(?:^|\/)node_modules\//.test(path)
  );
}

/** The file make reads when `-f` names none: GNUmakefile, makefile, then Makefile, in `Makefile`'s folder. */
function findMakefile(makefile: string): string {
  const folder = dirname(makefile);
  for (const name of ["GNUmakefile", "makefile"]) {
    const candidate = join(folder, name);
    if (existsSync(candidate)) return candidate;
  }
  return makefile;
}

/** The justfile just reads when `-f` names none: `justfile` in any case (or `.justfile`), here or in a parent folder. */
function findJustfile(justfile: string): string {
  let folder = dirname(justfile);
  for (let depth = 0; depth < 32; depth++) {
    let names: string[] = [];
    try {
      names = readdirSync(folder);
    } catch {
      // An unreadable folder has no justfile we could read.
    }
    const found = names.find((n) => /^\.?justfile$/i.test(n));
    if (found) return join(folder, found);
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return justfile;
}

function resolveScript(
  input: ScriptFileInput,
  cwd: string,
  script: ScriptFile,
): string {
  return toAbsolute(cwd, expandTilde(script.path, cwd, input.homeDir));
}

function readHead(path: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buffer = Buffer.alloc(MAX_SCRIPT_BYTES);
    const size = readSync(fd, buffer, 0, MAX_SCRIPT_BYTES, 0);
    const text = buffer.toString("utf8", 0, size);
    // A binary is no script: nothing in it is shell code we could read.
    return text.includes("\0") ? null : text;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The program a `#!` line names when it is not a shell (`#!/usr/bin/env python3` → `python3`); else null. */
function shebangInterpreter(text: string): string | null {
  const line = /^#!\s*(\S+)(?:\s+(?:-\S+\s+)*(\S+))?/.exec(text);
  if (!line) return null;
  const program = commandName(line[1]);
  const name = program === "env" ? commandName(line[2]) : program;
  return /^(?:ba|z|da|k|a|mk)?sh$/.test(name) ? null : name;
}
