// History and CSV answers through a running server on the real artifacts: the monthly series equal the
// single-month answers, ranges are validated and clamped, CSV rows carry the JSON values.
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { ConfidenceGrid } from "../../formats/confidence-grid.ts";
import { openDroughtGridFile } from "../../formats/drought-grid.ts";
import { parseMonth } from "../../lib/months.ts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { privateArtifacts, startRealServer, type RealServer } from "./real-server.ts";

let server: RealServer;
beforeAll(async () => {
  server = await startRealServer(privateArtifacts(inject("artifactsDir")).dir);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});
const get = (path: string, headers: Record<string, string> = {}) => fetch(server.base + path, { headers: { "X-API-Key": server.key, ...headers } });
const json = async (path: string) => {
  const r = await get(path);
  // The answers' shapes are the OpenAPI document's; here they are read loosely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: r.status, body: (await r.json()) as { data: any; error: any } };
};

describe("GET /api/risk-map/drought/history", () => {
  it("gives the whole record at the nearest cell, each month equal to the month's own answer", async () => {
    const { status, body } = await json("/api/risk-map/drought/history?lat=18.79&lng=98.98");
    expect(status).toBe(200);
    const d = body.data;
    expect(d.series).toHaveLength(d.period.months);
    expect(d.series[0].month).toBe(d.period.from);
    expect(d.series.at(-1).month).toBe(d.period.to);
    expect(Object.keys(d.series[0].indices)).toEqual(["spei1", "spei3", "spei6", "spei12", "spi1", "mcdi"]);
    for (const month of ["1990-05", "2010-08", "2023-12"]) {
      const one = (await json(`/api/risk-map/drought?lat=18.79&lng=98.98&month=${month}`)).body.data;
      const h = d.series.find((m: { month: string }) => m.month === month);
      expect(h).toEqual({ month, valid: true, score: one.drought.score, level: one.drought.level, severity: one.drought.severity.spei1, indices: one.drought.indices });
      expect(d.location.gridId).toBe(one.location.gridId);
    }
    // A month is valid exactly when it has SPEI-1; an invalid one has no score, level or severity.
    for (const m of d.series) {
      expect(m.valid, m.month).toBe(m.indices.spei1 !== null);
      if (!m.valid) expect(m).toMatchObject({ score: null, level: null, severity: null });
    }
  });

  it("takes a range and a subset of indices; refuses bad ones", async () => {
    const { body } = await json("/api/risk-map/drought/history?lat=13.75&lng=100.5&from=2017-01&to=2017-12&indices=spei1,spei24");
    expect(body.data.period).toMatchObject({ from: "2017-01", to: "2017-12", months: 12 });
    expect(Object.keys(body.data.series[0].indices)).toEqual(["spei1", "spei24"]);
    const clamped = (await json("/api/risk-map/drought/history?lat=13.75&lng=100.5&from=1800-01&to=1980-03")).body.data;
    expect([clamped.period.from, clamped.series[0].month, clamped.period.to]).toEqual(["1979-01", "1979-01", "1980-03"]);
    const outside = await json("/api/risk-map/drought/history?lat=13.75&lng=100.5&from=2030-01");
    expect([outside.status, outside.body.error.code]).toEqual([404, "NOT_FOUND"]);
    expect(outside.body.error.details.coverage).toMatchObject({ from: expect.stringMatching(/^\d{4}-\d\d$/), to: expect.stringMatching(/^\d{4}-\d\d$/) });
    for (const q of ["from=2018-05&to=2018-01", "indices=spei9", "indices=", "from=2018-13", "lat=95"]) {
      const r = await json(`/api/risk-map/drought/history?lat=13.75&lng=100.5&${q}`);
      expect([r.status, r.body.error.code], q).toEqual([400, "VALIDATION_ERROR"]);
    }
    const sea = await json("/api/risk-map/drought/history?lat=10&lng=100");
    expect([sea.status, sea.body.error.message]).toEqual([404, "location is outside the covered area (the land of Thailand, Vietnam and Malaysia)"]);
  });
});

describe("GET /api/risk-map/drought/province/history", () => {
  it("gives the province's months, each equal to the month's province answer", async () => {
    const { body } = await json("/api/risk-map/drought/province/history?name=Buriram&from=2018-01&to=2018-12");
    expect(body.data).toMatchObject({ province: "Buri Ram", country: "THA", period: { from: "2018-01", to: "2018-12", months: 12 } });
    for (const m of body.data.series.filter((_: unknown, i: number) => i % 4 === 0)) {
      const one = (await json(`/api/risk-map/drought/province?name=Buri%20Ram&month=${m.month}`)).body.data;
      expect({ score: m.score, level: m.level, severity: m.severity, indices: m.indices }).toEqual({ score: one.score, level: one.level, severity: one.severity.spei1, indices: one.indices });
      expect(m.cellsUsed).toBeGreaterThan(0);
    }
    expect((await json("/api/risk-map/drought/province/history?name=Atlantis")).status).toBe(404);
  });
});

