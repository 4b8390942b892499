import { defineCommand } from "citty";
import { findPackageRoot } from "../../adapters/package-root.ts";
import { createCiSetupDeps, createDoctorDeps } from "../../app/deps.ts";
import { runDoctor } from "../../app/scaffold/run-doctor.ts";
import { checkCiSetup } from "../../app/scaffold/check-ci-setup.ts";
import { probeSandbox } from "../../app/scaffold/check-boundary.ts";
import { probeProtectedFiles } from "../../app/scaffold/probe-protected-files.ts";
import { readConfig } from "../../app/workspace/read-config.ts";
import { createColors } from "../print/colors.ts";
import { toTerminalText } from "../print/terminal-text.ts";
import { projectRoot, sharedArgs } from "../shared-args.ts";

export const doctorCommand = defineCommand({
  meta: {
    name: "doctor",
    description:
      "Check node, git, the install, the hook wiring (with a live run), Claude Code, lint, the archive's token and remote, locks, and whether GitHub re-proves pull requests",
  },
  args: { ...sharedArgs },
  async run({ args }) {
    const root = projectRoot(args);
    const findings = runDoctor(root, createDoctorDeps(findPackageRoot()));
    const security = readConfig(root).config.security;
    findings.push(await probeSandbox(security));
    findings.push(...(await probeProtectedFiles(root, security)));
    findings.push(...(await checkCiSetup(root, createCiSetupDeps())));
    const errors = findings.filter((f) => f.level === "error").length;
    const warnings = findings.filter((f) => f.level === "warn").length;
    if (errors > 0) process.exitCode = 1;
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify({ findings, errors, warnings }, null, 2)}\n`,
      );
      return;
    }
    const c = createColors();
    const label = {
      ok: c.green("ok   "),
      warn: c.yellow("warn "),
      error: c.red("error"),
    };
    const lines = findings.map(
      (f) =>
        `${label[f.level]} ${f.area.padEnd(8)} ${toTerminalText(f.message)}${f.fix ? `\n               ${c.dim(`fix: ${toTerminalText(f.fix)}`)}` : ""}`,
    );
    lines.push(
      errors + warnings === 0
        ? c.green("everything is in order")
        : `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`,
    );
    process.stdout.write(`${lines.join("\n")}\n`);
  },
});
