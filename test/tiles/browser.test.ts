// The map page in headless Chromium against the real server over the real artifacts (test/tiles/map-harness.ts):
// waits for drought raster tiles, switches index and month, clicks a province and checks that the panel shows that
// province's values from the API; the event, port and outbreak layers with their legends, pixels and click-throughs.
// Screenshots in test-output/. The profile, layers seen together, the address and the phone layout:
// test/tiles/map-anywhere.test.ts.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, closePanel, enterKey, near, pixelAt, project, startMapHarness, waitForMapIdle, blend, type MapHandle, type MapHarness } from "./map-harness.ts";

let h: MapHarness;

beforeAll(async () => {
  h = await startMapHarness(inject("artifactsDir"), ["flood", "storm", "ports", "outbreaks"]);
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

/** The colour the page's legend gives a key of a layer (server/public/map.js draws with the same constants). */
const legendColour = (layer: string, key: string) => h.page.getAttribute(`#legend-${layer} .row[data-key="${key}"]`, "data-colour") as Promise<string>;
const LAND = "#f4f3ee";
const OUTBREAK_OPACITY = 0.5;
const congestionKey = (i: number | null) => (i === null ? null : i < 25 ? 3 : i < 75 ? 2 : i < 90 ? 1 : 0);

describe("map page in Chromium", () => {
  it("asks for the key, loads drought tiles, switches index and month, and shows a clicked province's API values", async () => {
    const { page } = h;
    await page.goto(h.base + "/");
    await expect.poll(() => page.textContent("#status")).toBe("Enter an API key to load the map.");
    await enterKey(page, h.key);
    const info = (await (await fetch(`${h.base}/tiles/index.json`)).json()).data;
    await expect.poll(() => h.tileResponses.some((u) => u.includes(`/drought-spei1-${info.defaultMonth}/`) && u.endsWith(".png")), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => h.tileResponses.some((u) => u.includes("/provinces/") && u.endsWith(".mvt")), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => h.tileResponses.some((u) => u.includes("/countries/") && u.endsWith(".mvt")), { timeout: 30_000 }).toBe(true);
    // The key travels in a header only.
    expect(h.requests.every((u) => !u.includes(h.key))).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem("climateRiskApiKey"))).toBe(h.key);

    await page.selectOption("#index", "spei3");
    await waitForMapIdle(page);
    await expect.poll(() => h.tileResponses.some((u) => u.includes(`/drought-spei3-${info.defaultMonth}/`)), { timeout: 30_000 }).toBe(true);
    const earlier = info.precomputedMonths[0] === info.defaultMonth ? "2018-01" : info.precomputedMonths[0];
    await page.fill("#month", earlier);
    await page.dispatchEvent("#month", "change");
    await waitForMapIdle(page);
    await expect.poll(() => h.tileResponses.some((u) => u.includes(`/drought-spei3-${earlier}/`)), { timeout: 30_000 }).toBe(true);
    await page.fill("#month", info.defaultMonth);
    await page.dispatchEvent("#month", "change");
    await waitForMapIdle(page);

    // Chiang Mai: a point well inside the province, projected to the screen by the map itself.
    const point = await project(page, [98.75, 18.9]);
    await page.mouse.click(point.x, point.y);
    await page.waitForSelector('#detail[data-province="Chiang Mai"][data-state="ready"]', { timeout: 15_000 });
    const api1 = await api(h, `/api/risk-map/drought/province?name=Chiang%20Mai&month=${info.defaultMonth}`);
    const fmt = (v: number | null, d = 2) => (v === null ? "–" : v.toFixed(d));
    expect(await page.textContent("#detail h3")).toBe(`Drought in ${api1.province} province, ${api1.month}`);
    expect(await page.textContent('#detail td[data-field="month"]')).toBe(api1.month);
    expect(await page.textContent('#detail td[data-field="score"]')).toBe(fmt(api1.score, 1));
    expect(await page.textContent('#detail td[data-field="level"]')).toBe(api1.level);
    expect(await page.textContent('#detail td[data-field="spei1"]')).toBe(fmt(api1.indices.spei1));
    expect(await page.textContent('#detail td[data-field="spei3"]')).toBe(fmt(api1.indices.spei3));
    expect(await page.textContent('#detail td[data-field="spei6"]')).toBe(fmt(api1.indices.spei6));
    await page.screenshot({ path: "test-output/tiles-map.png" });
  }, 90_000);

  it("the panel follows the index and the month of the selection", async () => {
    const { page } = h;
    const info = (await (await fetch(`${h.base}/tiles/index.json`)).json()).data;
    await page.selectOption("#index", "spei6");
    await page.waitForSelector('#detail[data-province="Chiang Mai"][data-index="spei6"][data-state="ready"]', { timeout: 15_000 });
    const month = info.precomputedMonths.find((m: string) => m !== info.defaultMonth) ?? "2018-01";
    await page.fill("#month", month);
    await page.dispatchEvent("#month", "change");
    await page.waitForSelector(`#detail[data-province="Chiang Mai"][data-month="${month}"][data-state="ready"]`, { timeout: 15_000 });
    const answer = await api(h, `/api/risk-map/drought/province?name=Chiang%20Mai&month=${month}`);
    expect(await page.textContent('#detail td[data-field="month"]')).toBe(answer.month);
    const v = answer.indices.spei6;
    expect(await page.textContent('#detail td[data-field="selected: spei6"]')).toBe(v === null ? "–" : v.toFixed(2));
  }, 60_000);

  it("names the provinces on the map from zoom 6", async () => {
    const { page } = h;
    await closePanel(page);
    await expect.poll(() => page.$$eval(".province-label", (els) => els.length), { timeout: 15_000 }).toBe(157);
    await page.evaluate(() => (window as unknown as MapHandle).droughtMap.jumpTo({ center: [99.5, 16.5], zoom: 5 }));
    expect(await page.$eval(".province-label", (el) => getComputedStyle(el).display)).toBe("none");
    await page.evaluate(() => (window as unknown as MapHandle).droughtMap.zoomTo(6.5, { duration: 0 }));
    await expect.poll(() => page.$$eval(".province-label", (els) => els.filter((e) => getComputedStyle(e).display !== "none").map((e) => e.textContent)), { timeout: 10_000 }).toContain("Chiang Mai");
    // Vietnam's and Malaysia's provinces are named too.
    await page.evaluate(() => (window as unknown as MapHandle).droughtMap.jumpTo({ center: [105.8, 21.0], zoom: 6.5 }));
    await expect.poll(() => page.$$eval(".province-label", (els) => els.filter((e) => getComputedStyle(e).display !== "none").map((e) => e.textContent)), { timeout: 10_000 }).toContain("Hà Nội");
    await page.screenshot({ path: "test-output/map-labels.png" });
  }, 60_000);

  it("a wrong key is said in words and asked again; no raw AJAXError", async () => {
    const { page } = h;
    await page.evaluate(() => sessionStorage.setItem("climateRiskApiKey", "crk_wrong_key_for_the_test_0000000000"));
    await page.reload();
    await expect.poll(() => page.textContent("#status"), { timeout: 20_000 }).toBe("The API key was not accepted. Check it and enter it again.");
    expect(await page.getAttribute("body", "data-key")).toBe("rejected");
    expect(await page.evaluate(() => sessionStorage.getItem("climateRiskApiKey"))).toBeNull();
    expect(await page.isVisible("#key-form")).toBe(true);
    expect(await page.textContent("body")).not.toContain("AJAXError");
    // The right key then loads the map and clears the message.
    await enterKey(page, h.key);
    expect(await page.getAttribute("body", "data-key")).toBe("accepted");
    expect(await page.textContent("#status")).toBe("");
  }, 60_000);

  it("flood events and storm tracks as layers with legends; a click shows the event, and the profile there the API's flood score", async () => {
    const { page } = h;
    await closePanel(page);
    await page.evaluate(() => (window as unknown as MapHandle).droughtMap.jumpTo({ center: [100.5, 13.5], zoom: 5 }));
    await page.check("#layer-flood");
    await page.check("#layer-storm");
    // The legends show as soon as their boxes are ticked (before the events arrive).
    expect(await page.isVisible("#legend-flood")).toBe(true);
    expect(await page.isVisible("#legend-storm")).toBe(true);
    await expect.poll(() => page.getAttribute("body", "data-flood-events"), { timeout: 20_000 }).not.toBeNull();
    await expect.poll(() => page.getAttribute("body", "data-storm-events"), { timeout: 20_000 }).not.toBeNull();
    await waitForMapIdle(page);
    const rendered = await page.evaluate(() => {
      const map = (window as unknown as MapHandle).droughtMap;
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
      return { floods: floods.length, storms: storms.length, point: f ? map.project(f.geometry.coordinates) : null, id: f?.properties.id, coords: f?.geometry.coordinates, magnitude: f?.properties.magnitude, source: f?.properties.source };
    });
    expect(rendered.floods).toBeGreaterThan(10);
    expect(rendered.storms).toBeGreaterThan(10);
    // The legend says how much of the view's events it draws: the page's own request, asked again.
    for (const layer of ["flood", "storm"]) {
      const asked = h.requests.filter((u) => u.includes(`/api/risk-map/events?riskType=${layer}&`)).at(-1)!;
      const fc = await api(h, asked.slice(h.base.length));
      const order = layer === "flood" ? "the newest" : "the latest";
      const note = fc.truncated ? `Showing ${fc.features.length} of ${fc.numberMatched} in view (${order}); zoom in for the rest.` : `${fc.features.length} in view.`;
      expect(await page.textContent(`#legend-${layer} .count`)).toBe(note);
    }
    await page.screenshot({ path: "test-output/map-events.png" });
    // The pixels: the GDACS circle has its alert's legend colour (drawn above the storm tracks).
    const m = (rendered.magnitude as number | null) ?? 1;
    const alert = rendered.source === "DFO" ? "DFO" : m >= 3 ? "red" : m >= 2 ? "orange" : "green";
    expect(near(await pixelAt(page, rendered.coords as [number, number], "map-events.png"), await legendColour("flood", alert))).toBe(true);
    await page.mouse.click(rendered.point!.x, rendered.point!.y);
    await page.waitForSelector(`#feature[data-kind="flood-event"][data-event="${rendered.id}"]`, { timeout: 15_000 });
    await page.waitForSelector("#profile[data-state=ready]", { timeout: 15_000 });
    // The profile is at the event's own position (the API's, not the map's tile-rounded copy); its flood part is the
    // score endpoint's answer there.
    const [x, y] = rendered.coords as number[];
    const near01 = `${(x - 0.01).toFixed(3)},${(y - 0.01).toFixed(3)},${(x + 0.01).toFixed(3)},${(y + 0.01).toFixed(3)}`;
    const event = (await api(h, `/api/risk-map/events?riskType=flood&limit=2000&bbox=${near01}`)).features.find((f: { id: string }) => f.id === rendered.id);
    const [lng, lat] = event.geometry.coordinates.map((v: number) => Number(v.toFixed(4)));
    expect([await page.getAttribute("#profile", "data-lat"), await page.getAttribute("#profile", "data-lng")]).toEqual([String(lat), String(lng)]);
    const score = await api(h, "/api/risk-map/score", { lat, lng, riskType: "flood" });
    const row = '#profile tr[data-part="flood"]';
    expect(await page.textContent(`${row} td[data-field="score"]`)).toBe(score.riskScore.toFixed(1));
    expect(await page.textContent(`${row} td[data-field="level"]`)).toBe(score.riskLevel);
    expect(await page.textContent(`${row} td[data-field="confidence"]`)).toBe(`${score.details.confidence.toFixed(2)} (${score.details.confidenceLabel})`);
    // The layer turned off: the panel forgets the event it no longer shows.
    await page.uncheck("#layer-flood");
    await expect.poll(() => page.innerHTML("#feature")).toBe("");
    await page.uncheck("#layer-storm");
  }, 90_000);

  it("ports coloured by congestion, with a legend; a click shows the port and the profile its congestion answer", async () => {
    const { page } = h;
    await closePanel(page);
    // Laem Chabang at zoom 9 (its neighbours some 30 px away).
    await page.evaluate(() => (window as unknown as MapHandle).droughtMap.jumpTo({ center: [100.9, 13.08], zoom: 9 }));
    await page.check("#layer-ports");
    expect(await page.isVisible("#legend-ports")).toBe(true);
    await expect.poll(() => page.getAttribute("body", "data-ports-events"), { timeout: 20_000 }).not.toBeNull();
    await waitForMapIdle(page);
    const ports = (await api(h, "/api/supply-chain/ports?bbox=100,12,102,14&limit=2000")).features as { id: string; geometry: { coordinates: [number, number] }; properties: { congestionIndex: number | null } }[];
    const lch = ports.find((f) => f.id === "THLCH")!;
    const rendered = await page.evaluate(() => (window as unknown as MapHandle).droughtMap.queryRenderedFeatures({ layers: ["ports"] }).map((f) => f.properties.code));
    // From zoom 6 Thailand's name gives way to its provinces'.
    await expect.poll(() => page.$$eval(".country-label", (els) => els.map((e) => e.textContent)), { timeout: 10_000 }).not.toContain("Thailand");
    expect(rendered).toContain("THLCH");
    expect(rendered.length).toBeGreaterThan(3);
    // The pixels: Laem Chabang's circle has the legend colour of its index (69.4: usual), a port without daily calls
    // the "no index" one.
    const portColours = await page.$$eval("#legend-ports .row", (rows) => rows.map((r) => r.getAttribute("data-colour")!));
    expect(near(await pixelAt(page, lch.geometry.coordinates, "map-ports.png"), portColours[congestionKey(lch.properties.congestionIndex)!])).toBe(true);
    const grey = ports.find((f) => f.properties.congestionIndex === null && rendered.includes(f.id))!;
    expect(near(await pixelAt(page, grey.geometry.coordinates, "map-ports.png"), await legendColour("ports", "none")), grey.id).toBe(true);
    const pt = await project(page, lch.geometry.coordinates);
    await page.mouse.click(pt.x, pt.y);
    await page.waitForSelector('#feature[data-kind="port"][data-port="THLCH"]', { timeout: 15_000 });
    await page.waitForSelector('#profile[data-state=ready] table[data-part="port"][data-port="THLCH"]', { timeout: 15_000 });
    const answer = await api(h, "/api/supply-chain/query", { portCode: "THLCH", queryType: "congestion" });
    expect(await page.textContent('#feature td[data-field="congestion index"]')).toBe(String(lch.properties.congestionIndex));
    expect(await page.textContent('#profile td[data-field="port"]')).toBe(`${answer.port.name} (THLCH)`);
    expect(await page.textContent('#profile td[data-field="congestion index"]')).toBe(String(answer.congestionIndex));
    expect(await page.textContent('#profile td[data-field="disruption risk"]')).toBe(answer.disruptionRisk);
    await page.uncheck("#layer-ports");
  }, 90_000);

  it("outbreak burden level by country and Thai province, per disease, half transparent, with a legend; a click's profile marks the disease", async () => {
    const { page } = h;
    await closePanel(page);
    // Zoom 5.5: Thailand and its neighbours, below the zoom of the province labels; the drought layer off, so the
    // fill lies over the land colour.
    await page.evaluate(() => (window as unknown as MapHandle).droughtMap.jumpTo({ center: [102, 13.5], zoom: 5.5 }));
    await page.uncheck("#layer-drought");
    await page.check("#layer-outbreak");
    expect(await page.isVisible("#legend-outbreak")).toBe(true);
    await expect.poll(() => page.getAttribute("body", "data-outbreak-disease"), { timeout: 20_000 }).toBe("dengue");
    await waitForMapIdle(page);
    const dengue = await api(h, "/api/outbreak-radar/status?diseaseType=dengue");
    expect(await page.getAttribute("body", "data-outbreak-areas")).toBe(String(dengue.countries.length + dengue.provinces.length));
    // Nakhon Ratchasima (TH-30) in its province's burden colour at half opacity over the land; Cambodia in its
    // country's (or the land's without data).
    // (An area with outbreak news only has no fill: a dashed outline along its border.)
    const fill = async (a: { riskLevel: string; outbreakStatus: string } | undefined) =>
      a && a.outbreakStatus !== "news_only" ? blend(LAND, await legendColour("outbreak", a.riskLevel), OUTBREAK_OPACITY) : LAND;
    const korat = dengue.provinces.find((p: { code: string }) => p.code === "TH-30");
    expect(near(await pixelAt(page, [102.1, 15.0], "map-outbreak.png"), await fill(korat))).toBe(true);
    const khm = dengue.countries.find((c: { code: string }) => c.code === "KHM");
    expect(near(await pixelAt(page, [104.0, 13.8], "map-outbreak.png"), await fill(khm))).toBe(true);
    // Place names: the countries in view (from the countries tiles), Thailand's too below zoom 6.
    await expect.poll(() => page.$$eval(".country-label", (els) => els.map((e) => e.textContent)), { timeout: 10_000 }).toEqual(expect.arrayContaining(["Cambodia", "Laos", "Myanmar", "Vietnam", "Thailand"]));
    const pt = await project(page, [102.1, 15.0]);
    await page.mouse.click(pt.x, pt.y);
    await page.waitForSelector("#profile[data-state=ready]", { timeout: 15_000 });
    const lat = Number(await page.getAttribute("#profile", "data-lat"));
    const lng = Number(await page.getAttribute("#profile", "data-lng"));
    const answer = await api(h, "/api/outbreak-radar/query", { lat, lng, diseaseType: "dengue" });
    expect(answer.province.code).toBe("TH-30");
    expect(await page.textContent("#panel-place")).toBe(`${answer.province.name}, ${answer.country.name}`);
    const row = '#profile tr[data-part="dengue"]';
    expect(await page.getAttribute(row, "class")).toBe("chosen");
    expect(await page.textContent(`${row} th`)).toBe(`Dengue: ${answer.outbreakStatus}`);
    expect(await page.textContent(`${row} td[data-field="score"]`)).toBe(answer.riskScore.toFixed(1));
    // Malaria: no province series, so Thailand takes its national colour; the profile marks malaria.
    await page.selectOption("#outbreak-disease", "malaria");
    await expect.poll(() => page.getAttribute("body", "data-outbreak-disease"), { timeout: 20_000 }).toBe("malaria");
    await expect.poll(() => page.getAttribute('#profile tr[data-part="malaria"]', "class")).toBe("chosen");
    await closePanel(page);
    await waitForMapIdle(page);
    const malaria = await api(h, "/api/outbreak-radar/status?diseaseType=malaria");
    expect(malaria.provinces).toEqual([]);
    const tha = malaria.countries.find((c: { code: string }) => c.code === "THA");
    expect(tha).toBeDefined();
    expect(near(await pixelAt(page, [102.1, 15.0], "map-outbreak-malaria.png"), await fill(tha))).toBe(true);
    await page.uncheck("#layer-outbreak");
    await page.check("#layer-drought");
  }, 90_000);
});