describe("CSV answers", () => {
  it("drought and province: one row holding the JSON answer's values", async () => {
    const r = await get("/api/risk-map/drought?lat=18.79&lng=98.98&format=csv");
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const rows = parse(await r.text(), { columns: true }) as Record<string, string>[];
    const j = (await json("/api/risk-map/drought?lat=18.79&lng=98.98")).body.data;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ grid_id: j.location.gridId, month: j.period.month, score: String(j.drought.score), spei12: String(j.drought.indices.spei12 ?? ""), severity: j.drought.severity.spei1 ?? "" });
    const p = parse(await (await get("/api/risk-map/drought/province?name=Bangkok", { Accept: "text/csv" })).text(), { columns: true }) as Record<string, string>[];
    expect(p[0]).toMatchObject({ province: "Bangkok", country: "THA" });
    // JSON stays the default, and an Accept that prefers JSON gets JSON.
    expect((await get("/api/risk-map/drought/province?name=Bangkok", { Accept: "application/json, text/csv;q=0.5" })).headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("history: one row per month; batch: one row per location; errors stay JSON", async () => {
    const text = await (await get("/api/risk-map/drought/history?lat=13.75&lng=100.5&from=2018-01&to=2018-06", { Accept: "text/csv" })).text();
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(text.split("\n")[0]).toBe("grid_id,grid_lat,grid_lng,month,valid,score,level,severity,spei1,spei3,spei6,spei12,spi1,mcdi");
    expect(rows.map((r) => r.month)).toEqual(["2018-01", "2018-02", "2018-03", "2018-04", "2018-05", "2018-06"]);
    const batch = await fetch(server.base + "/api/risk-map/batch", {
      method: "POST",
      headers: { "X-API-Key": server.key, "Content-Type": "application/json" },
      body: JSON.stringify({ riskType: "drought", format: "csv", locations: [{ id: "bkk, hq", lat: 13.75, lng: 100.5 }, { id: "sea", lat: 10, lng: 100 }] }),
    });
    expect(batch.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const b = parse(await batch.text(), { columns: true }) as Record<string, string>[];
    expect(b.map((r) => [r.id, r.found])).toEqual([["bkk, hq", "true"], ["sea", "false"]]);
    expect(b[1].reason).toBe("location is outside the covered area (the land of Thailand, Vietnam and Malaysia)");
    const bad = await get("/api/risk-map/drought?lat=95&lng=100&format=csv");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("VALIDATION_ERROR");
  });
});

describe("GET /api/risk-map/drought/provinces (choropleth)", () => {
  it("gives the region's 157 provinces of a month with their outlines and the province answers' values; one country's on request", async () => {
    const r = await get("/api/risk-map/drought/provinces?month=2018-08");
    expect(r.headers.get("content-type")).toBe("application/geo+json; charset=utf-8");
    type Fc = { type: string; month: string; countries: string[]; features: { id: string; geometry: { type: string; coordinates: number[][][][] }; properties: Record<string, unknown> }[] };
    const fc = (await r.json()) as Fc;
    expect([fc.type, fc.month, fc.features.length, fc.countries]).toEqual(["FeatureCollection", "2018-08", 157, ["THA", "VNM", "MYS"]]);
    expect(new Set(fc.features.map((f) => f.id)).size).toBe(157);
    for (const f of fc.features.filter((_, i) => i % 13 === 0)) {
      const country = f.properties.country as string;
      const one = (await json(`/api/risk-map/drought/province?name=${f.id}&country=${country}&month=2018-08`)).body.data;
      expect(f.properties).toMatchObject({ code: f.id, country: one.country, province: one.province, month: "2018-08", score: one.score, level: one.level, severity: one.severity.spei1, spei1: one.indices.spei1, spei3: one.indices.spei3, spei6: one.indices.spei6 });
      expect("provinceTh" in f.properties, f.id).toBe(country === "THA");
      expect(f.geometry.type).toBe("MultiPolygon");
      const ring = f.geometry.coordinates[0][0];
      expect(ring.length).toBeGreaterThanOrEqual(4);
      expect(ring[0]).toEqual(ring.at(-1));
      for (const [x, y] of ring) expect(x > 97 && x < 120 && y > 0 && y < 24).toBe(true);
    }
    const vnm = (await (await get("/api/risk-map/drought/provinces?month=2018-08&country=vnm")).json()) as Fc;
    expect([vnm.countries, vnm.features.length, vnm.features.every((f) => f.properties.country === "VNM")]).toEqual([["VNM"], 64, true]);
    expect(vnm.features.map((f) => f.properties)).toEqual(fc.features.filter((f) => f.properties.country === "VNM").map((f) => f.properties));
    const lao = await json("/api/risk-map/drought/provinces?country=LAO");
    expect([lao.status, lao.body.error.details.coveredCountries]).toEqual([404, ["THA", "VNM", "MYS"]]);
    // Bangkok's outline holds Bangkok (a point well inside it).
    const bkk = fc.features.find((f) => f.id === "TH-10")!;
    const xs = bkk.geometry.coordinates.flat(2).map((p) => p[0]);
    expect(Math.min(...xs) < 100.5 && Math.max(...xs) > 100.5).toBe(true);
    const missing = await json("/api/risk-map/drought/provinces?month=1900-01");
    expect([missing.status, missing.body.error.code]).toEqual([404, "NOT_FOUND"]);
    expect((await json("/api/risk-map/drought/provinces?month=2018-13")).status).toBe(400);
  });
});

describe("confidence in the answers", () => {
  // The regional grid's confidence: each cell-month's support from the GHCN-Monthly stations reporting near it,
  // calibrated at the Thai GHCN-Daily stations (pipeline/grid/cpc-confidence.ts); checked here against the version's
  // own confidence.bin and build report. The station grid's is checked in test/e2e/drought-api.test.ts.
  const dir = () => realpathSync(join(inject("artifactsDir"), "current"));
  const post = (path: string, body: unknown) =>
    fetch(server.base + path, { method: "POST", headers: { "X-API-Key": server.key, "Content-Type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json());

  it("drought, score, batch and province of the regional grid carry the calibrated confidence of the cell-month", async () => {
    const report = JSON.parse(readFileSync(join(dir(), "build-report.json"), "utf8"));
    expect(report.confidence.method).toMatch(/^support of each cell-month \(GHCN-Monthly stations reporting within 250 km/);
    expect(report.confidence.samples).toBeGreaterThan(10_000);
    const conf = new ConfidenceGrid(new Uint8Array(readFileSync(join(dir(), "confidence.bin"))));
    const d = (await json("/api/risk-map/drought?lat=21.03&lng=105.85")).body.data;
    const grid = openDroughtGridFile(join(dir(), "drought-grid.bin"));
    const cell = grid.cellLats.findIndex((lat, i) => lat === d.location.gridLat && grid.cellLngs[i] === d.location.gridLng);
    const c = conf.cell(cell, grid.monthOffset(parseMonth(d.period.month)!));
    expect(c).not.toBeNull();
    expect(report.confidence.bins.map((b: { confidence: number }) => b.confidence)).toContain(c);
    const hanoi = { confidence: Math.round(c! * 100) / 100, confidenceLabel: "medium" };
    expect(d.drought).toMatchObject(hanoi);
    expect(d.drought.confidenceReason).toBeUndefined();
    const score = await post("/api/risk-map/score", { lat: 21.03, lng: 105.85, riskType: "drought" });
    expect(score.data.details.currentConditions).toMatchObject(hanoi);
    const batch = await post("/api/risk-map/batch", { riskType: "drought", locations: [{ lat: 21.03, lng: 105.85 }, { lat: 10, lng: 100 }] });
    expect(batch.data.results[0]).toMatchObject(hanoi);
    expect(batch.data.results[1].confidence).toBeUndefined();
    const province = (await json("/api/risk-map/drought/province?name=Hanoi&country=VNM")).body.data;
    expect(province.confidence).toBeGreaterThan(0.3);
    expect(province.confidenceLabel).toBe("medium");
  });

  it("a cell whose station support is below the calibrated range answers a null confidence saying so, and so does a province of such cells", async () => {
    // Kon Tum, in Vietnam's Central Highlands: the GHCN-Monthly stations reporting near it in 2023-12 are fewer or
    // farther than at 99 % of the calibration's station-months.
    const below = { confidence: null, confidenceLabel: null, confidenceReason: "the stations reporting this month near the cell are fewer or farther than any the confidence is calibrated on" };
    expect((await json("/api/risk-map/drought?lat=14.35&lng=108.0")).body.data.drought).toMatchObject(below);
    expect((await post("/api/risk-map/score", { lat: 14.35, lng: 108.0, riskType: "drought" })).data.details.currentConditions).toMatchObject(below);
    expect((await post("/api/risk-map/batch", { riskType: "drought", locations: [{ lat: 14.35, lng: 108.0 }] })).data.results[0]).toMatchObject(below);
    expect((await json("/api/risk-map/drought/province?name=Kon%20Tum&country=VNM")).body.data).toMatchObject({
      confidence: null,
      confidenceLabel: null,
      confidenceReason: "none of the province's cells has a confidence this month: too few stations report near them",
    });
  });
});
