import { parseRemoteUrl } from "../archive/github-remote.ts";
import {
  detectToolchains,
  readPackageJson,
  type Toolchain,
  type ToolchainFacts,
} from "./detect-toolchains.ts";

/** What init can see of a project without asking: root entry names, a few root files' text, the remote. */
export interface ProjectFacts extends ToolchainFacts {
  folderName: string;
  remoteUrl: string | null;
}

export interface DetectedDefaults {
  projectName: string;
  testCommand: string;
  lintCommand: string;
  githubRepository: string | null;
  /** The other toolchains' commands, for init to mention: `make test` (Makefile). */
  alsoFound: { command: string; from: string }[];
}

/**
 * The test and lint commands, project name and GitHub repository a project suggests (empty when unknown). The test
 * command is the most specific toolchain's that has one (see `detectToolchains`); the lint command is that
 * toolchain's, or else the first other one's.
 */
export function detectDefaults(facts: ProjectFacts): DetectedDefaults {
  const pkg = readPackageJson(facts.files.get("package.json") ?? null);
  const remote = facts.remoteUrl ? parseRemoteUrl(facts.remoteUrl) : null;
  const toolchains = detectToolchains(facts);
  const primary: Toolchain | undefined =
    toolchains.find((t) => t.test !== "") ?? toolchains[0];
  const testCommand = primary?.test ?? "";
  const lintCommand =
    primary?.lint || (toolchains.find((t) => t.lint !== "")?.lint ?? "");
  const alsoFound = toolchains.flatMap((t) =>
    [t.test, t.lint]
      .filter((c) => c !== "" && c !== testCommand && c !== lintCommand)
      .map((command) => ({ command, from: t.from })),
  );
  return {
    projectName: pkg?.name?.replace(/^@[^/]+\//, "") || facts.folderName,
    testCommand,
    lintCommand,
    githubRepository:
      remote && /(^|\.)github\.com$|^github\./.test(remote.host)
        ? `${remote.owner}/${remote.repo}`
        : null,
    alsoFound,
  };
}

/**
 * The line init's plan shows when other toolchains offer commands than the ones `answers` settled on, or null when
 * none does.
 */
export function toAlsoFoundNote(
  detected: Pick<DetectedDefaults, "alsoFound">,
  answers: { testCommand: string; lintCommand: string },
): string | null {
  const others = detected.alsoFound.filter(
    ({ command }) =>
      command !== answers.testCommand && command !== answers.lintCommand,
  );
  if (others.length === 0) return null;
  const listed = others
    .map(({ command, from }) => `\`${command}\` (${from})`)
    .join(", ");
  return `Also found ${listed}: answer init's test and lint questions with one of them to use it instead.`;
}
