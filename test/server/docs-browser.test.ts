// /docs in headless Chromium (Debian package, playwright-core): Redoc, loaded from this server under the page's
// Content-Security-Policy, fetches /openapi.json and renders every operation; nothing is requested from another
// host (the page's CSP stops Redoc's own logo request) and the page raises no error.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./helpers.ts";

let s: TestServer;
let context: BrowserContext;

beforeAll(async () => {
  s = await startTestServer();
  context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "docs-chromium-")), {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1280, height: 900 },
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await s?.close();
});

describe("/docs in Chromium", () => {
  it("Redoc renders every operation of the document, from this server only, without console errors", async () => {
    const page = context.pages()[0] ?? (await context.newPage());
    const requested: string[] = [];
    const errors: string[] = [];
    // Redoc's sidebar shows a logo from cdn.redoc.ly; the page's CSP (img-src 'self') stops that request before it
    // leaves the browser, and Redoc hides the image on error. Only requests that completed count.
    page.on("requestfinished", (r) => requested.push(r.url()));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("response", (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${s.base}/docs`);
    // Redoc renders each operation as an h2 with its summary; wait for the last one of the document.
    const doc = (await (await fetch(`${s.base}/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary?: string; operationId?: string }>> };
    const summaries = Object.values(doc.paths).flatMap((m) => Object.values(m).map((op) => op.summary!));
    expect(summaries.length).toBeGreaterThan(10);
    await page.waitForFunction((n) => document.querySelectorAll("h2").length >= n, summaries.length, { timeout: 30_000 });
    const headings = await page.$$eval("h2", (hs) => hs.map((h) => h.textContent?.trim() ?? ""));
    for (const summary of summaries) expect(headings).toContain(summary);
    expect(requested.filter((u) => !u.startsWith(s.base) && !u.startsWith("data:") && !u.startsWith("blob:"))).toEqual([]);
    // The one error: the CSP refusing Redoc's logo (the image hides itself, the request never leaves the browser).
    expect(errors).toEqual([expect.stringMatching(/^Loading the image 'https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini\.svg' violates the following Content Security Policy directive/)]);
  }, 60_000);
});
