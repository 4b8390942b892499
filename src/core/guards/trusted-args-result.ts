/**
 * A playbook command line checked against its grammar: the arguments the job runs with, or why it is refused. Its
 * own module so the shell analysis can carry it (core/bash/types.ts) without importing the grammar that makes it.
 */
export type TrustedArgs =
  { ok: true; args: string[] } | { ok: false; reason: string };
