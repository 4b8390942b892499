import { isAbsolute, join, resolve } from "node:path";

/** What the caches of validations' tools are decided from: all of it the trusted `verify` process's own. */
export interface ToolchainCacheInput {
  /** `verify`'s environment (a person's terminal, or the hook's job: Claude Code's, set before the session). */
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  platform: NodeJS.Platform;
  root: string;
  /** The run's own temp folder, removed after it. */
  tempDir: string;
  /** The folder of caches kept from one `verify` to the next, or null when every cache starts empty (a re-proof). */
  keptDir: string | null;
  /** What validations may write already: the project, the temp folder, `verify.allowWrite`. */
  writable: readonly string[];
  /** No host is allowed (`verify.allowedDomains` is empty). */
  offline: boolean;
}

export interface ToolchainCaches {
  /** Variables every validation command starts with. */
  env: [name: string, value: string][];
  /** Folders validations may write besides `writable`. */
  writable: string[];
  /**
   * The user's caches an offline run reads, as this process names them: Go's module cache, cargo's home (its
   * registry), rustup's toolchains. Read-only; to be seen even where the sandbox hides what holds them.
   */
  readable: string[];
}

/**
 * Where the tools' caches are while validations run. A cache a tool trusts outside the sandbox (npm's, Go's build
 * cache, cargo's registry, pip's and uv's) is never writable inside it: a validation is code the agent wrote, and
 * what it planted there a later build in the user's terminal would use. The user's caches stay readable where they
 * are (Go's module cache, cargo's registry, rustup's toolchains), so an offline run finds what was downloaded;
 * what a tool must write goes to a cache of playbook's own (`keptDir`) or of the run's (`tempDir`):
 *
 * - npm: `npm_config_cache` in the run's temp folder, always (npx runs what the project installed);
 * - Go: `GOCACHE` in the kept folder (the run's, for a re-proof) unless the user's own is in `verify.allowWrite`;
 *   `GOPROXY=off` while no host is allowed, so a module the cache lacks fails at once with go's own words;
 * - cargo: `CARGO_NET_OFFLINE=true` while no host is allowed; a `CARGO_TARGET_DIR` outside what validations may
 *   write moves to the kept folder (the project's `target/` is the project's);
 * - Python: nothing: `__pycache__` and `.pytest_cache` are the project's, and Python skips bytecode it cannot write.
 */
export function toolchainCaches(input: ToolchainCacheInput): ToolchainCaches {
  const { env, keptDir, tempDir } = input;
  const own = keptDir ?? tempDir;
  const isWritable = (path: string) =>
    input.writable.some((w) => path === w || path.startsWith(`${w}/`));
  const out: [string, string][] = [
    ["npm_config_cache", join(tempDir, "npm-cache")],
  ];
  if (!isWritable(userGoCache(input)))
    out.push(["GOCACHE", join(own, "go-build")]);
  if (input.offline) out.push(["GOPROXY", "off"]);
  if (input.offline) out.push(["CARGO_NET_OFFLINE", "true"]);
  const target = env["CARGO_TARGET_DIR"];
  if (target && !isWritable(resolve(input.root, target)))
    out.push(["CARGO_TARGET_DIR", join(own, "cargo-target")]);
  return {
    env: out,
    writable: keptDir === null ? [] : [keptDir],
    readable: userReadCaches(input),
  };
}

/** `GOMODCACHE` (else `$GOPATH/pkg/mod`, else `~/go/pkg/mod`), `CARGO_HOME` (else `~/.cargo`), `RUSTUP_HOME`. */
function userReadCaches({ env, home }: ToolchainCacheInput): string[] {
  const absolute = (name: string) => {
    const value = env[name];
    return value && isAbsolute(value) ? value : null;
  };
  const gopath = env["GOPATH"]?.split(":")[0];
  const goModules =
    absolute("GOMODCACHE") ??
    join(
      gopath && isAbsolute(gopath) ? gopath : join(home, "go"),
      "pkg",
      "mod",
    );
  return [
    goModules,
    absolute("CARGO_HOME") ?? join(home, ".cargo"),
    absolute("RUSTUP_HOME") ?? join(home, ".rustup"),
  ];
}

/** The build cache `go` uses outside the sandbox: `GOCACHE`, else the user's cache folder's `go-build`. */
function userGoCache(input: ToolchainCacheInput): string {
  const set = input.env["GOCACHE"];
  if (set && isAbsolute(set)) return set;
  const cacheHome =
    input.platform === "darwin"
      ? join(input.home, "Library", "Caches")
      : xdgCacheHome(input.env, input.home);
  return join(cacheHome, "go-build");
}

/** `XDG_CACHE_HOME` when absolute (the specification ignores a relative one), else `~/.cache`. */
function xdgCacheHome(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  const set = env["XDG_CACHE_HOME"];
  return set && isAbsolute(set) ? set : join(home, ".cache");
}

/** Where the caches kept between `verify` runs live: playbook's own folder under the user's cache folder. */
export function keptCacheDir(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  return join(xdgCacheHome(env, home), "playbook-kit", "verify");
}

/** `NAME='value'; export NAME; ` for each variable, quoted for a POSIX shell. */
export function toShellExports(vars: readonly [string, string][]): string {
  return vars
    .map(
      ([name, value]) =>
        `${name}='${value.replaceAll("'", `'\\''`)}'; export ${name}; `,
    )
    .join("");
}
