import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterEach } from "vitest";
import { childEnv } from "./run-cli.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const CHROMIUM = "/usr/bin/chromium";

/** Debian's Chromium, headless, with nothing that reaches the network (this machine's network is closed). */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * `playbook view --no-open` for a folder, and a browser: each test's views and browsers end after it.
 * `view(dir)` resolves to the URL the command printed.
 */
export function useProofViews(): {
  view: (dir: string) => Promise<string>;
  browser: () => Promise<Browser>;
} {
  let cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c();
    cleanup = [];
  });
  return {
    view: (dir) => {
      const child: ChildProcess = spawn(
        process.execPath,
        [join(ROOT, "dist", "cli.mjs"), "view", "--no-open", "--cwd", dir],
        { env: childEnv({ NO_COLOR: "1" }), stdio: ["ignore", "pipe", "pipe"] },
      );
      cleanup.push(async () => {
        if (child.exitCode !== null) return;
        child.kill("SIGTERM");
        await new Promise((resolve) => child.once("exit", resolve));
      });
      let out = "";
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no URL: ${out}`)),
          60_000,
        );
        child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
          out += chunk;
          const url = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out)?.[0];
          if (url) {
            clearTimeout(timer);
            resolve(url);
          }
        });
        child.on("exit", (code) =>
          reject(new Error(`view exited ${code}: ${out}`)),
        );
      });
    },
    browser: async () => {
      const browser = await launchChromium();
      cleanup.push(() => browser.close());
      return browser;
    },
  };
}
