import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "jsonc-parser";
import { sandboxSwitches } from "../../core/scaffold/boundary-settings.ts";
import type { SecurityMode } from "../../core/model/state.ts";
import {
  HOOK_LOADER,
  fileToolDenyRules,
  sandboxDenyWrite,
} from "../../core/paths/trust-paths.ts";
import { startSandbox } from "../../adapters/sandbox.ts";
import { missingSandboxTools } from "../../adapters/sandbox-tools.ts";
import { hashBundle } from "../../adapters/hash-bundle.ts";
import { readLoaderChecks } from "../../core/scaffold/hook-loader.ts";
import {
  NPM_PACKAGE,
  RUNTIME_COPY,
  cliSpelling,
  installCommand,
  upgradeCommand,
} from "../../core/scaffold/setup-kind.ts";
import type { Finding } from "./finding.ts";

const INSTALL_HINT =
  "Install them (Debian/Ubuntu: `sudo apt-get install bubblewrap socat ripgrep`; Fedora: `sudo dnf install bubblewrap socat ripgrep`).";

/**
 * The trust boundary, checked (docs/trust-boundary.md): the loader exists and its bundles are the ones init
 * installed; settings.json turns the sandbox on as the security mode needs and denies the trust paths to the file
 * tools. A weaker mode is said loudly. `probeSandbox` shows that the sandbox really engages on this machine.
 */
export function checkBoundary(
  root: string,
  mode: SecurityMode,
  plugin: boolean,
  findings: Finding[],
): void {
  const push = (level: Finding["level"], message: string, fix: string | null) =>
    findings.push({ level, area: "boundary", message, fix });
  if (mode !== "strict")
    push(
      "warn",
      `security is ${mode}: ${mode === "developer" ? "only HARD_BLOCK files and the records rules are enforced" : "BLOCK-level protected files are open to the agent"}, and Claude Code starts even where its sandbox cannot run`,
      'Set `"security": "strict"` in .claude/playbook.json, then run `npx --no playbook init` to update settings.json.',
    );
  if (!plugin) checkLoader(root, push);
  checkSettings(root, mode, push);
}

type Push = (
  level: Finding["level"],
  message: string,
  fix: string | null,
) => void;

function checkLoader(root: string, push: Push): void {
  const path = join(root, HOOK_LOADER);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    push(
      "error",
      `${HOOK_LOADER} is missing: the hooks cannot run`,
      "Run `npx --no playbook init`.",
    );
    return;
  }
  const checks = readLoaderChecks(text);
  if (!checks) {
    push(
      "error",
      `${HOOK_LOADER} is not the loader init writes`,
      "Run `npx --no playbook init` to write it again.",
    );
    return;
  }
  const { hashes } = checks;
  const dist =
    checks.dist ??
    join(root, checks.setup === "runtime" ? RUNTIME_COPY : NPM_PACKAGE, "dist");
  const wrong = Object.entries(hashes).filter(
    ([name, hash]) => hashBundle(join(dist, name)) !== hash,
  );
  const installed = installedVersion(dist);
  const cli = cliSpelling(checks.setup, "playbook");
  const install = installCommand(checks.setup, checks.version);
  if (wrong.length === 0) {
    push(
      "ok",
      `${HOOK_LOADER} checks ${Object.keys(hashes).length} bundles in ${dist}`,
      null,
    );
    return;
  }
  if (!existsSync(dist))
    push(
      "error",
      `the loader refuses every write: playbook-kit ${checks.version} is not installed here (${dist} is missing)`,
      `Run \`${install}\`.`,
    );
  else if (installed !== null && installed !== checks.version)
    push(
      "error",
      `the loader refuses every write: the installed playbook-kit is ${installed}, the committed setup was made with ${checks.version}`,
      checks.setup === "npm"
        ? `Run \`npm install\` if the setup was upgraded in git, or \`${upgradeCommand("npm", cli)}\` to set it up for ${installed}.`
        : `Run \`${install}\` to install the setup's version, or \`npx playbook-kit@${installed} upgrade\` to upgrade the setup, then commit it.`,
    );
  else
    push(
      "error",
      `the loader refuses every write: ${wrong.map(([name]) => name).join(", ")} in ${dist} differ from what init installed`,
      checks.setup === "npm"
        ? "Reinstall it (`rm -rf node_modules/playbook-kit && npm install`), or run `npx --no playbook upgrade` after updating playbook-kit."
        : `Run \`${install}\` to install it again.`,
    );
}

