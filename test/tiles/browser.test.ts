// The map page in headless Chromium (Debian package, driven by playwright-core) against a running server over
// the real artifacts: waits for drought raster tiles, switches index and month, clicks a province and checks
// that the panel shows that province's values from the API; saves test-output/tiles-map.png.
// Server: the real entry point (server/main.ts as a child process) once it mounts the tiles routers; until then
// the same app in process: createApp() behind createMapPageRouter() and createTilesRouter() (see docs/methods/tiles.md).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import sharp from "sharp";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dataDir, PROJECT_ROOT } from "../../lib/config.ts";
import { log } from "../../lib/log.ts";
import { loadProvinces, provincesPath } from "../../pipeline/provinces/boundaries.ts";
import { createApp } from "../../server/app.ts";
import { FileKeyStore, generateKey, hashKey, writeKeyFile } from "../../server/auth/key-store.ts";
import { createRateLimiter } from "../../server/limits/rate-limit.ts";
import { createMapPageRouter, createTilesRouter } from "../../server/routes/tiles.ts";
import { openDroughtService } from "../../server/services/drought-service.ts";
import { buildTiles, TILES_INDEX_FILE } from "../../tiles/build-tiles.ts";
import { privateArtifacts, startRealServer, type RealServer } from "../e2e/real-server.ts";
import { buildSnapshots } from "../../pipeline/snapshots/build-snapshots.ts";

const CHROMIUM_ARGS = [
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

/** The real entry point serves tiles once server/app.ts or server/main.ts mounts createTilesRouter. */
function entryPointServesTiles(): boolean {
  return ["app.ts", "main.ts"].some((f) => readFileSync(join(PROJECT_ROOT, "server", f), "utf8").includes("createTilesRouter"));
}

interface Running {
  base: string;
  key: string;
  stop: () => Promise<unknown>;
}

async function startInProcess(artifactsDir: string): Promise<Running> {
  const keyDir = mkdtempSync(join(tmpdir(), "tiles-keys-"));
  const key = generateKey();
  writeKeyFile(join(keyDir, "keys.json"), {
    keys: [{ id: "key_map", hash: hashKey(key), plan: "enterprise", status: "active", createdAt: "2026-01-01T00:00:00.000Z" }],
  });
  const keys = new FileKeyStore(join(keyDir, "keys.json"), { logger: log });
  const { service, store } = await openDroughtService(artifactsDir);
  const app = express();
  app.use(createMapPageRouter());
  app.use(createTilesRouter({ current: () => store.current(), auth: (k) => keys.authenticate(k), logger: log }));
  app.use(
    createApp({
      drought: service,
      keys,
      limiter: createRateLimiter({ plans: { free: { points: 100, duration: 60 }, enterprise: { points: 1_000_000, duration: 60 } } }),
      logger: log,
      ready: () => store.current() !== undefined,
    }),
  );
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key,
    stop: async () => {
      store.stop();
      await new Promise((r) => server.close(r));
    },
  };
}

let running: Running;
let context: BrowserContext;
let page: Page;
const tileResponses: string[] = [];

