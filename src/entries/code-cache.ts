import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

declare const require: NodeJS.Require;

/**
 * Loads a CommonJS bundle of dist/ through V8's code cache, kept beside it (`.<name>.v8cache`): compiling the hook's
 * bundles anew cost every call 2-3 ms (the tool bundle) to 10 ms (the shell parser's). Node 20 has no built-in
 * compile cache for CommonJS. A cache from another Node version or a changed bundle is rejected by V8 and rewritten;
 * an unwritable folder only costs the time. The cache lies in the package's folder, which the agent's sandbox cannot
 * write (docs/trust-boundary.md): V8 checks a cache only against the source's length, so a writable cache would run
 * whatever code was put in it.
 */
export function requireWithCodeCache(file: string): unknown {
  const cacheFile = join(dirname(file), `.${basename(file, ".cjs")}.v8cache`);
  const source = readFileSync(file, "utf8");
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    { filename: file, ...(cachedData ? { cachedData } : {}) },
  );
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    require,
    module,
    file,
    dirname(file),
  );
  if (!cachedData || script.cachedDataRejected === true)
    // After the run, so the functions the hook compiled lazily are in the cache too.
    process.once("exit", () => {
      try {
        const temp = `${cacheFile}.${process.pid}`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        // A read-only install still works, only without the cache.
      }
    });
  return module.exports;
}
