// End to end: snapshots built from the real feeds into a temp dir, the real app answering the score endpoint
// for every feed risk type in JSON and GeoJSON, schema-valid; 404 outside coverage; hot reload; a corrupted
// snapshot refused while the previous one keeps serving. (Drought here is the fake service of the server tests.)
import { riskLevel } from "../../lib/drought-scale.ts";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { scoreData } from "../../server/schemas.ts";
import { eventsCollection } from "../../server/schemas-events.ts";
import { buildSnapshots } from "../../pipeline/snapshots/build-snapshots.ts";
import { startFeedsApp, type FeedsApp } from "./feeds-app.ts";
import { buildFlood } from "../../pipeline/snapshots/feed-builders.ts";
import { publishSnapshot } from "../../pipeline/snapshots/publish-snapshot.ts";
import { postJson } from "../server/helpers.ts";

const artifacts = mkdtempSync(join(tmpdir(), "feeds-http-"));
let app: FeedsApp;
let key = "";
let base = "";
let feeds: FeedsApp["feeds"];

beforeAll(async () => {
  const r = await buildSnapshots({ dataDir: dataDir(), artifactsDir: artifacts, droughtArtifactsDir: inject("artifactsDir"), env: {}, now: new Date("2026-11-23T00:00:00Z") });
  for (const s of Object.values(r)) expect(s.status).toBe("published");
  app = await startFeedsApp(artifacts);
  ({ key, base, feeds } = app);
}, 60_000);

afterAll(async () => {
  await app?.stop();
});

const score = (body: Record<string, unknown>, q = "") => postJson(base, `/api/risk-map/score${q}`, body, key);
const BANGKOK = { lat: 13.75, lng: 100.5 };

