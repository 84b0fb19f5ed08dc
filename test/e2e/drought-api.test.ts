// The drought API end to end: the real server process over the real published artifacts. Expected values are
// read independently from the artifact files with the format readers, so the test checks the data actually
// served, not a copy of the service's own arithmetic.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDroughtGrid, type DroughtGrid } from "../../formats/drought-grid.ts";
import { ProvinceSummariesReader } from "../../formats/province-summaries.ts";
import { readProvincesJson } from "../../formats/province-index.ts";
import { readManifest } from "../../formats/manifest.ts";
import { confidenceLabel, droughtLevel, droughtScore, riskLevel } from "../../lib/drought-scale.ts";
import { CONFIDENCE_FILE, ConfidenceGrid } from "../../formats/confidence-grid.ts";
import { formatMonth, parseMonth } from "../../lib/months.ts";
import { privateArtifacts, startRealServer, type RealServer } from "./real-server.ts";
import { bruteNearestCell } from "./brute-nearest.ts";
import { UNKNOWN_FRESHNESS } from "../../server/services/source-status-service.ts";
import { ANSWER_INDICES, DEFAULT_RULES, GRID_DEFAULT_MONTH_RULE } from "../../lib/drought/cell-latest.ts";
import { expectTimeToday, timeOn, todayUtc } from "./answer-time.ts";

let server: RealServer;
let grid: DroughtGrid;
let latest: string;
let version: string;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

const bruteNearest = (lat: number, lng: number) => bruteNearestCell(grid, lat, lng);

/** The latest month with SPEI-1 at a cell, by a plain scan of its record (the default month of a point before). */
function cellLatestSpei1(c: number): string {
  for (let m = grid.nMonths - 1; m >= 0; m--) if (!Number.isNaN(grid.value(c, m, grid.indexNo("spei1")))) return formatMonth(grid.firstMonth + m);
  throw new Error(`cell ${c} has no SPEI-1`);
}

/** Whether cell c has all six answer indices in month offset m. */
const complete = (c: number, m: number) => ANSWER_INDICES.every((k) => !Number.isNaN(grid.value(c, m, grid.indexNo(k))));

/**
 * The default month of a cell and the rule that chose it, by plain scans of its record (docs/methods/currency.md):
 * the grid's latest valid month where the cell has all six answer indices then, else its latest month with all six,
 * else its latest month with SPEI-1.
 */
function cellDefault(c: number): { month: string; monthReason: string } {
  if (complete(c, grid.monthOffset(parseMonth(latest)!))) return { month: latest, monthReason: DEFAULT_RULES[0] };
  for (let m = grid.nMonths - 1; m >= 0; m--) if (complete(c, m)) return { month: formatMonth(grid.firstMonth + m), monthReason: DEFAULT_RULES[1] };
  return { month: cellLatestSpei1(c), monthReason: DEFAULT_RULES[2] };
}
const cellMonth = (c: number) => cellDefault(c).month;

/** The first and last day of the grid's latest valid month (October 2018 on the mirror). */
const LATEST_DAYS = ["2018-10-01", "2018-10-31"] as const;

/** The onset of the run of SPEI-3 below -1 that month `off` of cell c is in (docs/methods/drought-events.md), or null. */
function runOnset(c: number, off: number): string | null {
  const k = grid.indexNo("spei3");
  if (!(grid.value(c, off, k) < -1)) return null;
  let m = off;
  while (m > 0 && grid.value(c, m - 1, k) < -1) m--;
  return formatMonth(grid.firstMonth + m);
}

const get = (path: string) => fetch(server.base + path, { headers: { "x-api-key": server.key } });
const post = (path: string, body: unknown) =>
  fetch(server.base + path, { method: "POST", headers: { "x-api-key": server.key, "content-type": "application/json" }, body: JSON.stringify(body) });

beforeAll(async () => {
  // The station grid of Thailand (GRID_SOURCE=stations): its cells, confidence and default-month cases; the regional
  // default grid is served in test/e2e/drought-region.test.ts.
  const art = privateArtifacts(inject("stationArtifactsDir"));
  version = art.version;
  const dir = join(art.dir, "current");
  grid = openDroughtGrid(new Uint8Array(readFileSync(join(dir, "drought-grid.bin"))));
  latest = readManifest(dir).latestValidMonth!;
  server = await startRealServer(art.dir);
}, 60_000);

afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe("GET /api/risk-map/drought", () => {
  it("answers Chiang Mai with the nearest cell's values of the grid's latest valid month, though the cell's SPEI-1 goes on later; all six indices numbers; its days, not current today", async () => {
    const before = todayUtc();
    const res = await get("/api/risk-map/drought?lat=18.79&lng=98.98");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-data-version")).toBe(version);
    const body = await res.json();
    const c = bruteNearest(18.79, 98.98);
    // The station record at Chiang Mai's cell goes on after the grid's latest valid month (SPEI-1 to 2019-06, against
    // 2018-10), but the cell has every index in 2018-10: the answer is the grid's month, not the cell's latest.
    expect(latest).toBe("2018-10");
    expect(cellLatestSpei1(c)).toBe("2019-06");
    expect(cellDefault(c)).toEqual({ month: latest, monthReason: GRID_DEFAULT_MONTH_RULE });
    const month = latest;
    const off = grid.monthOffset(parseMonth(month)!);
    const rec = grid.record(c, off);
    const spei1 = rec[grid.indexNo("spei1")];
    expect(body.success).toBe(true);
    expect(body.data.location).toMatchObject({
      requestedLat: 18.79,
      requestedLng: 98.98,
      gridLat: grid.cellLat(c),
      gridLng: grid.cellLng(c),
      country: "THA",
    });
    expect(body.data.location.gridId).toBe(`TH025-${grid.cellId(c)}`);
    expect(body.data.period).toEqual({ month, monthReason: GRID_DEFAULT_MONTH_RULE, climatologyBaseline: "1961-1990" });
    // All six indices, each the cell's value that month and a number (SPEI-12 was null in the cell's 2019-06).
    expect(body.data.drought.indices).toEqual(Object.fromEntries(ANSWER_INDICES.map((k) => [k, r3(rec[grid.indexNo(k)])])));
    for (const k of ANSWER_INDICES) expect(typeof body.data.drought.indices[k], k).toBe("number");
    expect(Number.isNaN(grid.value(c, grid.monthOffset(parseMonth("2019-06")!), grid.indexNo("spei12")))).toBe(true);
    // October 2018 as days, its last day the newest datum; years before today, so not current.
    expectTimeToday(body.data.details, ...LATEST_DAYS, before);
    expect(body.data.details.currency).toMatchObject({ current: false, cadence: "monthly", horizonDays: 92 });
    expect(body.data.details.currency.note).toMatch(/^not current: the data end 2018-10-31, \d+ days before \d{4}-\d\d-\d\d \(a monthly series is current for 92 days\)$/);
    expect(body.data.drought.score).toBe(droughtScore(spei1));
    expect(body.data.drought.level).toBe(riskLevel(droughtScore(spei1)));
    expect(body.data.drought.severity).toEqual({ spei1: droughtLevel(spei1) });
  });

  it("answers a named month from the record", async () => {
    const body = await (await get("/api/risk-map/drought?lat=15.0&lng=102.0&month=1997-09")).json();
    const c = bruteNearest(15.0, 102.0);
    expect(body.data.period).toMatchObject({ month: "1997-09", monthReason: "requested" });
    expect(body.data.details.period).toEqual({ from: "1997-09-01", to: "1997-09-30" });
    expect(body.data.details.asOf).toBe("1997-09-30");
    expect(body.data.drought.indices.spei1).toBe(r3(grid.value(c, grid.monthOffset(parseMonth("1997-09")!), 0)));
  });

  it("404s months outside the data, the sea and other countries", async () => {
    for (const q of ["lat=13.75&lng=100.5&month=2031-01", "lat=12.0&lng=101.0", "lat=17.97&lng=102.6", "lat=48.85&lng=2.35"]) {
      const res = await get(`/api/risk-map/drought?${q}`);
      expect(res.status, q).toBe(404);
      const body = await res.json();
      expect(body.success).toBe(false);
      expect(body.error.code).toBe("NOT_FOUND");
    }
  });

  it("400s invalid coordinates and months, 401s without a key", async () => {
    expect((await get("/api/risk-map/drought?lat=91&lng=100")).status).toBe(400);
    expect((await get("/api/risk-map/drought?lat=13&lng=100&month=2019-13")).status).toBe(400);
    const res = await fetch(server.base + "/api/risk-map/drought?lat=13&lng=100");
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("INVALID_API_KEY");
  });
});

