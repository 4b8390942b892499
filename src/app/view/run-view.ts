import { spawn } from "node:child_process";
import {
  startViewServer,
  type ViewServer,
} from "../../adapters/view-server.ts";
import {
  renderProofBody,
  renderProofPage,
} from "../../core/records/proof-html.ts";
import { readRepositoryLayout } from "../../adapters/git-runner.ts";
import {
  otherWorktrees,
  readProofPage,
  spelledFor,
} from "./read-proof-page.ts";

/**
 * `playbook view`: serves the live proof page of the project at `root` (adapters/view-server.ts) and, where a
 * browser can be opened, opens it. Each load and each update reads the project again; nothing is written, and the
 * hook never waits on the page.
 */
export async function runView(
  root: string,
  options: { open: boolean },
): Promise<ViewServer> {
  const spell = spelledFor(root);
  const layout = readRepositoryLayout(root);
  const server = await startViewServer({
    root,
    otherRoots: () => otherWorktrees(root),
    gitCommonDir: layout?.commonDir ?? null,
    page: (_token, nonce) =>
      spell(renderProofPage(readProofPage(root, new Date()), { nonce })),
    fragment: () => spell(renderProofBody(readProofPage(root, new Date()))),
  });
  if (options.open) openBrowser(server.url);
  return server;
}

/** The desktop's own opener, when there is one; without it the URL printed is the way in. */
function openBrowser(url: string): void {
  const opener =
    process.platform === "darwin"
      ? "open"
      : process.platform === "win32"
        ? "explorer"
        : "xdg-open";
  try {
    const child = spawn(opener, [url], { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // No opener: the printed URL is enough.
  }
}
