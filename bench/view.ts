// Issue 29: the proof page. Time to its first render for a 1,000-subtask playbook, and the cost of one live update:
// from a record written to the page showing it, in Debian's Chromium.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { writeRecord } from "../src/adapters/record-store.ts";
import { benchGit } from "./bench-repo.ts";
import { guardedWorkspace } from "./workspaces.ts";

const CLI = join(import.meta.dirname, "..", "dist", "cli.mjs");

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The section's lines: first render (navigation to the table on screen) and one update, median of `runs`. */
export async function benchView(playbook: string, runs = 5): Promise<string[]> {
  const dir = guardedWorkspace(playbook);
  const child = spawn(
    process.execPath,
    [CLI, "view", "--no-open", "--cwd", dir],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
        const found = /http:\/\/\S+token=\S+/.exec(out)?.[0];
        if (found) resolve(found);
      });
      child.once("exit", () => reject(new Error(`view exited: ${out}`)));
    });
    const browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
    const rows = (playbook.match(/^- \[[ x]\] \*\*p/gm) ?? []).length;
    const alone = await measure(browser, url, dir, runs, 0);
    // Four more working trees of the repository, each on its own branch with the same playbook: the page reads each.
    const git = benchGit(dir);
    for (let k = 1; k <= 4; k++)
      git("worktree", "add", "-q", "-b", `feat/wt-${k}`, `${dir}-wt-${k}`);
    const five = await measure(browser, url, dir, runs, 5);
    await browser.close();
    process.stdout.write(
      `view: first render ${alone.first.toFixed(0)} ms, one update ${alone.update.toFixed(0)} ms (${rows} subtasks); with 5 worktrees ${five.first.toFixed(0)} / ${five.update.toFixed(0)} ms\n`,
    );
    return [
      "## The proof page (issue 29)",
      "",
      `\`playbook view\` in Debian's Chromium (headless, playwright-core), a ${rows}-subtask playbook, median of ${runs}:`,
      "the first render is from navigation to the last subtask's row on screen; one update is from a record written to",
      "the page showing it (file watcher, 150 ms settle, server-sent event, the page's main part fetched and replaced).",
      "",
      "| what | ms |",
      "| --- | ---: |",
      `| first render, ${rows} subtasks | ${alone.first.toFixed(0)} |`,
      `| one live update (150 ms of it the watcher's settle) | ${alone.update.toFixed(0)} |`,
      `| first render, 5 worktrees of the repository, each with the ${rows}-subtask playbook | ${five.first.toFixed(0)} |`,
      `| one live update, 5 worktrees | ${five.update.toFixed(0)} |`,
      "",
    ];
  } finally {
    child.kill("SIGTERM");
  }
}

/** Median time to the first render and to one live update, over `runs` fresh pages. */
async function measure(
  browser: Browser,
  url: string,
  dir: string,
  runs: number,
  /** How many working trees the page must list (none when the repository has only its own). */
  worktrees: number,
): Promise<{ first: number; update: number }> {
  const firsts: number[] = [];
  const updates: number[] = [];
  for (let i = 0; i < runs; i++) {
    const page = await browser.newPage();
    const start = performance.now();
    await page.goto(url);
    await page.locator("tr[data-subtask]").last().waitFor();
    const trees = await page.locator("tr[data-worktree]").count();
    if (trees !== worktrees)
      throw new Error(`the page lists ${trees} worktrees, not ${worktrees}`);
    firsts.push(performance.now() - start);
    const before = Number(
      await page.evaluate(
        () =>
          (
            globalThis as unknown as {
              document: { body: { dataset: Record<string, string> } };
            }
          ).document.body.dataset["updates"] ?? "0",
      ),
    );
    const written = performance.now();
    writeRecord(dir, {
      kind: "critic",
      playbook: "plan/playbook-bench.md",
      target: "p1",
      contentHash: `bench-${i}`,
      verdict: "PASS",
      by: "critic",
      at: new Date().toISOString(),
      detail: { evidence: `run ${i}` },
    });
    await page.waitForFunction(
      (n) =>
        Number(
          (
            globalThis as unknown as {
              document: { body: { dataset: Record<string, string> } };
            }
          ).document.body.dataset["updates"] ?? "0",
        ) > n,
      before,
      { timeout: 30_000 },
    );
    updates.push(performance.now() - written);
    await page.close();
  }
  return { first: median(firsts), update: median(updates) };
}