describe("GET /api/risk-map/drought/province", () => {
  it("resolves spellings, Thai names and ISO codes to the same province summary, of the grid's month with its days", async () => {
    const dir = join(server.artifactsDir, "current");
    const provinces = readProvincesJson(readFileSync(join(dir, "provinces.json"), "utf8"));
    const s = new ProvinceSummariesReader(new Uint8Array(readFileSync(join(dir, "province-summaries.bin"))));
    const p = provinces.findIndex((x) => x.code === "TH-31");
    const rec = s.record(p, s.monthOffset(parseMonth(latest)!));
    const conf = new ConfidenceGrid(new Uint8Array(readFileSync(join(dir, CONFIDENCE_FILE))));
    const expected = {
      province: "Buri Ram",
      code: "TH-31",
      country: "THA",
      month: latest,
      score: droughtScore(rec[0]),
      level: riskLevel(droughtScore(rec[0])),
      indices: { spei1: r3(rec[0]), spei3: r3(rec[1]), spei6: r3(rec[2]) },
      severity: { spei1: droughtLevel(rec[0]) },
      // The province's confidence: the mean of its cells' (confidence.bin), to 2 decimals.
      confidence: Math.round(conf.province(p, parseMonth(latest)! - conf.firstMonth)! * 100) / 100,
      confidenceLabel: confidenceLabel(conf.province(p, parseMonth(latest)! - conf.firstMonth)!),
      // This server has the drought artifacts only: no sources status, so freshness is unknown and says why.
      ...UNKNOWN_FRESHNESS,
    };
    for (const name of ["Buri Ram", "buriram", "BURI-RAM", "บุรีรัมย์", "TH-31", "Bùrí Ram"]) {
      const before = todayUtc();
      const res = await get(`/api/risk-map/drought/province?name=${encodeURIComponent(name)}`);
      expect(res.status, name).toBe(200);
      const { details, ...data } = (await res.json()).data;
      expect(data, name).toEqual(expected);
      expectTimeToday(details, ...LATEST_DAYS, before, name);
    }
  });

  it("answers all 77 provinces", async () => {
    const dir = join(server.artifactsDir, "current");
    const provinces = readProvincesJson(readFileSync(join(dir, "provinces.json"), "utf8"));
    expect(provinces).toHaveLength(77);
    for (const p of provinces) {
      const res = await get(`/api/risk-map/drought/province?name=${encodeURIComponent(p.nameEn)}&country=THA`);
      expect(res.status, p.nameEn).toBe(200);
    }
  });

  it("404s unknown names with close matches, and other countries", async () => {
    const res = await get("/api/risk-map/drought/province?name=Chang%20Mai");
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.error.code).toBe("NOT_FOUND");
    expect(body.error.details.closeMatches[0]).toBe("Chiang Mai");
    const lao = await get("/api/risk-map/drought/province?name=Vientiane&country=LAO");
    expect(lao.status).toBe(404);
    expect((await lao.json()).error).toMatchObject({ message: "no province data for country LAO: the drought region covers THA", details: { country: "LAO", coveredCountries: ["THA"] } });
  });
});

