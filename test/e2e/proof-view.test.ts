import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createGuardedRepo,
  runByPlaybook,
  type GuardedRepo,
} from "../helpers/guarded-repo.ts";
import { useProofViews } from "../helpers/proof-view.ts";

const views = useProofViews();
const startView = (repo: GuardedRepo) => views.view(repo.dir);
const launch = () => views.browser();

describe("playbook view in a real browser (Debian's Chromium)", () => {
  it("shows each claim beside its proof, and updates without a reload when the hook records new evidence", async () => {
    const repo = createGuardedRepo();
    const url = await startView(repo);
    const browser = await launch();
    const page = await browser.newPage();
    await page.goto(url);

    const row = page.locator(
      'tr[data-subtask="p1.1"][data-validation="technical"]',
    );
    await expect.poll(() => row.getAttribute("data-status")).toBe("none");
    expect(await row.locator("td.result").textContent()).toBe("no evidence");
    expect(
      await page.locator("[data-approval]").getAttribute("data-approval"),
    ).toBe("approved");
    expect(await page.locator("h2").textContent()).toBe(
      "plan/playbook-login-form.md",
    );
    const shot = join(
      mkdtempSync(join(tmpdir(), "playbook-view-")),
      "view.png",
    );
    await page.screenshot({ path: shot, fullPage: true });
    expect(readFileSync(shot).subarray(1, 4).toString()).toBe("PNG");

    // A mark the page keeps only while it is not reloaded.
    await page.evaluate(() => {
      (globalThis as unknown as { kept: number }).kept = 42;
    });
    // The agent proves p1.1: the hook runs verify as its own job, which records the evidence (its test fails here).
    const verify = repo.bash("npx --no playbook verify p1.1");
    runByPlaybook(verify);
    await expect
      .poll(() => row.getAttribute("data-status"), { timeout: 30_000 })
      .toBe("failed");
    expect(await row.locator("td.result").textContent()).toBe("failed");
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { kept: number }).kept,
      ),
    ).toBe(42);
    expect(
      Number(
        await page.evaluate(
          () =>
            (
              globalThis as unknown as {
                document: { body: { dataset: Record<string, string> } };
              }
            ).document.body.dataset["updates"],
        ),
      ),
    ).toBeGreaterThan(0);
  }, 180_000);

  it("refuses a request without this run's token, from another origin or for another host", async () => {
    const repo = createGuardedRepo();
    const url = new URL(await startView(repo));
    const bare = `${url.origin}/`;
    expect((await fetch(bare)).status).toBe(403);
    expect((await fetch(`${url.origin}/?token=wrong`)).status).toBe(403);
    expect(
      (await fetch(url, { headers: { origin: "http://evil.example" } })).status,
    ).toBe(403);
    expect((await fetch(`${url.origin}/fragment?token=x`)).status).toBe(403);
    expect((await fetch(url, { method: "POST" })).status).toBe(405);
    // From a page of another origin in the browser: its script cannot read the view.
    const browser = await launch();
    const page = await browser.newPage();
    await page.goto("about:blank");
    const read = await page.evaluate(async (target) => {
      try {
        const reply = await fetch(target);
        return String(reply.status);
      } catch (error) {
        return `blocked: ${String(error)}`;
      }
    }, url.href);
    expect(read).not.toBe("200");
  }, 120_000);
});