beforeAll(async () => {
  const priv = privateArtifacts(inject("artifactsDir"));
  // The flood, storm, ports and outbreak snapshots, for the other layers (built from the data mirror into the private copy).
  const built = await buildSnapshots({ dataDir: dataDir(), artifactsDir: priv.dir, droughtArtifactsDir: priv.dir, only: ["flood", "storm", "ports", "outbreaks"] });
  for (const s of Object.values(built)) if (s.status !== "published") throw new Error(`snapshot not published: ${JSON.stringify(s)}`);
  const versionDir = realpathSync(join(priv.dir, "current"));
  if (!existsSync(join(versionDir, TILES_INDEX_FILE))) {
    // The build does not make tiles yet: make two months of them into the private copy.
    const { openDroughtArtifacts } = await import("../../server/data/drought-artifacts.ts");
    const { readManifest } = await import("../../formats/manifest.ts");
    const data = openDroughtArtifacts(versionDir, readManifest(versionDir));
    await buildTiles({
      grid: data.grid,
      provinces: loadProvinces(provincesPath(dataDir())),
      summaries: data.summaries,
      provinceMeta: data.provinces,
      outDir: versionDir,
      months: 2,
      maxZoom: 8,
      latestMonth: data.defaultMonth,
    });
  }
  if (entryPointServesTiles()) {
    const real: RealServer = await startRealServer(priv.dir);
    running = { base: real.base, key: real.key, stop: () => real.stop() };
  } else {
    running = await startInProcess(priv.dir);
  }
  context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "tiles-chromium-")), {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1200, height: 800 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on("response", (r) => {
    if (r.url().includes("/tiles/v/") && r.status() === 200) tileResponses.push(r.url());
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await running?.stop();
});

type MapHandle = { droughtMap: { jumpTo(o: object): void; project(c: number[]): { x: number; y: number }; queryRenderedFeatures(o: object): { geometry: { coordinates: number[] }; properties: Record<string, unknown> }[] } };

/** The screenshot's colour at a map position, as a hex string (the map projects the position to the page). */
async function pixelAt(lngLat: [number, number], file: string): Promise<string> {
  const pt = await page.evaluate((ll) => (window as unknown as MapHandle).droughtMap.project(ll), lngLat);
  const png = await page.screenshot({ path: join(PROJECT_ROOT, "test-output", file) });
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const i = (Math.round(pt.y) * info.width + Math.round(pt.x)) * info.channels;
  return "#" + [data[i], data[i + 1], data[i + 2]].map((v) => v.toString(16).padStart(2, "0")).join("");
}

/** The colours of the map's legends (server/public/index.html), as the test expects them on screen. */
/** The outbreak layer's fill of an area: its burden level, or news only. */
const LEVEL_FILL: Record<string, string> = { critical: "#b30000", high: "#e34a33", medium: "#fdbb84", low: "#a1d99b", news_only: "#9e9ac8" };
const outbreakFill = (a: { outbreakStatus: string; riskLevel: string }) => LEVEL_FILL[a.outbreakStatus === "news_only" ? "news_only" : a.riskLevel];
const congestionFill = (i: number | null) => (i === null ? "#9e9e9e" : i < 25 ? "#2c7bb6" : i < 75 ? "#1a9641" : i < 90 ? "#fdae61" : "#d7191c");
const near = (a: string, b: string) => [1, 3, 5].every((k) => Math.abs(parseInt(a.slice(k, k + 2), 16) - parseInt(b.slice(k, k + 2), 16)) <= 6);

async function waitForMapIdle(): Promise<void> {
  await page.waitForFunction(() => {
    const map = (window as unknown as { droughtMap?: { loaded(): boolean; areTilesLoaded(): boolean } }).droughtMap;
    return map !== undefined && map.loaded() && map.areTilesLoaded();
  }, undefined, { timeout: 30_000 });
}

describe("map page in Chromium", () => {
  it("asks for the key, loads drought tiles, switches index and month, and shows a clicked province's API values", async () => {
    await page.goto(running.base + "/");
    await expect.poll(() => page.textContent("#status")).toBe("Enter an API key to load the map.");
    await page.fill("#api-key", running.key);
    await page.click("#key-form button");
    await waitForMapIdle();
    const info = (await (await fetch(`${running.base}/tiles/index.json`)).json()).data;
    await expect.poll(() => tileResponses.some((u) => u.includes(`/drought-spei1-${info.defaultMonth}/`) && u.endsWith(".png")), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => tileResponses.some((u) => u.includes("/provinces/") && u.endsWith(".mvt")), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => tileResponses.some((u) => u.includes("/countries/") && u.endsWith(".mvt")), { timeout: 30_000 }).toBe(true);
    // The key travels in a header only.
    expect(tileResponses.every((u) => !u.includes(running.key))).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem("climateRiskApiKey"))).toBe(running.key);

    await page.selectOption("#index", "spei3");
    await waitForMapIdle();
    await expect.poll(() => tileResponses.some((u) => u.includes(`/drought-spei3-${info.defaultMonth}/`)), { timeout: 30_000 }).toBe(true);
    const earlier = info.precomputedMonths[0] === info.defaultMonth ? "2018-01" : info.precomputedMonths[0];
    await page.fill("#month", earlier);
    await page.dispatchEvent("#month", "change");
    await waitForMapIdle();
    await expect.poll(() => tileResponses.some((u) => u.includes(`/drought-spei3-${earlier}/`)), { timeout: 30_000 }).toBe(true);
    await page.fill("#month", info.defaultMonth);
    await page.dispatchEvent("#month", "change");
    await waitForMapIdle();

    // Chiang Mai: a point well inside the province, projected to the screen by the map itself.
    const point = await page.evaluate(() => {
      const map = (window as unknown as { droughtMap: { project(ll: [number, number]): { x: number; y: number } } }).droughtMap;
      return map.project([98.75, 18.9]);
    });
    await page.mouse.click(point.x, point.y);
    await page.waitForSelector('#panel[data-province="Chiang Mai"]', { timeout: 15_000 });
    const api = await (
      await fetch(`${running.base}/api/risk-map/drought/province?name=Chiang%20Mai&month=${info.defaultMonth}`, { headers: { "X-API-Key": running.key } })
    ).json();
    const fmt = (v: number | null, d = 2) => (v === null ? "–" : v.toFixed(d));
    expect(await page.textContent("#panel-title")).toBe(api.data.province);
    expect(await page.textContent('#panel td[data-field="month"]')).toBe(api.data.month);
    expect(await page.textContent('#panel td[data-field="score"]')).toBe(fmt(api.data.score, 1));
    expect(await page.textContent('#panel td[data-field="level"]')).toBe(api.data.level);
    expect(await page.textContent('#panel td[data-field="spei1"]')).toBe(fmt(api.data.indices.spei1));
    expect(await page.textContent('#panel td[data-field="spei3"]')).toBe(fmt(api.data.indices.spei3));
    expect(await page.textContent('#panel td[data-field="spei6"]')).toBe(fmt(api.data.indices.spei6));
    mkdirSync(join(PROJECT_ROOT, "test-output"), { recursive: true });
    await page.screenshot({ path: join(PROJECT_ROOT, "test-output", "tiles-map.png") });
  }, 90_000);

  it("the panel follows the index and the month of the selection", async () => {
    const info = (await (await fetch(`${running.base}/tiles/index.json`)).json()).data;
    await page.selectOption("#index", "spei6");
    await page.waitForSelector('#panel[data-province="Chiang Mai"][data-index="spei6"]', { timeout: 15_000 });
    const month = info.precomputedMonths.find((m: string) => m !== info.defaultMonth) ?? "2018-01";
    await page.fill("#month", month);
    await page.dispatchEvent("#month", "change");
    await page.waitForSelector(`#panel[data-province="Chiang Mai"][data-month="${month}"]`, { timeout: 15_000 });
    const api = await (await fetch(`${running.base}/api/risk-map/drought/province?name=Chiang%20Mai&month=${month}`, { headers: { "X-API-Key": running.key } })).json();
    expect(await page.textContent('#panel td[data-field="month"]')).toBe(api.data.month);
    const v = api.data.indices.spei6;
    expect(await page.textContent('#panel td[data-field="selected: spei6"]')).toBe(v === null ? "–" : v.toFixed(2));
  }, 60_000);

  it("names the provinces on the map from zoom 6", async () => {
    await expect.poll(() => page.$$eval(".province-label", (els) => els.length), { timeout: 15_000 }).toBe(77);
    await page.evaluate(() => (window as unknown as { droughtMap: { jumpTo(o: object): void } }).droughtMap.jumpTo({ center: [99.5, 16.5], zoom: 5 }));
    expect(await page.$eval(".province-label", (el) => getComputedStyle(el).display)).toBe("none");
    await page.evaluate(() => (window as unknown as { droughtMap: { zoomTo(z: number, o: object): void } }).droughtMap.zoomTo(6.5, { duration: 0 }));
    await expect.poll(() => page.$$eval(".province-label", (els) => els.filter((e) => getComputedStyle(e).display !== "none").map((e) => e.textContent)), { timeout: 10_000 }).toContain("Chiang Mai");
    mkdirSync(join(PROJECT_ROOT, "test-output"), { recursive: true });
    await page.screenshot({ path: join(PROJECT_ROOT, "test-output", "map-labels.png") });
  }, 60_000);

  it("a wrong key is said in words and asked again; no raw AJAXError", async () => {
    await page.evaluate(() => sessionStorage.setItem("climateRiskApiKey", "crk_wrong_key_for_the_test_0000000000"));
    await page.reload();
    await expect.poll(() => page.textContent("#status"), { timeout: 20_000 }).toBe("The API key was not accepted. Check it and enter it again.");
    expect(await page.getAttribute("body", "data-key")).toBe("rejected");
    expect(await page.evaluate(() => sessionStorage.getItem("climateRiskApiKey"))).toBeNull();
    expect(await page.textContent("body")).not.toContain("AJAXError");
    // The right key then loads the map and clears the message.
    await page.fill("#api-key", running.key);
    await page.click("#key-form button");
    await expect.poll(() => page.getAttribute("body", "data-key"), { timeout: 30_000 }).toBe("accepted");
    expect(await page.textContent("#status")).toBe("");
  }, 60_000);

  it("on a 390 px phone the map is on top and the controls below it, nothing overlapping", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(async () => (await page.locator("#map").boundingBox())!.width, { timeout: 10_000 }).toBe(390);
    const map = (await page.locator("#map").boundingBox())!;
    const controls = (await page.locator("#controls").boundingBox())!;
    expect(map.width).toBe(390);
    expect(controls.width).toBe(390);
    expect(map.y).toBe(0);
    expect(map.height).toBeGreaterThan(844 * 0.5);
    expect(controls.y).toBeGreaterThanOrEqual(map.y + map.height - 1);
    expect(controls.y + controls.height).toBeLessThanOrEqual(845);
    // The map canvas follows its container (MapLibre resized with the window).
    await expect.poll(async () => Math.round((await page.locator("#map canvas").boundingBox())!.width), { timeout: 10_000 }).toBe(390);
    await page.screenshot({ path: join(PROJECT_ROOT, "test-output", "map-390px.png") });
    await page.setViewportSize({ width: 1200, height: 800 });
  }, 60_000);

  it("flood events and storm tracks as layers with legends; a click shows the event and the API's score there", async () => {
    await page.evaluate(() => (window as unknown as { droughtMap: { jumpTo(o: object): void } }).droughtMap.jumpTo({ center: [100.5, 13.5], zoom: 5 }));
    await page.check("#layer-flood");
    await page.check("#layer-storm");
    // The legends show as soon as their boxes are ticked (before the events arrive).
    expect(await page.isVisible("#legend-flood")).toBe(true);
    expect(await page.isVisible("#legend-storm")).toBe(true);
    await expect.poll(() => page.getAttribute("body", "data-flood-events"), { timeout: 20_000 }).not.toBeNull();
    await expect.poll(() => page.getAttribute("body", "data-storm-events"), { timeout: 20_000 }).not.toBeNull();
    await waitForMapIdle();
    const rendered = await page.evaluate(() => {
      const map = (window as unknown as { droughtMap: { queryRenderedFeatures(a: object, b?: object): { layer: { id: string }; geometry: { type: string; coordinates: number[] }; properties: Record<string, unknown> }[]; project(c: number[]): { x: number; y: number } } }).droughtMap;
      const floods = map.queryRenderedFeatures({ layers: ["flood-events"] });
      const storms = map.queryRenderedFeatures({ layers: ["storm-tracks"] });
      // A feature the map's own click query (±4 px, as map.js asks) finds first, away from the canvas edges: a GDACS
      // point and a larger DFO circle can cover the same pixel, and the click must hit the feature we check.
      const canvas = document.querySelector("#map canvas")!.getBoundingClientRect();
      const clickable = floods.filter((x) => {
        const p = map.project(x.geometry.coordinates);
        if (p.x < 40 || p.y < 40 || p.x > canvas.width - 40 || p.y > canvas.height - 40) return false;
        const top = map.queryRenderedFeatures([[p.x - 4, p.y - 4], [p.x + 4, p.y + 4]], { layers: ["flood-events", "storm-tracks"] })[0];
        return top?.properties.id === x.properties.id;
      });
      const f = clickable.find((x) => x.properties.source === "GDACS") ?? clickable[0];
      return { floods: floods.length, storms: storms.length, point: f ? map.project(f.geometry.coordinates) : null, id: f?.properties.id, coords: f?.geometry.coordinates };
    });
    expect(rendered.floods).toBeGreaterThan(10);
    expect(rendered.storms).toBeGreaterThan(10);
    // The pixels: the flood circles' colours are on the screenshot.
    mkdirSync(join(PROJECT_ROOT, "test-output"), { recursive: true });
    await page.screenshot({ path: join(PROJECT_ROOT, "test-output", "map-events.png") });
    await page.mouse.click(rendered.point!.x, rendered.point!.y);
    await page.waitForSelector(`#panel[data-kind="flood-event"][data-event="${rendered.id}"]`, { timeout: 15_000 });
    const [lng, lat] = rendered.coords as number[];
    const api = await (
      await fetch(`${running.base}/api/risk-map/score`, {
        method: "POST",
        headers: { "X-API-Key": running.key, "Content-Type": "application/json" },
        body: JSON.stringify({ lat: Number(lat.toFixed(4)), lng: Number(lng.toFixed(4)), riskType: "flood", timeframe: "1y" }),
      })
    ).json();
    expect(await page.textContent('#panel td[data-field="flood score here"]')).toBe(api.data.riskScore.toFixed(1));
    expect(await page.textContent('#panel td[data-field="flood level"]')).toBe(api.data.riskLevel);
    expect(await page.textContent('#panel td[data-field="flood confidence"]')).toBe(`${api.data.details.confidence.toFixed(2)} (${api.data.details.confidenceLabel})`);
  }, 90_000);

  it("ports coloured by congestion, with a legend; a click shows the API's congestion answer", async () => {
    await page.uncheck("#layer-flood");
    await page.uncheck("#layer-storm");
    // Laem Chabang at zoom 9 (its neighbours some 30 px away).
    await page.evaluate(() => (window as unknown as MapHandle).droughtMap.jumpTo({ center: [100.9, 13.08], zoom: 9 }));
    await page.check("#layer-ports");
    expect(await page.isVisible("#legend-ports")).toBe(true);
    await expect.poll(() => page.getAttribute("body", "data-ports-events"), { timeout: 20_000 }).not.toBeNull();
    await waitForMapIdle();
    const key = { headers: { "X-API-Key": running.key } };
    const api = (await (await fetch(`${running.base}/api/supply-chain/ports?bbox=100,12,102,14&limit=2000`, key)).json()).features as { id: string; geometry: { coordinates: [number, number] }; properties: { congestionIndex: number | null } }[];
    const lch = api.find((f) => f.id === "THLCH")!;
    const rendered = await page.evaluate(() => (window as unknown as MapHandle).droughtMap.queryRenderedFeatures({ layers: ["ports"] }).map((f) => f.properties.code));
    // From zoom 6 Thailand's name gives way to its provinces'.
    await expect.poll(() => page.$$eval(".country-label", (els) => els.map((e) => e.textContent)), { timeout: 10_000 }).not.toContain("Thailand");
    expect(rendered).toContain("THLCH");
    expect(rendered.length).toBeGreaterThan(3);
    // The pixels: Laem Chabang's circle has the colour of its index (69.4: usual), a port without daily calls grey.
    mkdirSync(join(PROJECT_ROOT, "test-output"), { recursive: true });
    expect(near(await pixelAt(lch.geometry.coordinates, "map-ports.png"), congestionFill(lch.properties.congestionIndex))).toBe(true);
    const grey = api.find((f) => f.properties.congestionIndex === null && rendered.includes(f.id))!;
    expect(near(await pixelAt(grey.geometry.coordinates, "map-ports.png"), "#9e9e9e"), grey.id).toBe(true);
    const pt = await page.evaluate((ll) => (window as unknown as MapHandle).droughtMap.project(ll), lch.geometry.coordinates);
    await page.mouse.click(pt.x, pt.y);
    await page.waitForSelector('#panel[data-kind="port"][data-port="THLCH"]', { timeout: 15_000 });
    const answer = (await (await fetch(`${running.base}/api/supply-chain/query`, { method: "POST", headers: { ...key.headers, "Content-Type": "application/json" }, body: JSON.stringify({ portCode: "THLCH", queryType: "congestion" }) })).json()).data;
    expect(await page.textContent("#panel-title")).toBe(answer.port.name);
    expect(await page.textContent('#panel td[data-field="congestion index"]')).toBe(String(answer.congestionIndex));
    expect(await page.textContent('#panel td[data-field="disruption risk"]')).toBe(answer.disruptionRisk);
    await page.uncheck("#layer-ports");
  }, 90_000);

  it("outbreak burden level by country and Thai province, per disease, with a legend; a click shows the API's outbreak answer", async () => {
    // Zoom 5.5: Thailand and its neighbours, below the zoom of the province labels.
    await page.evaluate(() => (window as unknown as MapHandle).droughtMap.jumpTo({ center: [102, 13.5], zoom: 5.5 }));
    await page.check("#layer-outbreak");
    expect(await page.isVisible("#legend-outbreak")).toBe(true);
    await expect.poll(() => page.getAttribute("body", "data-outbreak-disease"), { timeout: 20_000 }).toBe("dengue");
    await waitForMapIdle();
    const key = { headers: { "X-API-Key": running.key } };
    const dengue = (await (await fetch(`${running.base}/api/outbreak-radar/status?diseaseType=dengue`, key)).json()).data;
    expect(await page.getAttribute("body", "data-outbreak-areas")).toBe(String(dengue.countries.length + dengue.provinces.length));
    // Nakhon Ratchasima (TH-30) in its province's burden colour; Cambodia in its country's (or uncoloured without data).
    const korat = dengue.provinces.find((p: { code: string }) => p.code === "TH-30");
    expect(near(await pixelAt([102.1, 15.0], "map-outbreak.png"), outbreakFill(korat))).toBe(true);
    const khm = dengue.countries.find((c: { code: string }) => c.code === "KHM");
    expect(near(await pixelAt([104.0, 13.8], "map-outbreak.png"), khm ? outbreakFill(khm) : "#f4f3ee")).toBe(true);
    // Place names: the countries in view (from the countries tiles), Thailand's too below zoom 6.
    await expect.poll(() => page.$$eval(".country-label", (els) => els.map((e) => e.textContent)), { timeout: 10_000 }).toEqual(expect.arrayContaining(["Cambodia", "Laos", "Myanmar", "Vietnam", "Thailand"]));
    const pt = await page.evaluate(() => (window as unknown as MapHandle).droughtMap.project([102.1, 15.0]));
    await page.mouse.click(pt.x, pt.y);
    await page.waitForSelector('#panel[data-kind="outbreak"][data-area="TH-30"]', { timeout: 15_000 });
    const answer = (await (await fetch(`${running.base}/api/outbreak-radar/query`, { method: "POST", headers: { ...key.headers, "Content-Type": "application/json" }, body: JSON.stringify({ lat: 15, lng: 102.1, diseaseType: "dengue" }) })).json()).data;
    expect(answer.province.code).toBe("TH-30");
    expect(await page.textContent("#panel-title")).toBe(`Dengue in ${answer.province.name}`);
    expect(await page.textContent('#panel td[data-field="status"]')).toBe(korat.outbreakStatus);
    expect(await page.textContent('#panel td[data-field="score"]')).toBe(answer.riskScore.toFixed(1));
    // Malaria: no province series, so Thailand takes its national colour.
    await page.selectOption("#outbreak-disease", "malaria");
    await expect.poll(() => page.getAttribute("body", "data-outbreak-disease"), { timeout: 20_000 }).toBe("malaria");
    await waitForMapIdle();
    const malaria = (await (await fetch(`${running.base}/api/outbreak-radar/status?diseaseType=malaria`, key)).json()).data;
    expect(malaria.provinces).toEqual([]);
    const tha = malaria.countries.find((c: { code: string }) => c.code === "THA");
    expect(tha).toBeDefined();
    expect(near(await pixelAt([102.1, 15.0], "map-outbreak-malaria.png"), outbreakFill(tha))).toBe(true);
    await page.uncheck("#layer-outbreak");
  }, 90_000);
});