describe("POST /api/risk-map/score (drought)", () => {
  it("returns the envelope with current conditions, recent months for the timeframe and the historical record", async () => {
    const res = await post("/api/risk-map/score", { lat: 14.0, lng: 100.6, riskType: "drought", timeframe: "90d", includeHistorical: true });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    const c = bruteNearest(14.0, 100.6);
    const month = cellMonth(c);
    expect(month).toBe(latest);
    const off = grid.monthOffset(parseMonth(month)!);
    const spei1 = grid.value(c, off, 0);
    expect(data.riskType).toBe("drought");
    expect(data.riskScore).toBe(droughtScore(spei1));
    expect(data.details.currentConditions.spei1).toBe(r3(spei1));
    expect(data.details.currentConditions).toMatchObject({ month, monthReason: GRID_DEFAULT_MONTH_RULE });
    for (const k of ["spei1", "spei3", "spei6", "spei12"]) expect(data.details.currentConditions[k], k).toBe(r3(grid.value(c, off, grid.indexNo(k))));
    expect(data.details.period).toEqual({ from: "2018-10-01", to: "2018-10-31" });
    expect(data.details.asOf).toBe("2018-10-31");
    expect(data.details.currency).toMatchObject({ current: false, cadence: "monthly", horizonDays: 92 });
    expect(data.details.recentMonths.map((m: { month: string }) => m.month)).toEqual(
      [0, 1, 2].map((i) => formatMonth(parseMonth(month)! - i)),
    );
    expect(data.details.historical.recordStart).toBe(formatMonth(grid.firstMonth));
    expect(data.summary).toContain(`SPEI-1 ${r3(spei1).toFixed(2)}`);
    // 2018-10 ended more than a year before today: the summary says where the data end.
    expect(data.summary.endsWith(` The data end in ${formatMonth(grid.lastMonth)}.`)).toBe(true);
    expect(formatMonth(grid.lastMonth)).toBe("2019-07");
    const short = await (await post("/api/risk-map/score", { lat: 14.0, lng: 100.6, riskType: "drought" })).json();
    expect(short.data.details.recentMonths).toHaveLength(1);
    expect(short.data.details.historical).toBeUndefined();
  });

  it("Chiang Mai: the grid's month, and the summary names the drought event under way there then, in the past tense with the data's end", async () => {
    const { data } = await (await post("/api/risk-map/score", { lat: 18.79, lng: 98.98, riskType: "drought" })).json();
    const c = bruteNearest(18.79, 98.98);
    const month = cellMonth(c);
    const off = grid.monthOffset(parseMonth(month)!);
    const onset = runOnset(c, off);
    expect(data.details.currentConditions.month).toBe(latest);
    expect(onset).not.toBeNull();
    expect(data.details.droughtEvent.current.onset).toBe(onset);
    const months = off - grid.monthOffset(parseMonth(onset!)!) + 1;
    expect(data.details.droughtEvent.current.months).toBe(months);
    const [spei1, spei3] = [grid.value(c, off, 0), grid.value(c, off, grid.indexNo("spei3"))];
    // SPEI-1 above the drought levels in 2018-10 (0.97), SPEI-3 below -1 since 2018-09.
    expect(droughtLevel(spei1)).toBeNull();
    expect(data.summary).not.toMatch(/no drought/i);
    expect(data.summary).toBe(
      `SPEI-1 ${r3(spei1).toFixed(2)} in ${latest} (${GRID_DEFAULT_MONTH_RULE}) was above the drought levels (D0 at -0.5) ` +
        `at the nearest grid point, ${data.details.currentConditions.distanceKm.toFixed(1)} km away, but a drought event was under way in ${latest}: ` +
        `SPEI-3 below -1 since ${onset} (${months} month${months === 1 ? "" : "s"}; ${r3(spei3).toFixed(2)} in ${latest}). The data end in 2019-07.`,
    );
  });

  it("never says 'No drought' where SPEI-1 is above the drought levels but a run of SPEI-3 below -1 is current", async () => {
    const k3 = grid.indexNo("spei3");
    // Cells whose default month has SPEI-1 above -0.5 (no D-level) and SPEI-3 below -1 (a run under way).
    const cells = [];
    for (let c = 0; c < grid.nCells && cells.length < 5; c++) {
      const off = grid.monthOffset(parseMonth(cellMonth(c))!);
      if (grid.value(c, off, 0) > -0.5 && grid.value(c, off, k3) < -1 && bruteNearest(grid.cellLat(c), grid.cellLng(c)) === c) cells.push(c);
    }
    expect(cells.length).toBeGreaterThan(0);
    let answered = 0;
    for (const c of cells) {
      const res = await post("/api/risk-map/score", { lat: grid.cellLat(c), lng: grid.cellLng(c), riskType: "drought" });
      if (res.status === 404) continue; // a cell centre in the sea, outside the covered area
      answered++;
      const { data } = await res.json();
      const month = cellMonth(c);
      const off = grid.monthOffset(parseMonth(month)!);
      expect(data.details.currentConditions.month).toBe(month);
      expect(data.details.currentConditions.severity).toBeNull();
      expect(data.details.droughtEvent.current.onset).toBe(runOnset(c, off));
      expect(data.summary, `cell ${c}`).not.toMatch(/no drought/i);
      expect(data.summary).toContain(`was above the drought levels (D0 at -0.5)`);
      expect(data.summary).toContain(`but a drought event was under way in ${month}: SPEI-3 below -1 since ${runOnset(c, off)}`);
    }
    expect(answered).toBeGreaterThan(0);
  });

  it("returns a GeoJSON Feature with ?format=geojson, its period, asOf and currency flat", async () => {
    const res = await post("/api/risk-map/score?format=geojson", { lat: 14.0, lng: 100.6, riskType: "drought" });
    const f = await res.json();
    expect(f.type).toBe("Feature");
    expect(f.geometry).toEqual({ type: "Point", coordinates: [100.6, 14.0] });
    expect(f.properties.riskType).toBe("drought");
    expect(typeof f.properties.spei1).toBe("number");
    expect(f.properties).toMatchObject({ periodFrom: "2018-10-01", periodTo: "2018-10-31", asOf: "2018-10-31", current: false });
  });
});

