import { describe, expect, it } from "vitest";
import {
  keptCacheDir,
  toolchainCaches,
  toShellExports,
  type ToolchainCacheInput,
} from "../../../src/adapters/toolchain-caches.ts";

const KEPT = "/home/u/.cache/playbook-kit/verify";
const TEMP = "/tmp/playbook-verify-x";

function caches(over: Partial<ToolchainCacheInput> = {}) {
  return toolchainCaches({
    env: {},
    home: "/home/u",
    platform: "linux",
    root: "/p",
    tempDir: TEMP,
    keptDir: KEPT,
    writable: ["/p", TEMP],
    offline: true,
    ...over,
  });
}

const envOf = (over: Partial<ToolchainCacheInput> = {}) =>
  Object.fromEntries(caches(over).env);

describe("the tools' caches in verify's sandbox", () => {
  it("offline: npm's cache is the run's, Go builds into playbook's kept cache, Go and cargo download nothing", () => {
    expect(caches()).toEqual({
      env: [
        ["npm_config_cache", `${TEMP}/npm-cache`],
        ["GOCACHE", `${KEPT}/go-build`],
        ["GOPROXY", "off"],
        ["CARGO_NET_OFFLINE", "true"],
      ],
      writable: [KEPT],
      readable: ["/home/u/go/pkg/mod", "/home/u/.cargo", "/home/u/.rustup"],
    });
  });

  it("a re-proof keeps nothing: every cache is the run's own", () => {
    const fresh = caches({
      keptDir: null,
      env: { CARGO_TARGET_DIR: "/home/u/target" },
    });
    expect(Object.fromEntries(fresh.env)).toMatchObject({
      GOCACHE: `${TEMP}/go-build`,
      CARGO_TARGET_DIR: `${TEMP}/cargo-target`,
    });
    expect(fresh.writable).toEqual([]);
  });

  it("with a host allowed, GOPROXY and cargo's network are the user's", () => {
    const env = envOf({ offline: false });
    expect(env["GOPROXY"]).toBeUndefined();
    expect(env["CARGO_NET_OFFLINE"]).toBeUndefined();
  });

  it.each([
    ["GOCACHE set", { GOCACHE: "/data/go-cache" }, ["/data"], "linux"],
    ["the XDG default", { XDG_CACHE_HOME: "/x" }, ["/x/go-build"], "linux"],
    ["the home default", {}, ["/home/u/.cache"], "linux"],
    ["macOS's default", {}, ["/home/u/Library/Caches/go-build"], "darwin"],
  ] as const)(
    "leaves the user's own Go build cache to go where verify.allowWrite names it (%s)",
    (_name, env, allowWrite, platform) => {
      expect(
        envOf({ env, platform, writable: ["/p", TEMP, ...allowWrite] })[
          "GOCACHE"
        ],
      ).toBeUndefined();
    },
  );

  it("never the user's Go build cache otherwise, wherever it is", () => {
    expect(envOf({ env: { GOCACHE: "/data/go-cache" } })["GOCACHE"]).toBe(
      `${KEPT}/go-build`,
    );
  });

  it.each([
    ["/home/u/shared-target", `${KEPT}/cargo-target`],
    ["target-elsewhere", undefined],
    ["/p/build", undefined],
  ])(
    "CARGO_TARGET_DIR %s outside what validations may write moves to the kept cache",
    (target, moved) => {
      expect(
        envOf({ env: { CARGO_TARGET_DIR: target } })["CARGO_TARGET_DIR"],
      ).toBe(moved);
    },
  );

  it("reads the module cache, cargo's home and rustup's where the user's environment puts them", () => {
    expect(
      caches({
        env: {
          GOPATH: "/go:/other",
          CARGO_HOME: "/opt/cargo",
          RUSTUP_HOME: "/opt/rustup",
        },
      }).readable,
    ).toEqual(["/go/pkg/mod", "/opt/cargo", "/opt/rustup"]);
    expect(
      caches({ env: { GOMODCACHE: "/m", CARGO_HOME: "relative" } }).readable,
    ).toEqual(["/m", "/home/u/.cargo", "/home/u/.rustup"]);
  });

  it("keeps its caches in playbook's folder of the user's cache folder", () => {
    expect(keptCacheDir({}, "/home/u")).toBe(KEPT);
    expect(keptCacheDir({ XDG_CACHE_HOME: "/c" }, "/home/u")).toBe(
      "/c/playbook-kit/verify",
    );
    expect(keptCacheDir({ XDG_CACHE_HOME: "c" }, "/home/u")).toBe(KEPT);
  });

  it("exports each variable, quoted for the shell", () => {
    expect(
      toShellExports([
        ["GOPROXY", "off"],
        ["GOCACHE", "/it's/here"],
      ]),
    ).toBe(
      "GOPROXY='off'; export GOPROXY; GOCACHE='/it'\\''s/here'; export GOCACHE; ",
    );
  });
});