describe("score endpoint for feed risk types", () => {
  for (const riskType of ["flood", "wildfire", "heatwave", "storm", "sea_level_rise"]) {
    it(`${riskType}: JSON passes the schema, GeoJSON is a Feature`, async () => {
      const res = await score({ ...BANGKOK, riskType, includeHistorical: true, timeframe: "1y" });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { success: boolean; data: Record<string, unknown> & { details: Record<string, unknown> } };
      expect(body.success).toBe(true);
      expect(scoreData.safeParse(body.data).success).toBe(true);
      // The level is the spec's band of the score actually returned.
      expect(body.data.riskLevel).toBe(riskLevel(body.data.riskScore as number));
      expect(body.data.details.snapshotVersion).toBe(feeds.service.snapshotVersion(riskType as "flood"));
      expect(body.data.details[riskType]).toHaveProperty("historical");
      const geo = await score({ ...BANGKOK, riskType }, "?format=geojson");
      expect(geo.headers.get("content-type")).toMatch(/geo\+json/);
      const f = (await geo.json()) as { type: string; properties: { riskType: string; riskScore: number } };
      expect(f.type).toBe("Feature");
      expect(f.properties.riskType).toBe(riskType);
    });
  }

  it("heatwave: the level is the band of the combined score for every timeframe", async () => {
    for (const timeframe of ["7d", "30d", "90d", "1y"]) {
      const body = (await (await score({ ...BANGKOK, riskType: "heatwave", timeframe })).json()) as { data: { riskScore: number; riskLevel: string } };
      expect(body.data.riskLevel, timeframe).toBe(riskLevel(body.data.riskScore));
    }
  });

  it("flood near Khon Kaen: the 2011 Thailand monsoon flood's DFO footprint covers it", async () => {
    const body = (await (await score({ lat: 16.43, lng: 102.83, riskType: "flood", timeframe: "1y" })).json()) as { data: { riskScore: number; details: { confidence: number; flood: { contributingEvents: { source: string; date: string; distanceKm: number; footprint: string }[] } } } };
    expect(body.data.riskScore).toBeGreaterThanOrEqual(30);
    expect(body.data.details.flood.contributingEvents.some((e) => e.source === "DFO" && e.date.startsWith("2011") && e.distanceKm === 0 && e.footprint.startsWith("polygon"))).toBe(true);
    expect(body.data.details.confidence).toBeGreaterThan(0);
  });

  it("flood at Bangkok: high from the footprints that cover it, every one covering (distance 0 or within the buffer)", async () => {
    const body = (await (await score({ ...BANGKOK, riskType: "flood" })).json()) as { data: { riskScore: number; riskLevel: string; details: { flood: { bufferKm: number; footprintsCovering: number; contributingEvents: { id: string; distanceKm: number }[] } } } };
    const f = body.data.details.flood;
    expect(f.footprintsCovering).toBeGreaterThanOrEqual(4);
    for (const e of f.contributingEvents) expect(e.distanceKm).toBeLessThanOrEqual(f.bufferKm);
    expect(f.contributingEvents.map((e) => e.id)).not.toContain("FL-1103646");
    expect(["high", "critical"]).toContain(body.data.riskLevel);
  });

  it("flood at Phuket: the May 2026 GDACS Thailand flood's affected area covers it: recent activity, at least medium", async () => {
    const body = (await (await score({ lat: 8.4, lng: 98.3, riskType: "flood", timeframe: "30d" })).json()) as { data: { riskScore: number; details: { flood: { recent: { events: number; floor: number }; contributingEvents: { id: string; footprint: string }[] } } } };
    expect(body.data.details.flood.recent.events).toBeGreaterThanOrEqual(1);
    const e = body.data.details.flood.contributingEvents.find((x) => x.id === "FL-1103881")!;
    expect(e.footprint).toBe("polygon");
    expect(body.data.details.flood.recent.floor).toBe(30);
    expect(body.data.riskScore).toBeGreaterThanOrEqual(30);
  });

  it("storm over north-east Thailand finds NORU (2022), whose track crossed Thailand", async () => {
    const body = (await (await score({ lat: 15.2, lng: 104.8, riskType: "storm", includeHistorical: true })).json()) as { data: { riskScore: number; details: { storm: { contributingEvents: { name: string }[] } } } };
    expect(body.data.details.storm.contributingEvents.map((e) => e.name)).toContain("NORU");
    expect(body.data.riskScore).toBeGreaterThan(0);
  });

  it("flood at Bangkok: the drought grid's wet extremes are reported, not scored", async () => {
    type Grid = { used: boolean; gridMonth: string; cell: { lat: number; lng: number }; veryWetMonths: { record: number; latestYear: number }; term: number };
    const body = (await (await score({ ...BANGKOK, riskType: "flood" })).json()) as { data: { riskScore: number; details: { flood: { climateGrid: Grid; frequencyScore: number; recent: { floor: number } } } } };
    const g = body.data.details.flood.climateGrid;
    expect(g.used).toBe(true);
    expect(g.gridMonth).toBe("2019-07");
    expect(g.cell).toMatchObject({ lat: 13.875, lng: 100.375 });
    expect(g.veryWetMonths.record).toBeGreaterThan(0);
    const f = body.data.details.flood;
    expect(body.data.riskScore).toBe(Math.max(f.frequencyScore, f.recent.floor));
  });

  it("flood at sea inside the old Thai box: open sea is now a 404 naming the coverage (was a feeds-only 200)", async () => {
    // Issue 10: the flood record covers land; 5.5N 109.5E is the South China Sea, 184 km from the nearest coast.
    const res = await score({ lat: 5.5, lng: 109.5, riskType: "flood" });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; message: string; details: { coverage: string } } };
    expect(body.error.code).toBe("NOT_FOUND");
    expect(body.error.message).toMatch(/open sea, 18\d\.\d km from the nearest coast/);
    expect(body.error.details.coverage).toMatch(/^land worldwide/);
  });

  it("flood on land beyond the drought grid (Dhaka): feeds alone, the grid's absence in the details only", async () => {
    const res = await score({ lat: 23.81, lng: 90.41, riskType: "flood" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { summary: string; details: { coverage: { country: string }; flood: { climateGrid: { used: boolean; note: string } } } } };
    expect(body.data.details.flood.climateGrid.used).toBe(false);
    expect(body.data.details.flood.climateGrid.note).toMatch(/^no drought-grid cell with SPI-3 data within 27\.8 km/);
    expect(body.data.details.coverage.country).toBe("BGD");
  });

  it("heatwave at Bangkok: heatwave days from the Bangkok Metropolis station's daily maxima; days ≥ 35 °C as in its file", async () => {
    type Hw = { method: string; station: { id: string; distanceKm: number }; period: { from: string; to: string; daysWithData: number }; hotDays: number; heatwaveDays: number; relativeScore: number; absoluteScore: number; national: { used: boolean } };
    const body = (await (await score({ ...BANGKOK, riskType: "heatwave", timeframe: "90d" })).json()) as { data: { riskScore: number; details: { confidence: number; confidenceBasis: string; heatwave: Hw } } };
    const h = body.data.details.heatwave;
    expect(h.method).toBe("daily");
    expect(h.station.id).toBe("TH000048455");
    // The latest year with 300 days of maximum temperature at the station is 2017.
    expect(h.period).toMatchObject({ from: "2017-01-01", to: "2017-12-31" });
    const file = readFileSync(join(dataDir(), "climate", "ghcnd-thailand", "BANGKOK_METROPOLIS_TH_TH000048455_1951-2019.csv"), "utf8");
    const rows = (parse(file, { columns: true }) as Record<string, string>[]).filter((r) => r.DATE.startsWith("2017") && r.TMAX.trim() !== "");
    expect(h.period.daysWithData).toBe(rows.length);
    expect(h.hotDays).toBe(rows.filter((r) => Number(r.TMAX) >= 35).length);
    expect(body.data.riskScore).toBe(Math.max(h.relativeScore, h.absoluteScore));
    expect(h.national.used).toBe(true);
    expect(body.data.details.confidence).toBeGreaterThan(0.5);
    expect(body.data.details.confidenceBasis).toMatch(/GHCN-Daily station TH000048455/);
  });

  it("outside coverage: 404 NOT_FOUND naming the coverage, never a zero", async () => {
    const cases = [
      ["flood", 0, -150, /^land worldwide/],
      ["heatwave", 1.35, 103.82, /the 194 countries of the OWID monthly temperature table/],
      ["sea_level_rise", 55, 3, /PSMSL tide gauges/],
      ["wildfire", 48.85, 2.35, /^the extents of the fire files present: .*88°E–153°E, 12°S–31°N\).*Rhodes/],
    ] as const;
    for (const [riskType, lat, lng, coverage] of cases) {
      const res = await score({ lat, lng, riskType });
      expect(res.status, riskType).toBe(404);
      const body = (await res.json()) as { error: { code: string; details: { coverage: string; riskType: string } } };
      expect(body.error.code).toBe("NOT_FOUND");
      expect(body.error.details.riskType).toBe(riskType);
      expect(body.error.details.coverage, riskType).toMatch(coverage);
    }
  });
});