describe("POST /api/risk-map/batch", () => {
  it("answers 100 locations; those without data say so without failing the batch", async () => {
    const locations = Array.from({ length: 100 }, (_, i) =>
      i % 10 === 9 ? { id: `sea-${i}`, lat: 11.5, lng: 101.5 } : { id: `p${i}`, lat: 14 + (i % 30) * 0.1, lng: 100 + (i % 7) * 0.2 },
    );
    const before = todayUtc();
    const res = await post("/api/risk-map/batch", { riskType: "drought", locations });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.count).toBe(100);
    // The batch's time: from the earliest to the latest month its found items are answered for.
    const months = (data.results as { month: string | null }[]).map((r) => r.month).filter((m): m is string => m !== null).sort();
    const last = months.at(-1)!;
    const lastDay = new Date(Date.UTC(Number(last.slice(0, 4)), Number(last.slice(5, 7)), 0)).toISOString().slice(0, 10);
    expectTimeToday(data.details, `${months[0]}-01`, lastDay, before, "batch");
    expect(data.results).toHaveLength(100);
    data.results.forEach((r: Record<string, unknown>, i: number) => {
      expect(r.id).toBe(locations[i].id);
      if (i % 10 === 9) {
        expect(r).toMatchObject({ found: false, month: null, riskScore: null, severity: null, spei1: null });
      } else {
        const c = bruteNearest(locations[i].lat, locations[i].lng);
        const month = cellMonth(c);
        const v = grid.value(c, grid.monthOffset(parseMonth(month)!), 0);
        expect(r).toMatchObject({ found: true, month, spei1: r3(v), riskScore: droughtScore(v), severity: droughtLevel(v) });
      }
    });
  });

  it("returns a FeatureCollection with format=geojson and rejects 101 locations", async () => {
    const fc = await (await post("/api/risk-map/batch", { riskType: "drought", format: "geojson", locations: [{ id: "a", lat: 16.4, lng: 102.8 }, { lat: 10, lng: 100 }] })).json();
    expect(fc.type).toBe("FeatureCollection");
    expect(fc.features[0].id).toBe("a");
    expect(fc.features[1].id).toBeUndefined();
    expect(fc.features[0].geometry.coordinates).toEqual([102.8, 16.4]);
    expect(fc.features[0].properties).toMatchObject({ id: "a", found: true, reason: null });
    // A found and a missing location: the same keys, each either of its type or null (ogr2ogr -append works).
    const [a, b] = fc.features.map((f: { properties: Record<string, unknown> }) => f.properties);
    expect(Object.keys(a)).toEqual(Object.keys(b));
    for (const k of Object.keys(a)) if (a[k] !== null && b[k] !== null) expect(typeof b[k], k).toBe(typeof a[k]);
    expect(b).toMatchObject({ id: null, found: false, riskScore: null, spei1: null, confidence: null, reason: expect.any(String) });
    const many = Array.from({ length: 101 }, () => ({ lat: 15, lng: 101 }));
    const res = await post("/api/risk-map/batch", { riskType: "drought", locations: many });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
  });
});

