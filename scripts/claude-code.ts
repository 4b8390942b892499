// Installs the pinned Claude Code CLI that the demo and the end-to-end tests drive, the way browser-testing tools
// install their browsers: once, into a cache folder outside the project (so `npm ci` neither removes it nor checks
// its engines), from the npm cache when it holds the package (so it works offline after the first time).
//
//   npx tsx scripts/claude-code.ts             installs the pinned version (or PLAYBOOK_CLAUDE_CODE_VERSION) if missing
//   npx tsx scripts/claude-code.ts --all       also the minimum version the hook wiring needs (npm run test:compat)
//   npx tsx scripts/claude-code.ts --path      prints the binary's path
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { MINIMUM_CLAUDE_CODE } from "../src/core/scaffold/claude-code-version.ts";

/** The Claude Code release the demo and the tests run by default. */
export const PINNED_CLAUDE_CODE = "2.1.331";
export { MINIMUM_CLAUDE_CODE };

/** The version to run: PLAYBOOK_CLAUDE_CODE_VERSION when set (npm run test:compat), else the pinned one. */
export function claudeCodeVersion(
  env: NodeJS.ProcessEnv = process.env,
): string {
  return env["PLAYBOOK_CLAUDE_CODE_VERSION"] || PINNED_CLAUDE_CODE;
}

/** The cache folder: PLAYBOOK_CLAUDE_CODE_CACHE, else `$XDG_CACHE_HOME/playbook-kit/claude-code` or `~/.cache/...`. */
export function claudeCodeCache(env: NodeJS.ProcessEnv = process.env): string {
  const own = env["PLAYBOOK_CLAUDE_CODE_CACHE"];
  if (own) return own;
  const base = env["XDG_CACHE_HOME"] || join(homedir(), ".cache");
  return join(base, "playbook-kit", "claude-code");
}

/** Where the `claude` executable of `version` is once installed. */
export function claudeCodeBinary(
  version: string = claudeCodeVersion(),
  env: NodeJS.ProcessEnv = process.env,
): string {
  return join(claudeCodeCache(env), version, "node_modules", ".bin", "claude");
}

/** The version the binary at `path` reports, or null when it does not run. */
function reportedVersion(path: string): string | null {
  if (!existsSync(path)) return null;
  const result = spawnSync(path, ["--version"], {
    encoding: "utf8",
    timeout: 60_000,
  });
  return result.status === 0
    ? (result.stdout.split(" ")[0]?.trim() ?? null)
    : null;
}

/**
 * Installs `version` into the cache unless it is there and runs, and returns the binary's path. The package goes
 * into a temporary folder first and is moved into place only once `claude --version` answers, so an interrupted
 * install never leaves a broken one behind. Throws an Error whose message is one line with the next step.
 */
export function ensureClaudeCode(
  version: string = claudeCodeVersion(),
  env: NodeJS.ProcessEnv = process.env,
): string {
  const binary = claudeCodeBinary(version, env);
  if (reportedVersion(binary) === version) return binary;
  const cache = claudeCodeCache(env);
  const target = join(cache, version);
  const staging = join(cache, `.${version}-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const args = [
    "install",
    `@anthropic-ai/claude-code@${version}`,
    "--prefix",
    staging,
    "--no-save",
    "--no-package-lock",
    "--no-audit",
    "--no-fund",
    "--engine-strict=false",
    "--prefer-offline",
    "--loglevel=error",
  ];
  process.stderr.write(
    `Installing Claude Code ${version} (about 400 MB, once) into ${cache}\n`,
  );
  const result = spawnSync(npm, args, {
    encoding: "utf8",
    env: { ...env, npm_config_update_notifier: "false" },
    timeout: 900_000,
  });
  const installed = join(staging, "node_modules", ".bin", "claude");
  // The package's own install script puts the native binary in place; an npm that holds install scripts back
  // leaves a placeholder, so the script is run here when the binary does not answer.
  if (result.status === 0 && reportedVersion(installed) !== version)
    spawnSync(process.execPath, ["install.cjs"], {
      cwd: join(staging, "node_modules", "@anthropic-ai", "claude-code"),
      encoding: "utf8",
      env,
      timeout: 300_000,
    });
  if (result.status !== 0 || reportedVersion(installed) !== version) {
    rmSync(staging, { recursive: true, force: true });
    const lines = (result.stderr || result.error?.message || "")
      .split("\n")
      .map((line) => line.replace(/^npm (error|ERR!) /, "").trim())
      .filter((line) => line !== "" && !line.startsWith("code "));
    const why = lines[0] ?? "claude --version did not answer";
    throw new Error(
      `Claude Code ${version} could not be installed into ${cache} (${why}). Next: connect to the npm registry once and run \`npx tsx scripts/claude-code.ts\`, or set PLAYBOOK_CLAUDE_CODE_CACHE to a folder that holds it.`,
    );
  }
  // Another process may have finished the same install meanwhile: keep the one that is in place and may be running.
  if (reportedVersion(binary) === version)
    rmSync(staging, { recursive: true, force: true });
  else {
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
  }
  return binary;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const flags = new Set(process.argv.slice(2));
  try {
    if (flags.has("--path")) {
      process.stdout.write(`${claudeCodeBinary()}\n`);
    } else {
      const versions = flags.has("--all")
        ? [claudeCodeVersion(), MINIMUM_CLAUDE_CODE]
        : [claudeCodeVersion()];
      for (const version of versions) ensureClaudeCode(version);
    }
  } catch (error) {
    process.stderr.write(
      `${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}