describe("score endpoint beyond Thailand (issue 10): every feed type answers where its data reach", () => {
  type Body = { data: { riskScore: number; riskLevel: string; summary: string; details: Record<string, unknown> & { coverage: { country: string | null; dataset: string; period: { start: string; end: string } } } } };
  const places = [
    ["flood", 23.81, 90.41, "BGD", "DFO Global Active Archive of Large Flood Events 1985-01-01..2019-09-19 + GDACS flood events 2017-01-22..2026-05-24"],
    ["storm", 14.6, 120.98, "PHL", "IBTrACS West Pacific record 1884-06-24..2025-09-11"],
    ["storm", 25.76, -80.19, "USA", "IBTrACS global recent and active tracks 2022-01-07..2025-09-11"],
    ["sea_level_rise", 51.98, 4.12, "NLD", "PSMSL annual RLR gauges 22 HOEK VAN HOLLAND, 9 MAASSLUIS, 1551 ROOMPOT BUITEN"],
    ["heatwave", 52.52, 13.4, "DEU", "OWID monthly temperature anomalies, DEU"],
    ["wildfire", -5.55, 148.4, "PNG", "NASA FIRMS MODIS C6 South-East Asia 48 h sample 2018-05-23..2018-05-25"],
  ] as const;
  for (const [riskType, lat, lng, country, dataset] of places) {
    it(`${riskType} at ${lat}, ${lng} (${country}): 200, schema-valid, coverage stated`, async () => {
      const res = await score({ lat, lng, riskType, timeframe: "1y" });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Body;
      expect(scoreData.safeParse(body.data).success).toBe(true);
      expect(body.data.riskLevel).toBe(riskLevel(body.data.riskScore));
      expect(body.data.details.coverage).toMatchObject({ country, dataset });
    });
  }

  it("sea level inland (Ulaanbaatar): 200 with score 0 and the distance to the sea", async () => {
    const res = await score({ lat: 47.92, lng: 106.92, riskType: "sea_level_rise" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Body;
    expect(body.data.riskScore).toBe(0);
    expect(body.data.summary).toMatch(/^1307\.\d km from the sea, beyond the 150 km within which sea-level rise is scored: no exposure\.$/);
    expect(scoreData.safeParse(body.data).success).toBe(true);
  });
});

describe("snapshot hot reload", () => {
  it("loads a newly published snapshot and refuses a corrupted one, the previous keeps serving", async () => {
    const store = feeds.stores.flood!;
    const first = store.current()!.version;
    const built = await buildFlood({ dataDir: dataDir(), env: {}, now: new Date() });
    const second = await publishSnapshot({ artifactsDir: artifacts, name: "flood", ...built, now: new Date("2026-11-24T00:00:00Z") });
    expect(await store.reload()).toBe("loaded");
    expect(store.current()!.version).toBe(second.version);
    expect(second.version).not.toBe(first);
    const third = await publishSnapshot({ artifactsDir: artifacts, name: "flood", ...built, now: new Date("2026-11-25T00:00:00Z") });
    writeFileSync(join(third.dir, "snapshot.json"), "{}");
    expect(await store.reload()).toBe("refused");
    expect(store.current()!.version).toBe(second.version);
    const res = await score({ ...BANGKOK, riskType: "flood" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { details: { snapshotVersion: string } } }).data.details.snapshotVersion).toBe(second.version);
  });
});

describe("GET /api/risk-map/events (map layers)", () => {
  const events = (q: string) => fetch(`${base}/api/risk-map/events?${q}`, { headers: { "x-api-key": key } });

  it("flood events in Thailand's box: points, newest first, schema-valid, each a snapshot event", async () => {
    const res = await events("riskType=flood&bbox=97,5,106,21&limit=50");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/geo+json; charset=utf-8");
    const fc = eventsCollection.parse(await res.json());
    expect(fc.features.length).toBe(50);
    expect(fc.truncated).toBe(true);
    const starts = fc.features.map((f) => f.properties.start);
    expect([...starts].sort().reverse()).toEqual(starts);
    const snap = feeds.stores.flood!.current()!.data.events!;
    for (const f of fc.features) {
      expect(f.geometry.type).toBe("Point");
      const [lng, lat] = f.geometry.coordinates as [number, number];
      expect(lng >= 97 && lng <= 106 && lat >= 5 && lat <= 21).toBe(true);
      const i = snap.ids.indexOf(f.id);
      expect([snap.lng[i], snap.lat[i], snap.names[i]]).toEqual([lng, lat, f.properties.name]);
    }
  });

  it("storms as tracks: one LineString per storm with its fixes in the box, the highest wind there", async () => {
    const res = await events("riskType=storm&bbox=97,5,106,21&since=2020-01-01&limit=20");
    expect(res.status).toBe(200);
    const fc = eventsCollection.parse(await res.json());
    expect(fc.features.length).toBeGreaterThan(0);
    const snap = feeds.stores.storm!.current()!.data.events!;
    for (const f of fc.features) {
      const g = snap.groups.indexOf(f.id);
      const fixes = [...Array(snap.n).keys()].filter((i) => snap.group[i] === g && snap.lng[i] >= 97 && snap.lng[i] <= 106 && snap.lat[i] >= 5 && snap.lat[i] <= 21 && snap.time[i] >= Date.parse("2020-01-01"));
      const coords = f.geometry.type === "LineString" ? f.geometry.coordinates : [f.geometry.coordinates];
      expect(coords.length).toBe(fixes.length);
      const winds = fixes.map((i) => snap.magnitude[i]).filter((v) => !Number.isNaN(v));
      expect(f.properties.magnitude).toBe(winds.length ? Math.round(Math.max(...winds) * 100) / 100 : null);
      expect(f.properties.start >= "2020-01-01").toBe(true);
    }
  });

  it("bad input is a 400 in the envelope", async () => {
    for (const q of ["riskType=flood&bbox=106,5,97,21", "riskType=flood&bbox=a,b,c,d", "riskType=heatwave&bbox=97,5,106,21", "riskType=flood", "riskType=flood&bbox=97,5,106,21&limit=0", "riskType=flood&bbox=97,5,106,21&since=2020"]) {
      const res = await events(q);
      expect(res.status, q).toBe(400);
      expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
    }
  });
});

