import { spawnSync } from "node:child_process";

/** Runs a program and times it; a missing program answers status null. */
export function runProgram(
  command: string,
  args: readonly string[],
  input?: string,
  env?: Readonly<Record<string, string | undefined>>,
): { status: number | null; stdout: string; stderr: string; ms: number } {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, {
    input,
    encoding: "utf8",
    timeout: 15_000,
    ...(env
      ? {
          env: Object.fromEntries(
            Object.entries(env).filter(([, v]) => v !== undefined),
          ),
        }
      : {}),
  });
  return {
    status: result.error ? null : result.status,
    stdout: result.stdout ?? "",
    stderr: result.stderr ?? "",
    ms: Number(process.hrtime.bigint() - started) / 1e6,
  };
}
