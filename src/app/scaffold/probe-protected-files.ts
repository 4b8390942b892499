import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "jsonc-parser";
import { runGitSync } from "../../adapters/git-runner.ts";
import { readLocalBoundaryRecord } from "../../adapters/local-boundary-store.ts";
import { startSandbox } from "../../adapters/sandbox.ts";
import { missingSandboxTools } from "../../adapters/sandbox-tools.ts";
import { findProtection } from "../../core/guards/protected-match.ts";
import {
  BUILT_IN_RULES,
  parseProtectedRules,
  type ProtectedRule,
} from "../../core/guards/protected-rules.ts";
import type { SecurityMode } from "../../core/model/state.ts";
import { isRepairPath } from "../../core/paths/repo-path.ts";
import { planProtectedBoundary } from "../../core/paths/protected-sandbox.ts";
import type { Finding } from "./finding.ts";

const PROTECTED_FILE = ".claude/protected-files.txt";

/**
 * The protected files, proved at the OS level (docs/trust-boundary.md): the rules only the hook can hold are named,
 * settings.local.json must carry the sandbox entries of the others, and inside the sandbox Claude Code would build
 * from the settings (without the read-only project of the default branch or the lock), every tracked file an enforced
 * rule protects must be read-only. One the shell could still write is an error, with the rule to add.
 */
export async function probeProtectedFiles(
  root: string,
  mode: SecurityMode,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const push = (level: Finding["level"], message: string, fix: string | null) =>
    findings.push({ level, area: "protected", message, fix });
  let text: string;
  try {
    text = readFileSync(join(root, PROTECTED_FILE), "utf8");
  } catch {
    return findings;
  }
  const rules = parseProtectedRules(text, PROTECTED_FILE).rules;
  const plan = planProtectedBoundary(rules, mode, (path) =>
    existsSync(join(root, path)),
  );
  for (const u of plan.unheld)
    push("warn", `${u.rule.source}: ${u.why}`, u.next);
  const record = readLocalBoundaryRecord(root);
  const local = readDenyWrite(root, ".claude/settings.local.json");
  const missing = plan.denyWrite.filter((p) => !local.includes(p));
  if (missing.length > 0)
    push(
      "error",
      `the sandbox does not hold ${missing.map((p) => `\`${p}\``).join(", ")} yet: .claude/settings.local.json lacks them`,
      "Run `npx --no playbook init`, or start a Claude Code session: the hook writes them.",
    );
  if (missingSandboxTools(process.platform, process.env["PATH"]).length > 0)
    return findings; // The sandbox probe says what to install.
  const guarded = trackedProtected(root, [...BUILT_IN_RULES, ...rules], mode);
  if (guarded.length === 0) return findings;
  const readOnly = new Set(record?.readOnly.denyWrite ?? []);
  const denyWrite = [
    ...readDenyWrite(root, ".claude/settings.json"),
    ...local.filter((p) => !readOnly.has(p) || plan.denyWrite.includes(p)),
  ];
  const sandbox = await startSandbox({
    root,
    allowedDomains: [],
    allowWrite: [],
    packageRoot: null,
    denyWrite,
  });
  if (!sandbox.ok) return findings; // The sandbox probe says why.
  try {
    const quoted = guarded.map((f) => `'${f.path.replace(/'/g, `'\\''`)}'`);
    const run = spawnSync(
      await sandbox.wrap(
        `for f in ${quoted.join(" ")}; do [ -w "$f" ] && printf '%s\\n' "$f"; done; true`,
      ),
      { shell: true, cwd: root, encoding: "utf8" },
    );
    sandbox.cleanup();
    const writable = new Set(run.stdout.split("\n").filter(Boolean));
    for (const { path, rule } of guarded.filter((g) => writable.has(g.path)))
      push(
        "error",
        `the agent's shell could still write \`${path}\` (${rule.level}, ${rule.source}, \`${rule.pattern}\`): the sandbox does not hold that rule for it`,
        `Add \`${rule.level} /${path}\` to ${PROTECTED_FILE} (a plain path the sandbox holds).`,
      );
    if (writable.size === 0)
      push(
        "ok",
        `the sandbox keeps the ${guarded.length} tracked protected file${guarded.length === 1 ? "" : "s"} read-only for the agent's shell`,
        null,
      );
  } finally {
    await sandbox.close();
  }
  return findings;
}

function trackedProtected(
  root: string,
  rules: readonly ProtectedRule[],
  mode: SecurityMode,
): { path: string; rule: ProtectedRule }[] {
  const listed = runGitSync({
    cwd: root,
    args: ["ls-files", "-z"],
    purpose: "read",
    timeoutMs: 20_000,
  });
  if (listed.status !== 0) return [];
  return listed.stdout
    .split("\0")
    .filter((p) => p !== "" && !isRepairPath(p))
    .flatMap((path) => {
      const rule = findProtection(rules, path);
      if (
        !rule ||
        rule.source === "built-in" ||
        !(
          rule.level === "HARD_BLOCK" ||
          (rule.level === "BLOCK" && mode === "strict")
        )
      )
        return [];
      return [{ path, rule }];
    });
}

function readDenyWrite(root: string, file: string): string[] {
  try {
    const json = parse(readFileSync(join(root, file), "utf8")) as {
      sandbox?: { filesystem?: { denyWrite?: unknown } };
    };
    const list = json.sandbox?.filesystem?.denyWrite;
    return Array.isArray(list)
      ? list.filter((e): e is string => typeof e === "string")
      : [];
  } catch {
    return [];
  }
}
