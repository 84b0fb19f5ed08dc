// The map answers anywhere (issue 26, item 2), in headless Chromium against the real server over the real artifacts
// and every snapshot (test/tiles/map-harness.ts): the key form goes once the key is accepted; a click anywhere opens
// the place's profile with every part as GET /api/risk-map/profile gives it for that point (and each part's request
// gives the same answer); the panel follows the layers, the disease and the month; layers seen together (the drought
// raster through the half-transparent outbreak fill, points on top; no colour in two layers' legends); the view in
// the address (a link in a new tab, reload, back and forward); a 390 × 844 phone. Screenshots in test-output/.
import sharp from "sharp";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, blend, closePanel, colourDistance, enterKey, near, pixelAt, pixelAtPoint, project, startMapHarness, waitForMapIdle, type Json, type MapHandle, type MapHarness } from "./map-harness.ts";

let h: MapHarness;
let page: Page;

beforeAll(async () => {
  h = await startMapHarness(inject("artifactsDir"), ["flood", "wildfire", "heatwave", "storm", "sea_level_rise", "ports", "outbreaks"]);
  page = h.page;
}, 180_000);

afterAll(async () => {
  await h?.stop();
});

const RISKS = ["drought", "flood", "wildfire", "heatwave", "storm", "sea_level_rise"];
const DISEASES = { dengue: "Dengue", malaria: "Malaria", cholera: "Cholera", covid: "COVID-19", influenza: "Influenza" };
const HANOI: [number, number] = [105.85, 21.03];
const BANGKOK: [number, number] = [100.52, 13.75];

const text = async (selector: string) => (await page.textContent(selector))?.trim();
const confidence = (p: Json) => (p.confidence === null ? (p.confidenceLabel ?? "–") : `${p.confidence.toFixed(2)} (${p.confidenceLabel})`);
const requestText = (r: Json) => `${r.method} ${r.path} with ${JSON.stringify(r.body)}`;

/** Every part of the panel's profile is the API's: level, score and confidence, or the error; its request. */
async function expectProfileShown(p: Json): Promise<void> {
  const parts: [string, string, Json][] = [
    ...RISKS.map((t) => ["risk", t, p.risks[t]] as [string, string, Json]),
    ...Object.keys(DISEASES).map((d) => ["outbreak", d, p.outbreaks[d]] as [string, string, Json]),
  ];
  expect(await page.$$eval("#profile tr[data-part][data-kind]", (rows) => rows.map((r) => r.getAttribute("data-part")))).toEqual(parts.map(([, name]) => name));
  for (const [kind, name, part] of parts) {
    const row = `#profile tr[data-kind="${kind}"][data-part="${name}"]`;
    if (part.error) {
      expect(await page.getAttribute(row, "data-error"), name).toBe(part.error.code);
      expect(await text(`${row} td[data-field="why"]`), name).toBe(part.error.message);
    } else {
      expect(await text(`${row} td[data-field="level"]`), name).toBe(part.riskLevel);
      expect(await text(`${row} td[data-field="score"]`), name).toBe(part.riskScore.toFixed(1));
      expect(await text(`${row} td[data-field="confidence"]`), name).toBe(confidence(part));
      // How recent the part's data are: its newest datum, marked where older than its series' horizon.
      expect(await text(`${row} td[data-field="data to"]`), name).toBe(`${part.asOf}${part.currency.current ? "" : " (not current)"}`);
      if (kind === "outbreak") expect(await text(`${row} th`)).toBe(`${DISEASES[name as keyof typeof DISEASES]}: ${part.outbreakStatus}`);
    }
    expect(await text(`#api-${kind}-${name} div[data-field="request"]`), name).toBe(requestText(part.request));
  }
  if (p.nearestPort) {
    const np = p.nearestPort;
    expect(await text('#profile td[data-field="port"]')).toBe(`${np.port.name}${np.port.code ? ` (${np.port.code})` : ""}`);
    expect(await text('#profile td[data-field="distance (km)"]')).toBe(np.distanceKm.toFixed(1));
    expect(await text('#profile td[data-field="congestion index"]')).toBe(np.congestionIndex === null ? "–" : String(np.congestionIndex));
    expect(await text('#profile td[data-field="disruption risk"]')).toBe(np.disruptionRisk);
    expect(await text('#profile table[data-part="port"] td[data-field="data to"]')).toBe(np.asOf === null ? "–" : `${np.asOf}${np.currency.current ? "" : " (not current)"}`);
    expect(await text('#api-port div[data-field="request"]')).toBe(requestText(np.request));
  } else {
    expect(await text('#profile [data-part="port"][data-field="why"]')).toBe(p.nearestPortReason.message);
  }
}

