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
import { UNKNOWN_FRESHNESS } from "../../server/services/source-status-service.ts";
import { CELL_LATEST_MONTH_RULE } from "../../lib/drought/cell-latest.ts";

let server: RealServer;
let grid: DroughtGrid;
let latest: string;
let version: string;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

function bruteNearest(lat: number, lng: number): number {
  let best = -1;
  let bestD = Infinity;
  const rad = Math.PI / 180;
  for (let c = 0; c < grid.nCells; c++) {
    const dLat = (grid.cellLat(c) - lat) * rad;
    const dLng = (grid.cellLng(c) - lng) * rad;
    const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat * rad) * Math.cos(grid.cellLat(c) * rad) * Math.sin(dLng / 2) ** 2;
    if (a < bestD) {
      bestD = a;
      best = c;
    }
  }
  return best;
}

/** The latest month with SPEI-1 at a cell, by a plain scan of its record (the default month of a point). */
function cellLatest(c: number): string {
  for (let m = grid.nMonths - 1; m >= 0; m--) if (!Number.isNaN(grid.value(c, m, grid.indexNo("spei1")))) return formatMonth(grid.firstMonth + m);
  throw new Error(`cell ${c} has no SPEI-1`);
}

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
  const art = privateArtifacts(inject("artifactsDir"));
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
  it("answers Chiang Mai with the nearest cell's values of the cell's latest month with SPEI-1, later than the national month", async () => {
    const res = await get("/api/risk-map/drought?lat=18.79&lng=98.98");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-data-version")).toBe(version);
    const body = await res.json();
    const c = bruteNearest(18.79, 98.98);
    const month = cellLatest(c);
    // The station record at Chiang Mai's cell goes on after the national latest valid month (2019-06 against 2018-10).
    expect(month > latest).toBe(true);
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
    expect(body.data.period).toEqual({ month, monthReason: CELL_LATEST_MONTH_RULE, climatologyBaseline: "1961-1990" });
    expect(body.data.drought.indices.spei1).toBe(r3(spei1));
    expect(body.data.drought.indices.spei3).toBe(r3(rec[grid.indexNo("spei3")]));
    expect(body.data.drought.indices.spi1).toBe(r3(rec[grid.indexNo("spi1")]));
    expect(body.data.drought.indices.mcdi).toBe(r3(rec[grid.indexNo("mcdi")]));
    expect(body.data.drought.score).toBe(droughtScore(spei1));
    expect(body.data.drought.level).toBe(riskLevel(droughtScore(spei1)));
    expect(body.data.drought.severity).toEqual({ spei1: droughtLevel(spei1) });
  });

  it("answers a named month from the record", async () => {
    const body = await (await get("/api/risk-map/drought?lat=15.0&lng=102.0&month=1997-09")).json();
    const c = bruteNearest(15.0, 102.0);
    expect(body.data.period).toMatchObject({ month: "1997-09", monthReason: "requested" });
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
  it("resolves spellings, Thai names and ISO codes to the same province summary", async () => {
    const dir = join(server.artifactsDir, "current");
    const provinces = readProvincesJson(readFileSync(join(dir, "provinces.json"), "utf8"));
    const s = new ProvinceSummariesReader(new Uint8Array(readFileSync(join(dir, "province-summaries.bin"))));
    const p = provinces.findIndex((x) => x.code === "TH-31");
    const rec = s.record(p, s.monthOffset(parseMonth(latest)!));
    const conf = new ConfidenceGrid(new Uint8Array(readFileSync(join(dir, CONFIDENCE_FILE))));
    const expected = {
      province: "Buri Ram",
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
      const res = await get(`/api/risk-map/drought/province?name=${encodeURIComponent(name)}`);
      expect(res.status, name).toBe(200);
      expect((await res.json()).data, name).toEqual(expected);
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
    expect((await lao.json()).error.message).toMatch(/only Thailand/);
  });
});

describe("POST /api/risk-map/score (drought)", () => {
  it("returns the envelope with current conditions, recent months for the timeframe and the historical record", async () => {
    const res = await post("/api/risk-map/score", { lat: 14.0, lng: 100.6, riskType: "drought", timeframe: "90d", includeHistorical: true });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    const c = bruteNearest(14.0, 100.6);
    const month = cellLatest(c);
    const off = grid.monthOffset(parseMonth(month)!);
    const spei1 = grid.value(c, off, 0);
    expect(data.riskType).toBe("drought");
    expect(data.riskScore).toBe(droughtScore(spei1));
    expect(data.details.currentConditions.spei1).toBe(r3(spei1));
    expect(data.details.currentConditions).toMatchObject({ month, monthReason: CELL_LATEST_MONTH_RULE });
    expect(data.details.recentMonths.map((m: { month: string }) => m.month)).toEqual(
      [0, 1, 2].map((i) => formatMonth(parseMonth(month)! - i)),
    );
    expect(data.details.historical.recordStart).toBe(formatMonth(grid.firstMonth));
    expect(data.summary).toContain(`SPEI-1 ${r3(spei1).toFixed(2)}`);
    const short = await (await post("/api/risk-map/score", { lat: 14.0, lng: 100.6, riskType: "drought" })).json();
    expect(short.data.details.recentMonths).toHaveLength(1);
    expect(short.data.details.historical).toBeUndefined();
  });

  it("Chiang Mai: the cell's latest month, and the summary names the drought event under way there", async () => {
    const { data } = await (await post("/api/risk-map/score", { lat: 18.79, lng: 98.98, riskType: "drought" })).json();
    const c = bruteNearest(18.79, 98.98);
    const month = cellLatest(c);
    const onset = runOnset(c, grid.monthOffset(parseMonth(month)!));
    expect(data.details.currentConditions.month).toBe(month);
    expect(onset).not.toBeNull();
    expect(data.details.droughtEvent.current.onset).toBe(onset);
    expect(data.summary).not.toMatch(/no drought/i);
    expect(data.summary).toContain(`in ${month} (${CELL_LATEST_MONTH_RULE})`);
    expect(data.summary.toLowerCase()).toContain(`a drought event is under way: spei-3 below -1 since ${onset}`);
  });

  it("never says 'No drought' where SPEI-1 is above the drought levels but a run of SPEI-3 below -1 is current", async () => {
    const k3 = grid.indexNo("spei3");
    // Cells whose own latest month has SPEI-1 above -0.5 (no D-level) and SPEI-3 below -1 (a run under way).
    const cells = [];
    for (let c = 0; c < grid.nCells && cells.length < 5; c++) {
      const off = grid.monthOffset(parseMonth(cellLatest(c))!);
      if (grid.value(c, off, 0) > -0.5 && grid.value(c, off, k3) < -1 && bruteNearest(grid.cellLat(c), grid.cellLng(c)) === c) cells.push(c);
    }
    expect(cells.length).toBeGreaterThan(0);
    let answered = 0;
    for (const c of cells) {
      const res = await post("/api/risk-map/score", { lat: grid.cellLat(c), lng: grid.cellLng(c), riskType: "drought" });
      if (res.status === 404) continue; // a cell centre in the sea, outside the covered area
      answered++;
      const { data } = await res.json();
      const off = grid.monthOffset(parseMonth(cellLatest(c))!);
      expect(data.details.currentConditions.severity).toBeNull();
      expect(data.details.droughtEvent.current.onset).toBe(runOnset(c, off));
      expect(data.summary, `cell ${c}`).not.toMatch(/no drought/i);
      expect(data.summary).toContain(`is above the drought levels (D0 at -0.5)`);
      expect(data.summary).toContain(`but a drought event is under way: SPEI-3 below -1 since ${runOnset(c, off)}`);
    }
    expect(answered).toBeGreaterThan(0);
  });

  it("returns a GeoJSON Feature with ?format=geojson", async () => {
    const res = await post("/api/risk-map/score?format=geojson", { lat: 14.0, lng: 100.6, riskType: "drought" });
    const f = await res.json();
    expect(f.type).toBe("Feature");
    expect(f.geometry).toEqual({ type: "Point", coordinates: [100.6, 14.0] });
    expect(f.properties.riskType).toBe("drought");
    expect(typeof f.properties.spei1).toBe("number");
  });
});

describe("POST /api/risk-map/batch", () => {
  it("answers 100 locations; those without data say so without failing the batch", async () => {
    const locations = Array.from({ length: 100 }, (_, i) =>
      i % 10 === 9 ? { id: `sea-${i}`, lat: 11.5, lng: 101.5 } : { id: `p${i}`, lat: 14 + (i % 30) * 0.1, lng: 100 + (i % 7) * 0.2 },
    );
    const res = await post("/api/risk-map/batch", { riskType: "drought", locations });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.count).toBe(100);
    expect(data.results).toHaveLength(100);
    data.results.forEach((r: Record<string, unknown>, i: number) => {
      expect(r.id).toBe(locations[i].id);
      if (i % 10 === 9) {
        expect(r).toMatchObject({ found: false, month: null, riskScore: null, severity: null, spei1: null });
      } else {
        const c = bruteNearest(locations[i].lat, locations[i].lng);
        const month = cellLatest(c);
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

describe("logs", () => {
  it("never contain the API key", () => {
    expect(server.logs.join("")).not.toContain(server.key);
  });
});
