import { resolveRealPath } from "../../adapters/resolve-real-path.ts";
import { analyzeBash } from "../../core/bash/analyze-bash.ts";
import { isProvablyReadOnly } from "../../core/bash/read-only.ts";
import type { BashAnalysis } from "../../core/bash/types.ts";
import type { FileChange } from "../../core/guards/types.ts";
import type { CheckTime } from "../../core/time/deadline.ts";
import { collectBashChanges } from "./collect-bash-changes.ts";
import { withPlaybookCalls } from "../../core/guards/trusted-args.ts";
import { withScriptFiles } from "./read-script-files.ts";

export interface BashCallInput {
  projectDir: string;
  cwd: string;
  homeDir: string | null;
  /** The temp folder `mktemp` makes new names in. */
  tmpDir: string | null;
  /** The values `$TMPDIR` may have in the agent's shell ("" for unset); none when unknown. */
  shellTempDirs: readonly string[];
  /** The CLI of the playbook running this hook (`dist/cli.mjs` beside the hook's bundle). */
  ownCli?: string;
}

export interface BashCall {
  bash: BashAnalysis;
  changes: FileChange[];
  /** Whether the line provably changes no file (core/bash/read-only.ts): then no snapshot is taken before it. */
  readOnly: boolean;
}

/** Reads a shell command's effect: the line analysed with the scripts it runs folded in, and the files it changes. */
export type ReadBashCall = (input: BashCallInput, command: string) => BashCall;

/**
 * {@link ReadBashCall} for the shell bundle (`dist/bash.cjs`, loaded only for Bash calls, with everything it needs),
 * checking `checkTime` throughout.
 */
export function readBashCall(
  input: BashCallInput,
  command: string,
  checkTime: CheckTime,
): BashCall {
  const analyze = (text: string) => analyzeBash(text, checkTime);
  // Variables are filled in for the line itself only: a script it runs may run where other bindings hold.
  const bash = withScriptFiles(
    {
      ...(input.ownCli === undefined ? {} : { ownCli: input.ownCli }),
      cwd: input.cwd,
      homeDir: input.homeDir,
      analyzeBash: analyze,
    },
    analyzeBash(command, checkTime, {
      knownVariables: true,
      inherited:
        input.shellTempDirs.length > 0 ? { TMPDIR: input.shellTempDirs } : {},
    }),
  );
  return {
    bash: withPlaybookCalls(bash, input),
    changes: collectBashChanges({ ...input, checkTime }, bash),
    readOnly: isProvablyReadOnly(bash, {
      gitAtRoot:
        input.cwd === input.projectDir ||
        resolveRealPath(input.projectDir, input.cwd) === input.projectDir,
    }),
  };
}