/** Clicks a place and waits for its profile; returns the point the page asked about. */
async function clickPlace(lngLat: [number, number]): Promise<{ lat: number; lng: number }> {
  const before = await page.getAttribute("#panel", "data-lat");
  const pt = await project(page, lngLat);
  await page.mouse.click(pt.x, pt.y);
  await expect.poll(() => page.getAttribute("#panel", "data-lat"), { timeout: 10_000 }).not.toBe(before);
  await page.waitForSelector("#profile[data-state=ready]", { timeout: 20_000 });
  return { lat: Number(await page.getAttribute("#profile", "data-lat")), lng: Number(await page.getAttribute("#profile", "data-lng")) };
}

describe("the map answers anywhere (Chromium)", () => {
  it("the key form goes away once the key is accepted, and 'Change key' brings it back", async () => {
    await page.goto(h.base + "/#map=5.00/18.0000/104.0000&layers=");
    await expect.poll(() => page.textContent("#status")).toBe("Enter an API key to load the map.");
    expect(await page.isVisible("#key-form")).toBe(true);
    await enterKey(page, h.key);
    expect(await page.getAttribute("body", "data-key")).toBe("accepted");
    expect(await page.isVisible("#key-form")).toBe(false);
    expect(await page.isVisible("#api-key")).toBe(false);
    expect(await page.isVisible("#change-key")).toBe(true);
    await page.click("#change-key");
    expect(await page.isVisible("#key-form")).toBe(true);
    expect(await page.isVisible("#key-cancel")).toBe(true);
    // A refused new key leaves the accepted one in use.
    await page.fill("#api-key", "crk_wrong_key_for_the_test_0000000000");
    await page.click("#key-form button[type=submit]");
    await expect.poll(() => page.textContent("#status")).toBe("That key was not accepted; the map goes on with the previous one.");
    expect(await page.getAttribute("body", "data-key")).toBe("accepted");
    expect(await page.evaluate(() => sessionStorage.getItem("climateRiskApiKey"))).toBe(h.key);
    await page.click("#key-cancel");
    expect(await page.isVisible("#key-form")).toBe(false);
    expect(await page.isVisible("#change-key")).toBe(true);
    // The key never went into an address.
    expect(h.requests.every((u) => !u.includes(h.key))).toBe(true);
  }, 60_000);

  it("a click on Hanoi with no layer ticked opens its profile: every risk, outbreak and the nearest port as the API gives them", async () => {
    expect(await page.$$eval("#layers input:checked", (els) => els.length)).toBe(0);
    const from = h.requests.length;
    const at = await clickPlace(HANOI);
    expect(Math.abs(at.lat - HANOI[1]) + Math.abs(at.lng - HANOI[0])).toBeLessThan(0.05);
    expect(h.requests.slice(from).filter((u) => u.includes("/api/risk-map/profile?"))).toEqual([`${h.base}/api/risk-map/profile?lat=${at.lat}&lng=${at.lng}`]);
    const p = await api(h, `/api/risk-map/profile?lat=${at.lat}&lng=${at.lng}`);
    // Hanoi: in the drought region (Vietnam), flood and storm answered, a port within 50 km.
    expect(p.risks.drought.riskLevel).toBeDefined();
    expect(p.risks.flood.riskLevel).toBeDefined();
    expect(p.nearestPort).not.toBeNull();
    await expectProfileShown(p);
    expect(await text("#panel-place")).toBe(p.outbreaks.dengue.country.name);
    // A part's request gives its full answer: the flood score endpoint's, with the same numbers.
    await page.click('button[data-api="risk-flood"]');
    expect(await page.getAttribute("#api-risk-flood a", "href")).toBe("/docs#operation/riskScore");
    expect(await text("#api-risk-flood code")).toBe(`curl -s -H "X-API-Key: $KEY" -H "Content-Type: application/json" -d '${JSON.stringify(p.risks.flood.request.body)}' "${h.base}/api/risk-map/score"`);
    await page.click("#api-risk-flood button.show");
    await expect.poll(async () => (await text("#api-risk-flood pre.answer"))?.startsWith("{"), { timeout: 10_000 }).toBe(true);
    const full = JSON.parse((await text("#api-risk-flood pre.answer"))!);
    expect([full.data.riskScore, full.data.riskLevel, full.data.details.confidence]).toEqual([p.risks.flood.riskScore, p.risks.flood.riskLevel, p.risks.flood.confidence]);
    await page.screenshot({ path: "test-output/map-profile-hanoi.png" });

    // Bangkok (brought to the middle, clear of the card): the drought grid answers there, and the panel shows the
    // new place only.
    await page.evaluate((c) => (window as unknown as MapHandle).droughtMap.jumpTo({ center: c, zoom: 6 }), BANGKOK);
    await waitForMapIdle(page);
    const bkk = await clickPlace(BANGKOK);
    const q = await api(h, `/api/risk-map/profile?lat=${bkk.lat}&lng=${bkk.lng}`);
    expect(q.risks.drought.riskLevel).toBeDefined();
    await expectProfileShown(q);
    expect(await page.$$eval(".selection-marker", (els) => els.length)).toBe(1);
  }, 90_000);

  it("the panel follows every change: the drought layer and month, the disease, a layer's feature; no old answer stays", async () => {
    const info = (await (await fetch(`${h.base}/tiles/index.json`)).json()).data;
    const at = { lat: await page.getAttribute("#profile", "data-lat"), lng: await page.getAttribute("#profile", "data-lng") };
    expect(await page.innerHTML("#detail")).toBe("");
    await page.check("#layer-drought");
    await page.waitForSelector(`#detail[data-state=ready][data-month="${info.defaultMonth}"]`, { timeout: 15_000 });
    const month = info.precomputedMonths.find((m: string) => m !== info.defaultMonth) ?? "2018-01";
    // The states the drought part goes through: cleared at once (loading), then the new month's answer.
    await page.evaluate(() => {
      const w = window as unknown as { states: string[] };
      w.states = [];
      const el = document.getElementById("detail")!;
      new MutationObserver(() => w.states.push(`${el.dataset.state}:${el.dataset.month ?? ""}`)).observe(el, { attributes: true, attributeFilter: ["data-state"] });
    });
    await page.fill("#month", month);
    await page.dispatchEvent("#month", "change");
    await page.waitForSelector(`#detail[data-state=ready][data-month="${month}"]`, { timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { states: string[] }).states)).toEqual(["loading:", `ready:${month}`]);
    const kind = await page.getAttribute("#detail", "data-kind");
    const answer = kind === "province"
      ? await api(h, `/api/risk-map/drought/province?name=${encodeURIComponent((await page.getAttribute("#detail", "data-province"))!)}&month=${month}`)
      : await api(h, `/api/risk-map/drought?lat=${at.lat}&lng=${at.lng}&month=${month}`);
    expect(await text('#detail td[data-field="month"]')).toBe(kind === "province" ? answer.month : answer.period.month);
    // The outbreak layer marks its disease among the profile's outbreaks, and follows the choice.
    await page.check("#layer-outbreak");
    await expect.poll(() => page.getAttribute('#profile tr[data-part="dengue"]', "class")).toBe("chosen");
    await page.selectOption("#outbreak-disease", "cholera");
    await expect.poll(() => page.getAttribute('#profile tr[data-part="cholera"]', "class")).toBe("chosen");
    expect(await page.getAttribute('#profile tr[data-part="dengue"]', "class")).toBe("");
    await page.uncheck("#layer-outbreak");
    expect(await page.$$eval("#profile tr.chosen", (els) => els.length)).toBe(0);
    await page.uncheck("#layer-drought");
    expect(await page.innerHTML("#detail")).toBe("");
    // A heatwave station clicked: its own figures over the profile; the layer turned off takes them away.
    await closePanel(page);
    await page.evaluate(() => (window as unknown as MapHandle).droughtMap.jumpTo({ center: [100.5, 14.5], zoom: 6 }));
    await page.check("#layer-heatwave");
    await expect.poll(() => page.getAttribute("body", "data-heatwave-events"), { timeout: 20_000 }).not.toBeNull();
    await waitForMapIdle(page);
    const stations = (await api(h, "/api/risk-map/stations?riskType=heatwave&bbox=97,5,106,21")).features as Json[];
    const station = stations.find((s) => s.id === "TH000048455") ?? stations[0]; // Bangkok Metropolis
    await clickPlace([station.geometry.coordinates[0], station.geometry.coordinates[1]]);
    await page.waitForSelector(`#feature[data-kind="heatwave-station"][data-station="${station.id}"]`);
    expect(await text('#feature td[data-field="heatwave days"]')).toBe(String(station.properties.heatwaveDays));
    expect(await page.getAttribute("#profile", "data-lat")).toBe(String(station.geometry.coordinates[1]));
    const p = await api(h, `/api/risk-map/profile?lat=${station.geometry.coordinates[1]}&lng=${station.geometry.coordinates[0]}`);
    // The station's latest full year (2017) is not current: the profile's heatwave part is its endpoint's 404, said in words.
    expect(p.risks.heatwave.error.code).toBe("NOT_FOUND");
    expect(await page.getAttribute('#profile tr[data-part="heatwave"]', "data-error")).toBe("NOT_FOUND");
    expect(await text('#profile tr[data-part="heatwave"] td[data-field="why"]')).toBe(p.risks.heatwave.error.message);
    await page.uncheck("#layer-heatwave");
    expect(await page.innerHTML("#feature")).toBe("");
    await closePanel(page);
  }, 90_000);

  it("layers do not hide each other: raster under a half-transparent fill, points on top, no colour in two legends", async () => {
    // Every legend colour belongs to one layer, and differs from every other layer's by at least 20 (RGB distance).
    const legends = await page.$$eval(".layer-legend", (els) => els.map((e) => ({ layer: e.getAttribute("data-layer")!, colours: [...e.querySelectorAll(".row")].map((r) => r.getAttribute("data-colour")!) })));
    expect(legends.map((l) => l.layer).sort()).toEqual(["drought", "flood", "heatwave", "outbreak", "ports", "sea_level", "storm", "wildfire"]);
    for (const a of legends) {
      expect(a.colours.length, a.layer).toBeGreaterThan(2);
      for (const b of legends) {
        if (a.layer >= b.layer) continue;
        for (const x of a.colours) for (const y of b.colours) expect(colourDistance(x, y), `${a.layer} ${x} / ${b.layer} ${y}`).toBeGreaterThanOrEqual(20);
      }
    }
    // The drought raster alone: a point inside a coloured grid cell, away from outlines (a uniform 9 × 9 px patch
    // whose colour is not the land's).
    await page.evaluate(() => (window as unknown as MapHandle).droughtMap.jumpTo({ center: [101, 15.5], zoom: 6 }));
    await page.check("#layer-drought");
    await waitForMapIdle(page);
    const shot = async (file: string) => {
      const png = await page.screenshot({ path: `test-output/${file}` });
      return sharp(png).raw().toBuffer({ resolveWithObject: true });
    };
    const hex = (img: { data: Buffer; info: { width: number; channels: number } }, x: number, y: number) => {
      const i = (y * img.info.width + x) * img.info.channels;
      return "#" + [0, 1, 2].map((k) => img.data[i + k].toString(16).padStart(2, "0")).join("");
    };
    const raster = await shot("map-layers-raster.png");
    const land = "#f4f3ee";
    let spot: { x: number; y: number; colour: string } | undefined;
    for (let y = 150; y < 650 && !spot; y += 12) {
      for (let x = 300; x < 800 && !spot; x += 12) {
        const c = hex(raster, x, y);
        if (colourDistance(c, land) < 40) continue;
        let uniform = true;
        for (let dy = -4; dy <= 4 && uniform; dy++) for (let dx = -4; dx <= 4 && uniform; dx++) uniform = hex(raster, x + dx, y + dy) === c;
        if (uniform) spot = { x, y, colour: c };
      }
    }
    expect(spot, "a drought-coloured cell in view").toBeDefined();
    // The outbreak fill on: the same pixel is the province's burden colour at half opacity over the raster's.
    await page.check("#layer-outbreak");
    await page.selectOption("#outbreak-disease", "dengue");
    await expect.poll(() => page.getAttribute("body", "data-outbreak-disease"), { timeout: 20_000 }).toBe("dengue");
    await waitForMapIdle(page);
    const at = await page.evaluate((pt) => (window as unknown as { droughtMap: { unproject(p: number[]): { lat: number; lng: number } } }).droughtMap.unproject([pt.x, pt.y]), spot!);
    const here = await api(h, "/api/outbreak-radar/query", { lat: Number(at.lat.toFixed(4)), lng: Number(at.lng.toFixed(4)), diseaseType: "dengue" });
    const status = await api(h, "/api/outbreak-radar/status?diseaseType=dengue");
    const level = status.provinces.find((p: Json) => p.code === here.province.code).riskLevel;
    const fill = (await page.getAttribute(`#legend-outbreak .row[data-key="${level}"]`, "data-colour"))!;
    const both = hex(await shot("map-layers-together.png"), spot!.x, spot!.y);
    expect(near(both, blend(spot!.colour, fill, 0.5), 8), `${both} = ${spot!.colour} under ${fill}`).toBe(true);
    expect(colourDistance(both, spot!.colour)).toBeGreaterThan(10);
    expect(colourDistance(both, fill)).toBeGreaterThan(10);
    // Points on top of both: a heatwave station's circle in its legend colour.
    await page.check("#layer-heatwave");
    await expect.poll(() => page.getAttribute("body", "data-heatwave-events"), { timeout: 20_000 }).not.toBeNull();
    await waitForMapIdle(page);
    const stations = (await api(h, "/api/risk-map/stations?riskType=heatwave&bbox=97,5,106,21")).features as Json[];
    // A station drawn topmost at its own centre, not under a province name (HTML labels lie over the canvas).
    const id = await page.evaluate((ids) => {
      const map = (window as unknown as MapHandle).droughtMap;
      for (const f of map.queryRenderedFeatures(undefined, { layers: ["heatwave-stations"] })) {
        const p = map.project(f.geometry.coordinates);
        const top = map.queryRenderedFeatures([[p.x - 1, p.y - 1], [p.x + 1, p.y + 1]], { layers: ["heatwave-stations"] })[0];
        if (ids.includes(f.properties.id as string) && top?.properties.id === f.properties.id && document.elementFromPoint(p.x, p.y)?.tagName === "CANVAS") return f.properties.id as string;
      }
      return null;
    }, stations.map((x) => x.id));
    expect(id).not.toBeNull();
    const s = stations.find((x) => x.id === id)!;
    const steps = await page.$$eval("#legend-heatwave .row", (rows) => rows.map((r) => r.getAttribute("data-colour")!));
    const days = s.properties.heatwaveDays;
    const expected = steps[days < 10 ? 0 : days < 20 ? 1 : days < 40 ? 2 : 3];
    const seen = await pixelAt(page, s.geometry.coordinates, "map-layers-points.png");
    expect(near(seen, expected), `${s.id} (${days} days): ${seen}, not ${expected}`).toBe(true);
    await page.uncheck("#layer-heatwave");
    await page.uncheck("#layer-outbreak");
  }, 90_000);

  it("the view is in the address: a link in a new tab, a reload, back and forward restore it", async () => {
    const info = (await (await fetch(`${h.base}/tiles/index.json`)).json()).data;
    const month = info.precomputedMonths.find((m: string) => m !== info.defaultMonth) ?? "2018-01";
    await page.evaluate(() => (window as unknown as MapHandle).droughtMap.jumpTo({ center: [100.6, 13.9], zoom: 7 }));
    for (const l of ["flood", "wildfire", "outbreak"]) await page.check(`#layer-${l}`);
    await page.selectOption("#outbreak-disease", "malaria");
    await page.fill("#month", month);
    await page.dispatchEvent("#month", "change");
    await page.selectOption("#index", "spei3");
    await closePanel(page);
    const at = await clickPlace([100.9, 14.2]);
    const url = page.url();
    expect(new URL(url).hash).toBe(`#map=7.00/13.9000/100.6000&index=spei3&month=${month}&layers=drought,outbreak,flood,wildfire&disease=malaria&at=${at.lat},${at.lng}`);

    /** The page shows the view of `url`. */
    const expectView = async (p: Page) => {
      await p.waitForSelector("#profile[data-state=ready]", { timeout: 30_000 });
      const view = await p.evaluate(() => {
        const map = (window as unknown as MapHandle).droughtMap;
        return { c: map.getCenter(), z: map.getZoom() };
      });
      expect(view.z).toBeCloseTo(7, 5);
      expect(view.c.lat).toBeCloseTo(13.9, 4);
      expect(view.c.lng).toBeCloseTo(100.6, 4);
      expect(await p.$$eval("#layers input:checked", (els) => els.map((e) => e.id))).toEqual(["layer-drought", "layer-outbreak", "layer-flood", "layer-wildfire"]);
      expect(await p.inputValue("#month")).toBe(month);
      expect(await p.inputValue("#index")).toBe("spei3");
      expect(await p.inputValue("#outbreak-disease")).toBe("malaria");
      expect([await p.getAttribute("#profile", "data-lat"), await p.getAttribute("#profile", "data-lng")]).toEqual([String(at.lat), String(at.lng)]);
      await p.waitForSelector(`#detail[data-state=ready][data-month="${month}"][data-index="spei3"]`, { timeout: 15_000 });
      await expect.poll(() => p.getAttribute("body", "data-flood-events"), { timeout: 20_000 }).not.toBeNull();
      expect(await p.evaluate(() => (window as unknown as { droughtMap: { getLayoutProperty(l: string, p: string): string } }).droughtMap.getLayoutProperty("wildfire-events", "visibility"))).toBe("visible");
    };

    // A new tab (no key in its sessionStorage): the link asks for the key, then shows the view.
    const other = await h.context.newPage();
    await other.goto(url);
    await expect.poll(() => other.textContent("#status")).toBe("Enter an API key to load the map.");
    await enterKey(other, h.key);
    await expectView(other);
    expect(other.url()).toBe(url);
    await other.close();

    await page.reload();
    await page.waitForSelector("body[data-ready=map]", { timeout: 30_000 });
    await expectView(page);

    // A layer turned off is a step in the history: back brings it back, forward takes it away again.
    await page.uncheck("#layer-flood");
    expect(page.url()).not.toContain("flood");
    await page.goBack();
    await expect.poll(() => page.isChecked("#layer-flood")).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { droughtMap: { getLayoutProperty(l: string, p: string): string } }).droughtMap.getLayoutProperty("flood-events", "visibility"))).toBe("visible");
    expect(page.url()).toBe(url);
    await page.goForward();
    await expect.poll(() => page.isChecked("#layer-flood")).toBe(false);
    // So is the month, and the panel follows it back.
    await page.fill("#month", info.defaultMonth);
    await page.dispatchEvent("#month", "change");
    await page.waitForSelector(`#detail[data-state=ready][data-month="${info.defaultMonth}"]`, { timeout: 15_000 });
    await page.goBack();
    await expect.poll(() => page.inputValue("#month")).toBe(month);
    await page.waitForSelector(`#detail[data-state=ready][data-month="${month}"]`, { timeout: 15_000 });
    // Back past the click: the panel closes.
    while (new URL(page.url()).hash.includes("&at=")) await page.goBack();
    await expect.poll(() => page.isVisible("#panel")).toBe(false);
    for (const l of ["flood", "wildfire", "outbreak"]) await page.uncheck(`#layer-${l}`);
  }, 120_000);

  it("on a 390 × 844 phone the map has most of the screen; the controls and the profile are reachable", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.waitForSelector("body[data-ready=map]", { timeout: 30_000 });
    await waitForMapIdle(page);
    const screen = 390 * 844;
    const box = async (s: string) => (await page.locator(s).boundingBox())!;
    const map = await box("#map");
    expect((map.width * map.height) / screen).toBeGreaterThan(0.6);
    // The canvas follows its container; the folded attribution covers under 1 % of the map.
    await expect.poll(async () => Math.round((await box("#map canvas")).width), { timeout: 10_000 }).toBe(390);
    const attribution = await box(".maplibregl-ctrl-attrib");
    expect((attribution.width * attribution.height) / (map.width * map.height)).toBeLessThan(0.01);
    // The controls: a bar below the map, a drawer once tapped, every layer box in reach.
    const bar = await box("#controls");
    expect(bar.y).toBeGreaterThanOrEqual(map.y + map.height - 1);
    expect(bar.y + bar.height).toBeLessThanOrEqual(845);
    expect(await page.isVisible("#layer-flood")).toBe(false);
    await page.click("#drawer-toggle");
    const drawer = await box("#controls");
    expect(drawer.y + drawer.height).toBeLessThanOrEqual(845);
    expect(drawer.height).toBeLessThan(844 * 0.75);
    await page.locator("#layer-ports").scrollIntoViewIfNeeded();
    const ports = await box("#layer-ports");
    expect(ports.y).toBeGreaterThanOrEqual(drawer.y);
    expect(ports.y + ports.height).toBeLessThanOrEqual(844);
    await page.check("#layer-ports");
    expect(await page.isVisible("#legend-ports")).toBe(true);
    // The strip of map above the open drawer stays drawn (it was blank while the drawer itself scrolled).
    await waitForMapIdle(page);
    const strip = [];
    for (const x of [40, 165, 350]) strip.push(colourDistance(await pixelAtPoint(page, { x, y: 120 }, "map-390px-drawer.png"), "#dfe9f3"));
    expect(Math.max(...strip)).toBeGreaterThan(20);
    await page.click("#drawer-toggle");
    // A tap on the map: the profile as a sheet above the bar, within the screen.
    await waitForMapIdle(page);
    await page.mouse.click(195, 250);
    await page.waitForSelector("#profile[data-state=ready]", { timeout: 20_000 });
    const panel = await box("#panel");
    expect(panel.y).toBeGreaterThanOrEqual(0);
    expect(panel.y + panel.height).toBeLessThanOrEqual((await box("#controls")).y + 1);
    expect(await page.isVisible('#profile tr[data-part="flood"]')).toBe(true);
    // The map stays drawn above the sheet: inland Thailand around the tapped place shows land or drought raster, not
    // only the sea-blue of the empty map (a 1° cell near normal is a pale grey close to it: the most distinct of three
    // points, the tapped place's west and the strip's two sides, decides).
    const distances = [];
    for (const x of [40, 165, 350]) distances.push(colourDistance(await pixelAtPoint(page, { x, y: x === 165 ? 250 : 150 }, "map-390px.png"), "#dfe9f3"));
    expect(Math.max(...distances)).toBeGreaterThan(20);
    await page.click("#panel-close");
    expect(await page.isVisible("#panel")).toBe(false);
    await page.setViewportSize({ width: 1200, height: 800 });
  }, 90_000);
});