/** The version of the package whose `dist` is `dist`, or null when it cannot be read. */
function installedVersion(dist: string): string | null {
  try {
    const pkg = JSON.parse(
      readFileSync(join(dist, "..", "package.json"), "utf8"),
    ) as { version?: unknown };
    return typeof pkg.version === "string" ? pkg.version : null;
  } catch {
    return null;
  }
}

function checkSettings(root: string, mode: SecurityMode, push: Push): void {
  let settings: Record<string, unknown>;
  try {
    settings = parse(
      readFileSync(join(root, ".claude", "settings.json"), "utf8"),
    ) as Record<string, unknown>;
  } catch {
    return; // The hooks check already says so.
  }
  const sandbox = (settings["sandbox"] ?? {}) as Record<string, unknown>;
  const wrongSwitches = Object.entries(sandboxSwitches(mode)).filter(
    ([key, wanted]) => wanted !== undefined && sandbox[key] !== wanted,
  );
  const denyWrite = ((
    sandbox["filesystem"] as Record<string, unknown> | undefined
  )?.["denyWrite"] ?? []) as unknown[];
  const deny = ((
    settings["permissions"] as Record<string, unknown> | undefined
  )?.["deny"] ?? []) as unknown[];
  const missing = [
    ...sandboxDenyWrite().filter((p) => !denyWrite.includes(p)),
    ...fileToolDenyRules().filter((r) => !deny.includes(r)),
  ];
  if (wrongSwitches.length > 0 || missing.length > 0)
    push(
      "error",
      `.claude/settings.json does not hold the boundary: ${[
        ...wrongSwitches.map(([k, v]) => `sandbox.${k} should be ${String(v)}`),
        ...(missing.length > 0 ? [`missing ${missing.join(", ")}`] : []),
      ].join("; ")}`,
      "Run `npx --no playbook init` (it adds them and keeps your settings).",
    );
  else
    push(
      "ok",
      `.claude/settings.json: sandbox on, ${denyWrite.length} paths read-only for the agent's shell, ${deny.length} file-tool rules`,
      null,
    );
}

/**
 * Proves the sandbox engages here, rather than trusting what settings say: inside the same OS sandbox Claude Code's
 * Bash and `verify` use, in a scratch project, a write to a denied path must fail while an ordinary write succeeds.
 */
export async function probeSandbox(mode: SecurityMode): Promise<Finding> {
  const finding = (
    level: Finding["level"],
    message: string,
    fix: string | null,
  ) => ({ level, area: "sandbox", message, fix }) satisfies Finding;
  const weak = mode === "strict" ? "error" : "warn";
  const absent = missingSandboxTools(process.platform, process.env["PATH"]);
  if (absent.length > 0)
    return finding(
      weak,
      `the sandbox cannot run: ${absent.join(", ")} not found${mode === "strict" ? " (Claude Code refuses to start in strict mode)" : "; the agent's shell can write the records"}`,
      INSTALL_HINT,
    );
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "playbook-probe-")));
  mkdirSync(join(scratch, ".claude", "playbook"), { recursive: true });
  const sandbox = await startSandbox({
    root: scratch,
    allowedDomains: [],
    allowWrite: [],
    packageRoot: null,
  });
  try {
    if (!sandbox.ok)
      return finding(
        weak,
        `the sandbox cannot run here: ${sandbox.why}${mode === "strict" ? "" : "; the agent's shell can write the records"}`,
        `${sandbox.next}.`,
      );
    const run = async (command: string) =>
      spawnSync(await sandbox.wrap(command), {
        shell: true,
        cwd: scratch,
        encoding: "utf8",
      });
    const denied = await run("echo forged > .claude/playbook/probe.json");
    sandbox.cleanup();
    const allowed = await run("echo fine > probe.txt");
    sandbox.cleanup();
    const forged = existsSync(
      join(scratch, ".claude", "playbook", "probe.json"),
    );
    if (forged || denied.status === 0)
      return finding(
        weak,
        "the sandbox does not engage here: a write to a denied path succeeded inside it",
        INSTALL_HINT,
      );
    if (allowed.status !== 0 || !existsSync(join(scratch, "probe.txt")))
      return finding(
        weak,
        `the sandbox blocks ordinary writes here too: ${(allowed.stderr || allowed.stdout).trim().slice(0, 200)}`,
        "Inside a container, bubblewrap needs user namespaces (docker: `--security-opt seccomp=unconfined`, or a rootless runtime).",
      );
    return finding(
      "ok",
      "the sandbox engages here: inside it, a write to a denied path failed and an ordinary write worked",
      null,
    );
  } finally {
    if (sandbox.ok) await sandbox.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
