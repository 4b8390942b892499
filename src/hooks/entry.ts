import { hookMain } from "./main.ts";

declare const module: unknown;
declare const require: { main: unknown };

/** `node dist/hook.cjs <Event>` runs the hook; `playbook hook <Event>` loads this bundle and calls `hookMain`. */
export { hookMain };

if (require.main === module) {
  hookMain(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(
      `playbook hook: internal error, the call was allowed: ${String(error)}\n`,
    );
  });
}
