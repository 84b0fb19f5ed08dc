// End to end: the snapshots the global setup built from the real feeds, copied, the real app answering the score endpoint
// for every feed risk type in JSON and GeoJSON, schema-valid; 404 outside coverage; hot reload; a corrupted
// snapshot refused while the previous one keeps serving. (Drought here is the fake service of the server tests.)
import { riskLevel } from "../../lib/drought-scale.ts";
import { readFileSync, writeFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { scoreData } from "../../server/schemas.ts";
import { eventsCollection, type EventsCollection } from "../../server/schemas-events.ts";
import { startFeedsApp, type FeedsApp } from "./feeds-app.ts";
import { ALL_SNAPSHOTS, privateSnapshots } from "../e2e/real-server.ts";
import { buildFlood } from "../../pipeline/snapshots/feed-builders.ts";
import { publishSnapshot } from "../../pipeline/snapshots/publish-snapshot.ts";
import { postJson } from "../server/helpers.ts";

let artifacts = "";
let app: FeedsApp;
let key = "";
let base = "";
let feeds: FeedsApp["feeds"];

/** The same snapshots answered on days their data reached: 2018-06-01 (the Thai stations' 2017 is current), 2019-10-01 (the Australian fire archive ends 2019-09-30), 2026-05-30 (the GDACS floods end 2026-05-24). */
const past: Record<string, FeedsApp> = {};

beforeAll(async () => {
  // Every feed snapshot as the global setup built it from the mirror (test/global-setup.ts), in a copy of their own.
  artifacts = privateSnapshots(inject("artifactsDir"), ALL_SNAPSHOTS, "feeds-http-");
  app = await startFeedsApp(artifacts);
  ({ key, base, feeds } = app);
  for (const today of ["2018-06-01", "2019-10-01", "2026-05-30"]) past[today] = await startFeedsApp(artifacts, { today });
}, 60_000);

afterAll(async () => {
  await app?.stop();
  for (const p of Object.values(past)) await p.stop();
});

const score = (body: Record<string, unknown>, q = "") => postJson(base, `/api/risk-map/score${q}`, body, key);
/** The score endpoint of the app whose clock reads `today`. */
const scoreOn = (today: string, body: Record<string, unknown>, q = "") => postJson(past[today].base, `/api/risk-map/score${q}`, body, past[today].key);
const BANGKOK = { lat: 13.75, lng: 100.5 };

describe("score endpoint for feed risk types", () => {
  // Heatwave at Bangkok answers only on a day its station's 2017 was current; wildfire only where a fire record covers
  // the window to the day (Tenterfield, 30 days to 2019-10-01).
  const cases = [
    ["flood", "", BANGKOK, "1y"],
    ["storm", "", BANGKOK, "1y"],
    ["sea_level_rise", "", BANGKOK, "1y"],
    ["heatwave", "2018-06-01", BANGKOK, "1y"],
    ["wildfire", "2019-10-01", { lat: -29.05, lng: 152.02 }, "30d"],
  ] as const;
  for (const [riskType, today, place, timeframe] of cases) {
    it(`${riskType}${today ? ` (clock ${today})` : ""}: JSON passes the schema, GeoJSON is a Feature with the answer's period`, async () => {
      const post = (body: Record<string, unknown>, q = "") => (today ? scoreOn(today, body, q) : score(body, q));
      const res = await post({ ...place, riskType, includeHistorical: true, timeframe });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { success: boolean; data: Record<string, unknown> & { details: Record<string, unknown> } };
      expect(body.success).toBe(true);
      expect(scoreData.safeParse(body.data).success).toBe(true);
      // The level is the spec's band of the score actually returned.
      expect(body.data.riskLevel).toBe(riskLevel(body.data.riskScore as number));
      expect(body.data.details.snapshotVersion).toBe(feeds.service.snapshotVersion(riskType as "flood"));
      expect(body.data.details[riskType]).toHaveProperty("historical");
      const t = body.data.details as unknown as { period: { from: string; to: string }; asOf: string; currency: { current: boolean } };
      expect(t.asOf).toBe(t.period.to);
      const geo = await post({ ...place, riskType, timeframe }, "?format=geojson");
      expect(geo.headers.get("content-type")).toMatch(/geo\+json/);
      const f = (await geo.json()) as { type: string; properties: { riskType: string; riskScore: number; periodFrom: string; periodTo: string; asOf: string; current: boolean } };
      expect(f.type).toBe("Feature");
      expect(f.properties).toMatchObject({ riskType, periodFrom: t.period.from, periodTo: t.period.to, asOf: t.asOf, current: t.currency.current });
    });
  }

  it("today: flood and storm say which period they rest on and that it is not current; heatwave and wildfire at Bangkok and Hobart are 404s naming why", async () => {
    const flood = (await (await score({ ...BANGKOK, riskType: "flood" })).json()) as { data: { summary: string; details: { period: { from: string; to: string }; asOf: string; currency: { current: boolean; cadence: string }; flood: { recent: { observed: string; events: number | null } } } } };
    expect(flood.data.details.period).toEqual({ from: "1985-01-01", to: "2026-05-24" });
    expect(flood.data.details.asOf).toBe("2026-05-24");
    expect(flood.data.details.currency).toMatchObject({ current: false, cadence: "daily" });
    // The 30-day window ends today, after the GDACS record's last day: no data, not zero events.
    expect(flood.data.details.flood.recent).toMatchObject({ observed: "none", events: null });
    expect(flood.data.summary).toMatch(/no data for the 30d to \d{4}-\d{2}-\d{2} \(the data end 2026-05-24\)/);
    const heat = await score({ ...BANGKOK, riskType: "heatwave" });
    expect(heat.status).toBe(404);
    expect(((await heat.json()) as { error: { message: string } }).error.message).toMatch(/the nearest, BANGKOK METROPOLIS, TH \(TH000048455\), is 7\.5 km away and its latest full year is 2017/);
    const fire = await score({ lat: -42.88, lng: 147.33, riskType: "wildfire" });
    expect(fire.status).toBe(404);
    expect(((await fire.json()) as { error: { message: string } }).error.message).toMatch(/NASA FIRMS MODIS C6 archive, Australia 2019-08-01\.\.2019-09-30, spans 0\.2 years: too short for a level/);
  });

  it("heatwave: the level is the band of the combined score for every timeframe", async () => {
    for (const timeframe of ["7d", "30d", "90d", "1y"]) {
      const body = (await (await scoreOn("2018-06-01", { ...BANGKOK, riskType: "heatwave", timeframe })).json()) as { data: { riskScore: number; riskLevel: string } };
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

  it("flood at Phuket: the May 2026 GDACS Thailand flood's affected area covers it: recent activity on 2026-05-30, at least medium; today no data for the window", async () => {
    const body = (await (await scoreOn("2026-05-30", { lat: 8.4, lng: 98.3, riskType: "flood", timeframe: "30d" })).json()) as { data: { riskScore: number; details: { currency: { current: boolean }; flood: { recent: { events: number; floor: number; observed: string }; contributingEvents: { id: string; footprint: string }[] } } } };
    expect(body.data.details.currency.current).toBe(false);
    expect(body.data.details.flood.recent.observed).toBe("partial");
    expect(body.data.details.flood.recent.events).toBeGreaterThanOrEqual(1);
    const e = body.data.details.flood.contributingEvents.find((x) => x.id === "FL-1103881")!;
    expect(e.footprint).toBe("polygon");
    expect(body.data.details.flood.recent.floor).toBe(30);
    expect(body.data.riskScore).toBeGreaterThanOrEqual(30);
    const today = (await (await score({ lat: 8.4, lng: 98.3, riskType: "flood", timeframe: "30d" })).json()) as { data: { details: { flood: { recent: { events: number | null; floor: number; observed: string } } } } };
    expect(today.data.details.flood.recent).toMatchObject({ observed: "none", events: null, floor: 0 });
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
    expect(g.gridMonth).toBe("2023-12");
    expect(g.cell).toMatchObject({ lat: 13.5, lng: 100.5 });
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
    expect(body.data.details.flood.climateGrid.note).toBe(`no drought-grid cell with SPI-3 data within 111.3 km (grid ${body.data.details.flood.climateGrid.note.match(/grid (\S+):/)![1]}: Thailand, Vietnam and Malaysia)`);
    expect(body.data.details.coverage.country).toBe("BGD");
  });

  it("heatwave at Bangkok: heatwave days from the Bangkok Metropolis station's daily maxima; days ≥ 35 °C as in its file", async () => {
    type Hw = { method: string; station: { id: string; distanceKm: number }; period: { from: string; to: string; daysWithData: number }; hotDays: number; heatwaveDays: number; relativeScore: number; absoluteScore: number; recent: { observed: string; heatwaves: number | null } };
    const body = (await (await scoreOn("2018-06-01", { ...BANGKOK, riskType: "heatwave", timeframe: "90d" })).json()) as { data: { riskScore: number; details: { confidence: number; confidenceBasis: string; period: { from: string; to: string }; asOf: string; currency: { current: boolean; cadence: string; ageDays: number }; heatwave: Hw } } };
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
    // On 2018-06-01 the station's 2017 is current (a yearly figure, 731 days after its year ends); the 90 days before
    // that day lie after its latest full year: no daily data for the window.
    expect(body.data.details.period).toEqual({ from: "2017-01-01", to: "2017-12-31" });
    expect(body.data.details.currency).toMatchObject({ current: true, cadence: "yearly", ageDays: 152 });
    expect(h.recent).toMatchObject({ observed: "none", heatwaves: null });
    expect(h).not.toHaveProperty("national");
    expect(body.data.details.confidence).toBeGreaterThan(0.5);
    expect(body.data.details.confidenceBasis).toMatch(/GHCN-Daily station TH000048455/);
  });

  it("outside coverage: 404 NOT_FOUND naming the coverage, never a zero", async () => {
    const cases = [
      ["flood", 0, -150, /^land worldwide/],
      ["heatwave", 1.35, 103.82, /^within 100 km of a GHCN-Daily station with daily maximum temperatures whose latest full year is current/],
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

  it("heatwave in Berlin and wildfire in Papua New Guinea: 404 naming why (no daily station within 100 km; a 2-day fire record)", async () => {
    const heat = await score({ lat: 52.52, lng: 13.4, riskType: "heatwave", timeframe: "1y" });
    expect(heat.status).toBe(404);
    expect(((await heat.json()) as { error: { message: string } }).error.message).toMatch(/no GHCN-Daily station with daily maximum temperatures within 100 km: the nearest, .* is \d+\.\d km away \(latest full year \d{4}\)/);
    const fire = await score({ lat: -5.55, lng: 148.4, riskType: "wildfire", timeframe: "1y" });
    expect(fire.status).toBe(404);
    expect(((await fire.json()) as { error: { message: string } }).error.message).toMatch(/NASA FIRMS MODIS C6 South-East Asia 48 h sample 2018-05-23\.\.2018-05-25, spans 2\.\d days: too short for a level/);
  });

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
  const collection = async (q: string) => {
    const res = await events(q);
    expect(res.status, q).toBe(200);
    return eventsCollection.parse(await res.json());
  };
  /** Every page of a query, following `next` from the first: the features in order and the pages' sizes. */
  async function walk(q: string) {
    const features: EventsCollection["features"][number][] = [];
    const sizes: number[] = [];
    let next: string | null = `/api/risk-map/events?${q}`;
    while (next !== null) {
      const res = await fetch(base + next, { headers: { "x-api-key": key } });
      expect(res.status, next).toBe(200);
      const page = eventsCollection.parse(await res.json());
      features.push(...page.features);
      sizes.push(page.features.length);
      expect(page.truncated).toBe(page.next !== null);
      expect(page.links).toEqual(page.next === null ? [] : [{ rel: "next", type: "application/geo+json", href: page.next }]);
      next = page.next;
    }
    return { features, sizes };
  }
  const inThailandBox = (lng: number, lat: number) => lng >= 97 && lng <= 106 && lat >= 5 && lat <= 21;
  /** The storm snapshot's fixes of each storm (group number → fix indices), read once: a scan per feature takes seconds. */
  const fixesOf = (() => {
    let byGroup: Map<number, number[]> | undefined;
    return (g: number) => {
      const snap = feeds.stores.storm!.current()!.data.events!;
      if (!byGroup) {
        byGroup = new Map();
        for (let i = 0; i < snap.n; i++) byGroup.set(snap.group[i], [...(byGroup.get(snap.group[i]) ?? []), i]);
      }
      return byGroup.get(g) ?? [];
    };
  })();

  it("flood events in Thailand's box: points, newest first, schema-valid, each a snapshot event; a next link when truncated", async () => {
    const res = await events("riskType=flood&bbox=97,5,106,21&limit=50");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/geo+json; charset=utf-8");
    const fc = eventsCollection.parse(await res.json());
    expect(fc.features.length).toBe(50);
    expect(fc.truncated).toBe(true);
    const snap = feeds.stores.flood!.current()!.data.events!;
    const inBox = [...Array(snap.n).keys()].filter((i) => inThailandBox(snap.lng[i], snap.lat[i]));
    expect(fc.numberMatched).toBe(inBox.length);
    const version = feeds.stores.flood!.current()!.version;
    expect(fc.snapshotVersion).toBe(version);
    expect(fc.next).toBe(`/api/risk-map/events?riskType=flood&bbox=97,5,106,21&limit=50&cursor=50@${version}`);
    const starts = fc.features.map((f) => f.properties.start);
    expect([...starts].sort().reverse()).toEqual(starts);
    for (const f of fc.features) {
      if (f.geometry.type !== "Point") throw new Error(`${f.id}: ${f.geometry.type}`);
      const [lng, lat] = f.geometry.coordinates;
      expect(inThailandBox(lng, lat)).toBe(true);
      const i = snap.ids.indexOf(f.id);
      expect([snap.lng[i], snap.lat[i], snap.names.get(i)]).toEqual([lng, lat, f.properties.name]);
    }
  });

  it("storms: one MultiLineString per storm, the line of its fixes in the box in time order (a single fix twice), the highest wind there", async () => {
    const fc = await collection("riskType=storm&bbox=97,5,106,21&since=2020-01-01&limit=20");
    expect(fc.features.length).toBeGreaterThan(0);
    const snap = feeds.stores.storm!.current()!.data.events!;
    let single = 0;
    for (const f of fc.features) {
      if (f.geometry.type !== "MultiLineString" || !("fixes" in f.properties)) throw new Error(`${f.id}: ${f.geometry.type}`);
      const g = snap.groups.indexOf(f.id);
      const fixes = fixesOf(g).filter((i) => inThailandBox(snap.lng[i], snap.lat[i]) && snap.time[i] >= Date.parse("2020-01-01")).sort((a, b) => snap.time[a] - snap.time[b]);
      const line = fixes.map((i) => [snap.lng[i], snap.lat[i]]);
      expect(f.geometry.coordinates).toEqual([line.length === 1 ? [line[0], line[0]] : line]);
      expect(f.properties.fixes).toBe(fixes.length);
      if (fixes.length === 1) single++;
      const winds = fixes.map((i) => snap.magnitude[i]).filter((v) => !Number.isNaN(v));
      expect(f.properties.magnitude).toBe(winds.length ? Math.round(Math.max(...winds) * 100) / 100 : null);
      expect(f.properties.start >= "2020-01-01").toBe(true);
    }
    // The whole record in the box has storms with a single fix there: lines of length zero, never Points.
    const all = await collection("riskType=storm&bbox=97,5,106,21&limit=2000");
    const once = all.features.filter((f) => "fixes" in f.properties && f.properties.fixes === 1);
    expect(once.length + single).toBeGreaterThan(0);
    for (const f of once) {
      const [[a, b]] = f.geometry.coordinates as number[][][];
      expect(a).toEqual(b);
    }
  });

  for (const [riskType, q, limit] of [["flood", "riskType=flood&bbox=97,5,106,21", 70], ["storm", "riskType=storm&bbox=97,5,106,21", 100]] as const) {
    it(`${riskType}: walking the next links gives every feature of the query exactly once, in the order of one large page`, async () => {
      const one = await collection(`${q}&limit=2000`);
      expect(one.truncated).toBe(false);
      expect(one.next).toBeNull();
      expect(one.numberMatched).toBe(one.features.length);
      expect(one.numberMatched).toBeGreaterThan(2 * limit);
      const { features, sizes } = await walk(`${q}&limit=${limit}`);
      expect(features.map((f) => f.id)).toEqual(one.features.map((f) => f.id));
      expect(new Set(features.map((f) => f.id)).size).toBe(features.length);
      expect(features).toEqual(one.features);
      expect(sizes.slice(0, -1).every((n) => n === limit)).toBe(true);
      expect(sizes.length).toBe(Math.ceil(one.numberMatched / limit));
    });
  }

  it("a bbox with west > east is a box across the antimeridian: the storms of both sides, tracks cut at ±180°", async () => {
    const across = await collection("riskType=storm&bbox=170,-20,-170,20&limit=2000");
    const west = await collection("riskType=storm&bbox=170,-20,180,20&limit=2000");
    const east = await collection("riskType=storm&bbox=-180,-20,-170,20&limit=2000");
    const ids = (fc: EventsCollection) => fc.features.map((f) => f.id);
    expect(new Set(ids(across))).toEqual(new Set([...ids(west), ...ids(east)]));
    expect(across.numberMatched).toBe(across.features.length);
    const snap = feeds.stores.storm!.current()!.data.events!;
    let crossing = 0;
    for (const f of across.features) {
      if (f.geometry.type !== "MultiLineString" || !("fixes" in f.properties)) throw new Error(`${f.id}: ${f.geometry.type}`);
      const g = snap.groups.indexOf(f.id);
      const fixes = fixesOf(g).filter((i) => (snap.lng[i] >= 170 || snap.lng[i] <= -170) && snap.lat[i] >= -20 && snap.lat[i] <= 20).sort((a, b) => snap.time[a] - snap.time[b]);
      expect(f.properties.fixes).toBe(fixes.length);
      const parts = f.geometry.coordinates;
      // No part steps over the antimeridian; between parts the track crosses it at one interpolated latitude.
      for (const part of parts) for (let k = 1; k < part.length; k++) expect(Math.abs(part[k][0] - part[k - 1][0])).toBeLessThanOrEqual(180);
      for (let k = 1; k < parts.length; k++) {
        const end = parts[k - 1].at(-1)!;
        const start = parts[k][0];
        expect(Math.abs(end[0])).toBe(180);
        expect(start).toEqual([-end[0], end[1]]);
      }
      // The fixes, in order, are the parts' positions but for the cut points, which lie on ±180°.
      const positions = parts.flat();
      let next = 0;
      for (const pos of positions) {
        if (next < fixes.length && pos[0] === snap.lng[fixes[next]] && pos[1] === snap.lat[fixes[next]]) next++;
        else if (!(fixes.length === 1 && next === 1)) expect(Math.abs(pos[0]), f.id).toBe(180);
      }
      expect(next, f.id).toBe(fixes.length);
      if (parts.length > 1) {
        crossing++;
        // The cut's latitude, interpolated in longitude between the two fixes on either side.
        const [a, b] = [parts[0].at(-2)!, parts[1][1]];
        const unwrapped = b[0] < 0 ? b[0] + 360 : b[0] - 360;
        const edge = b[0] < 0 ? 180 : -180;
        expect(parts[0].at(-1)![1]).toBeCloseTo(a[1] + ((edge - a[0]) / (unwrapped - a[0])) * (b[1] - a[1]), 6);
      }
    }
    expect(crossing).toBeGreaterThan(0);
  });

  it("a cursor of a snapshot version no longer served is 404; a malformed one 400", async () => {
    const gone = await events("riskType=flood&bbox=97,5,106,21&limit=5&cursor=5@20200101T000000Z-0000000000");
    expect(gone.status).toBe(404);
    const version = feeds.stores.flood!.current()!.version;
    expect((await gone.json()).error).toEqual({
      code: "NOT_FOUND",
      message: `the cursor's snapshot version 20200101T000000Z-0000000000 is no longer served (now ${version}): start again from the first page, without cursor`,
      details: { cursorVersion: "20200101T000000Z-0000000000", servedVersion: version },
    });
    const bad = await events("riskType=flood&bbox=97,5,106,21&cursor=abc");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toBe("cursor: must be the cursor of a next link (<offset>@<snapshot version>)");
  });

  it("bad input is a 400 in the envelope", async () => {
    for (const q of [
      "riskType=flood&bbox=97,21,106,5",
      "riskType=flood&bbox=97,5,97,21",
      "riskType=flood&bbox=0x10,5,106,21",
      "riskType=flood&bbox=a,b,c,d",
      "riskType=heatwave&bbox=97,5,106,21",
      "riskType=flood",
      "riskType=flood&bbox=97,5,106,21&limit=0",
      "riskType=flood&bbox=97,5,106,21&limit=1e2",
      "riskType=flood&bbox=97,5,106,21&since=2020",
    ]) {
      const res = await events(q);
      expect(res.status, q).toBe(400);
      expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
    }
  });
});