describe("one default month for every drought answer", () => {
  /** Places and the province each lies in. */
  const PLACES = [
    { lat: 18.79, lng: 98.98, province: "Chiang Mai" },
    { lat: 13.75, lng: 100.5, province: "Bangkok" },
    { lat: 16.43, lng: 102.83, province: "Khon Kaen" },
    { lat: 14.97, lng: 102.1, province: "Nakhon Ratchasima" },
    { lat: 7.0, lng: 100.47, province: "Songkhla" },
  ];

  it("the point, the score, the batch item, the province and the choropleth of a place name the grid's month where the cell has every index", async () => {
    const map = await (await get("/api/risk-map/drought/provinces")).json();
    expect(map.month).toBe(latest);
    const batch = (await (await post("/api/risk-map/batch", { riskType: "drought", locations: PLACES.map(({ lat, lng }) => ({ lat, lng })) })).json()).data.results;
    for (const [i, { lat, lng, province }] of PLACES.entries()) {
      const c = bruteNearest(lat, lng);
      expect(complete(c, grid.monthOffset(parseMonth(latest)!)), province).toBe(true);
      const point = (await (await get(`/api/risk-map/drought?lat=${lat}&lng=${lng}`)).json()).data;
      const score = (await (await post("/api/risk-map/score", { lat, lng, riskType: "drought" })).json()).data;
      const prov = (await (await get(`/api/risk-map/drought/province?name=${encodeURIComponent(province)}`)).json()).data;
      const feature = map.features.find((f: { properties: { province: string } }) => f.properties.province === province);
      expect([point.period.month, score.details.currentConditions.month, batch[i].month, prov.month, feature.properties.month], province).toEqual([latest, latest, latest, latest, latest]);
      expect([point.period.monthReason, score.details.currentConditions.monthReason], province).toEqual([GRID_DEFAULT_MONTH_RULE, GRID_DEFAULT_MONTH_RULE]);
      // One month, one period: the same days and currency on every answer.
      for (const d of [point.details, prov.details, map.details, { period: score.details.period, asOf: score.details.asOf, currency: score.details.currency }]) {
        expect(d, province).toEqual(point.details);
      }
      expect(point.details.period).toEqual({ from: LATEST_DAYS[0], to: LATEST_DAYS[1] });
    }
  });

  it("every cell answers the grid's month by default on the mirror's grid, and every default answer's six indices are numbers", async () => {
    const off = grid.monthOffset(parseMonth(latest)!);
    // On the mirror's station grid every cell has all six indices in 2018-10: no cell falls back.
    for (let c = 0; c < grid.nCells; c++) expect(cellDefault(c), `cell ${c}`).toEqual({ month: latest, monthReason: GRID_DEFAULT_MONTH_RULE });
    let answered = 0;
    for (let c = 0; c < grid.nCells; c += 7) {
      const res = await get(`/api/risk-map/drought?lat=${grid.cellLat(c)}&lng=${grid.cellLng(c)}`);
      if (res.status === 404) continue; // a coastal cell's centre at sea
      expect(res.status, `cell ${c}`).toBe(200);
      const { data } = await res.json();
      const at = bruteNearest(grid.cellLat(c), grid.cellLng(c));
      expect(data.period.month, `cell ${c}`).toBe(latest);
      for (const k of ANSWER_INDICES) {
        expect(typeof data.drought.indices[k], `cell ${c} ${k}`).toBe("number");
        expect(data.drought.indices[k], `cell ${c} ${k}`).toBe(r3(grid.value(at, off, grid.indexNo(k))));
      }
      answered++;
    }
    expect(answered).toBeGreaterThan(80);
  });

  it("the histories state the months they return as days, asOf the last month's last day", async () => {
    const before = todayUtc();
    const h = (await (await get("/api/risk-map/drought/history?lat=18.79&lng=98.98&from=2018-01&to=2018-10")).json()).data;
    expect(h.series).toHaveLength(10);
    expectTimeToday(h.details, "2018-01-01", "2018-10-31", before);
    const whole = (await (await get("/api/risk-map/drought/history?lat=18.79&lng=98.98")).json()).data;
    expectTimeToday(whole.details, "1950-01-01", "2019-07-31", before);
    const ph = (await (await get("/api/risk-map/drought/province/history?name=Bangkok&from=2016-02&to=2016-02")).json()).data;
    expectTimeToday(ph.details, "2016-02-01", "2016-02-29", before);
  });
});

