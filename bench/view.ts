// Issue 29: the proof page. Time to its first render for a 1,000-subtask playbook, and the cost of one live update:
// from a record written to the page showing it, in Debian's Chromium.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { writeRecord } from "../src/adapters/record-store.ts";
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
    const firsts: number[] = [];
    const updates: number[] = [];
    const rows = (playbook.match(/^- \[[ x]\] \*\*p/gm) ?? []).length;
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage();
      const start = performance.now();
      await page.goto(url);
      await page.locator("tr[data-subtask]").last().waitFor();
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
    await browser.close();
    const first = median(firsts);
    const update = median(updates);
    process.stdout.write(
      `view: first render ${first.toFixed(0)} ms, one update ${update.toFixed(0)} ms (${rows} subtasks)\n`,
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
      `| first render, ${rows} subtasks | ${first.toFixed(0)} |`,
      `| one live update (150 ms of it the watcher's settle) | ${update.toFixed(0)} |`,
      "",
    ];
  } finally {
    child.kill("SIGTERM");
  }
}
