// What the map page's Chromium tests share: the real entry point (server/main.ts as a child process) over a private
// copy of the test run's drought artifacts plus the feed, ports and outbreak snapshots built from the data mirror,
// headless Chromium (Debian package, driven by playwright-core) on software WebGL, and helpers that read the map's
// pixels and ask the API what the page should show.
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { privateArtifacts, startRealServer, type RealServer, type SnapshotName } from "../e2e/real-server.ts";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // WebGL through the software rasteriser (MapLibre needs WebGL 2; there is no GPU here).
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
];

export interface MapHarness {
  base: string;
  key: string;
  server: RealServer;
  context: BrowserContext;
  page: Page;
  /** URLs of the tile responses (200) the page received. */
  tileResponses: string[];
  /** Every URL the page asked for, in order. */
  requests: string[];
  stop(): Promise<void>;
}

/** The server over the test run's artifacts (`artifactsDir`) with the named snapshots, and a Chromium page. */
export async function startMapHarness(artifactsDir: string, only: SnapshotName[], viewport = { width: 1200, height: 800 }): Promise<MapHarness> {
  const priv = privateArtifacts(artifactsDir, only);
  const server = await startRealServer(priv.dir);
  const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "tiles-chromium-")), {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const tileResponses: string[] = [];
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("response", (r) => {
    if (r.url().includes("/tiles/v/") && r.status() === 200) tileResponses.push(r.url());
  });
  mkdirSync(join(PROJECT_ROOT, "test-output"), { recursive: true });
  return {
    base: server.base,
    key: server.key,
    server,
    context,
    page,
    tileResponses,
    requests,
    stop: async () => {
      await context.close();
      await server.stop();
    },
  };
}

export type MapHandle = {
  droughtMap: {
    jumpTo(o: object): void;
    zoomTo(z: number, o: object): void;
    getCenter(): { lat: number; lng: number };
    getZoom(): number;
    project(c: number[]): { x: number; y: number };
    queryRenderedFeatures(a?: object, b?: object): { layer: { id: string }; geometry: { type: string; coordinates: number[] }; properties: Record<string, unknown> }[];
    loaded(): boolean;
    areTilesLoaded(): boolean;
  };
};

/** The map's screen position of a place. */
export function project(page: Page, lngLat: [number, number]): Promise<{ x: number; y: number }> {
  return page.evaluate((ll) => (window as unknown as MapHandle).droughtMap.project(ll), lngLat);
}

export async function waitForMapIdle(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const map = (window as unknown as Partial<MapHandle>).droughtMap;
    return map !== undefined && map.loaded() && map.areTilesLoaded();
  }, undefined, { timeout: 30_000 });
}

/** The screenshot's colour at a screen position, as #rrggbb; the screenshot is kept in test-output/. */
export async function pixelAtPoint(page: Page, pt: { x: number; y: number }, file: string): Promise<string> {
  const png = await page.screenshot({ path: join(PROJECT_ROOT, "test-output", file) });
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const i = (Math.round(pt.y) * info.width + Math.round(pt.x)) * info.channels;
  return "#" + [data[i], data[i + 1], data[i + 2]].map((v) => v.toString(16).padStart(2, "0")).join("");
}

/** The screenshot's colour at a map position (the map projects the position to the page). */
export async function pixelAt(page: Page, lngLat: [number, number], file: string): Promise<string> {
  return pixelAtPoint(page, await project(page, lngLat), file);
}

const rgb = (hex: string) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
/** Two colours within `tolerance` per channel (anti-aliasing, the software rasteriser's rounding). */
export const near = (a: string, b: string, tolerance = 6) => rgb(a).every((v, i) => Math.abs(v - rgb(b)[i]) <= tolerance);
/** `top` drawn with opacity `alpha` over `below`, as the compositor blends them. */
export const blend = (below: string, top: string, alpha: number) =>
  "#" + rgb(below).map((v, i) => Math.round(v * (1 - alpha) + rgb(top)[i] * alpha).toString(16).padStart(2, "0")).join("");
export const colourDistance = (a: string, b: string) => Math.hypot(...rgb(a).map((v, i) => v - rgb(b)[i]));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read response JSON by path
export type Json = any;

/** The API's answer (the `data` of the envelope, or the whole body of a GeoJSON answer), asked with the key. */
export async function api<T = Json>(h: { base: string; key: string }, path: string, body?: object): Promise<T> {
  const res = await fetch(h.base + path, {
    method: body ? "POST" : "GET",
    headers: { "X-API-Key": h.key, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return (json.data ?? json) as T;
}

/** Enters the key in the page's form and waits until the map has loaded. */
export async function enterKey(page: Page, key: string): Promise<void> {
  await page.fill("#api-key", key);
  await page.click("#key-form button[type=submit]");
  await page.waitForSelector("body[data-ready=map]", { timeout: 30_000 });
  await waitForMapIdle(page);
}

/** Closes the profile card (it lies over the map's top-left corner). */
export async function closePanel(page: Page): Promise<void> {
  if (await page.isVisible("#panel")) await page.click("#panel-close");
}