describe("with the service clock fixed (CLOCK_TODAY=2018-12-15)", () => {
  let clocked: RealServer;
  beforeAll(async () => {
    clocked = await startRealServer(privateArtifacts(inject("stationArtifactsDir")).dir, { CLOCK_TODAY: "2018-12-15" });
  }, 60_000);
  afterAll(async () => {
    expect(await clocked.stop()).toBe(0);
  });
  const cget = (path: string) => fetch(clocked.base + path, { headers: { "x-api-key": clocked.key } });
  const cpost = (path: string, body: unknown) =>
    fetch(clocked.base + path, { method: "POST", headers: { "x-api-key": clocked.key, "content-type": "application/json" }, body: JSON.stringify(body) });

  it("the grid's month is current (45 days old) on every answer, and the score speaks in the present tense without the data's end", async () => {
    const current = timeOn(...LATEST_DAYS, "2018-12-15");
    expect(current.currency).toMatchObject({ current: true, ageDays: 45, note: "current: the data reach 2018-10-31, 45 days before 2018-12-15 (a monthly series is current for 92 days)" });
    const point = (await (await cget("/api/risk-map/drought?lat=18.79&lng=98.98")).json()).data;
    expect(point.period.month).toBe(latest);
    expect(point.details).toEqual(current);
    expect((await (await cget("/api/risk-map/drought/province?name=Chiang%20Mai")).json()).data.details).toEqual(current);
    expect((await (await cget("/api/risk-map/drought/provinces")).json()).details).toEqual(current);
    const { data } = await (await cpost("/api/risk-map/score", { lat: 18.79, lng: 98.98, riskType: "drought" })).json();
    expect({ period: data.details.period, asOf: data.details.asOf, currency: data.details.currency }).toEqual(current);
    const c = bruteNearest(18.79, 98.98);
    const off = grid.monthOffset(parseMonth(latest)!);
    const onset = runOnset(c, off)!;
    const months = off - grid.monthOffset(parseMonth(onset)!) + 1;
    expect(data.summary).toBe(
      `SPEI-1 ${r3(grid.value(c, off, 0)).toFixed(2)} in ${latest} (${GRID_DEFAULT_MONTH_RULE}) is above the drought levels (D0 at -0.5) ` +
        `at the nearest grid point, ${data.details.currentConditions.distanceKm.toFixed(1)} km away, but a drought event is under way: ` +
        `SPEI-3 below -1 since ${onset} (${months} month${months === 1 ? "" : "s"}; ${r3(grid.value(c, off, grid.indexNo("spei3"))).toFixed(2)} in ${latest}).`,
    );
    expect(data.summary).not.toContain("The data end");
    const f = await (await cpost("/api/risk-map/score?format=geojson", { lat: 18.79, lng: 98.98, riskType: "drought" })).json();
    expect(f.properties).toMatchObject({ periodFrom: "2018-10-01", periodTo: "2018-10-31", asOf: "2018-10-31", current: true });
    // A named month more than 92 days before the clock is not current.
    const old = (await (await cget("/api/risk-map/drought?lat=18.79&lng=98.98&month=2017-11")).json()).data;
    expect(old.details).toEqual(timeOn("2017-11-01", "2017-11-30", "2018-12-15"));
    expect(old.details.currency).toMatchObject({ current: false, ageDays: 380 });
  });
});

describe("logs", () => {
  it("never contain the API key", () => {
    expect(server.logs.join("")).not.toContain(server.key);
  });
});
