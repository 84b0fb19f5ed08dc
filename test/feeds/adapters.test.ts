// Adapters on the real feed files, rejected rows, the fetch step against a local server, and score monotonicity.
import { readFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { parseDfoArchive } from "../../pipeline/feeds/dfo.ts";
import { parseGdacsFloodTable, parseGdacsGeoJson, parseGdacsRss } from "../../pipeline/feeds/gdacs.ts";
import { parseFirmsCsv, parseFirmsGeoJson } from "../../pipeline/feeds/firms.ts";
import { parseIbtracsCsv } from "../../pipeline/feeds/ibtracs.ts";
import { linearTrend, parsePsmslFilelist, parseRlrAnnual } from "../../pipeline/feeds/psmsl.ts";
import { GISTEMP, parseGistempTable, parseGlobalTemperature, parseOwidTemperature } from "../../pipeline/feeds/temperature.ts";
import { gistempTable } from "../sources/origin-replay.ts";
import { fetchFeed } from "../../pipeline/feeds/fetch.ts";
import { EventIndex, writeEventIndex, type EventInput } from "../../formats/event-index.ts";
import { INTENSITY, eventScore, scoreEvents, seaLevelScore, heatScore } from "../../lib/feed-risk/scoring.ts";

const feed = (rel: string) => readFileSync(join(dataDir(), "feeds", rel), "utf8");
const inThailand = (lat: number, lng: number) => lat >= 5.6 && lat <= 20.5 && lng >= 97.3 && lng <= 105.7;

describe("adapters on the real feeds", () => {
  it("DFO: 4,797 rows, 128 refused by the country check, the 2011 Thailand floods kept", () => {
    const r = parseDfoArchive(feed("dfo/FloodArchive.csv"));
    expect(r.rows).toBe(4797);
    expect(r.records).toHaveLength(4669);
    expect(r.reasons).toEqual({ "coordinates outside the named country": 128 });
    // 74 rows with Thailand as the main country (PROVENANCE); 3 of them lie outside Thailand (DFO-3417 in
    // Malaysia, DFO-4390 and DFO-4496 in Myanmar).
    const thai = r.records.filter((e) => e.country.trim() === "Thailand");
    expect(thai).toHaveLength(71);
    const y2011 = thai.filter((e) => new Date(e.time).getUTCFullYear() === 2011);
    expect(y2011.length).toBeGreaterThan(0);
    const big = y2011.reduce((a, b) => (b.magnitude > a.magnitude ? b : a));
    expect(big.dead).toBeGreaterThan(500);
    expect(big.magnitude).toBeGreaterThan(6.5);
  });

  it("GDACS: flood table 3,990 rows, 164 refused (64 kept with iso3 THA); live GeoJSON has the May 2026 Thailand flood; RSS items", () => {
    const t = parseGdacsFloodTable(feed("gdacs/latest_gdacs_flood_db.csv"));
    expect(t.rows).toBe(3990);
    expect(t.records).toHaveLength(3826);
    expect(t.reasons).toEqual({ "coordinates outside the named country": 156, "null island": 8 });
    // 66 rows say THA; FL-4390 (northern Myanmar) and FL-1100673 (Vietnam coast) are refused.
    expect(t.records.filter((r) => r.iso3 === "THA")).toHaveLength(64);
    const g = parseGdacsGeoJson(feed("gdacs/gdacs_20260530T1858Z.geojson"));
    const th = g.records.find((r) => r.id === "FL-1103881")!;
    expect(th.name).toBe("Flood in Thailand");
    expect(new Date(th.time).toISOString()).toBe("2026-05-13T01:00:00.000Z");
    expect(th.lat).toBeCloseTo(8.3991866, 6);
    expect(th.magnitude).toBe(1);
    const rss = parseGdacsRss(feed("gdacs/gdacs-rss.xml"));
    expect(rss.rows).toBe(16);
    const calvinia = rss.records.find((r) => r.name === "CALVINIA-19")!;
    expect([calvinia.lat, calvinia.lng, calvinia.kind]).toEqual([-19.4, 59.8, "cyclone"]);
    expect(calvinia.bbox![0]).toBeCloseTo(55.078, 3);
  });

  it("FIRMS MODIS: 614 detections in CSV and GeoJSON, the same first row", () => {
    const c = parseFirmsCsv(feed("firms/MODIS_C6_SouthEast_Asia_20180523-25_reconstructed.csv"));
    const g = parseFirmsGeoJson(feed("firms/MODIS_C6_SouthEast_Asia_48h_20180525.geojson"));
    expect(c.records).toHaveLength(614);
    expect(g.records).toHaveLength(614);
    expect(c.records[0]).toMatchObject({ lat: -5.538, lng: 148.422, magnitude: 7.6, confidence: 41, sensor: "MODIS", brightnessK: 309.9 });
    expect(g.records[0].id).toBe(c.records[0].id);
    expect(new Date(c.records[0].time).toISOString()).toBe("2018-05-23T00:25:00.000Z");
  });

  it("FIRMS VIIRS column set (written here), bad rows counted by reason", () => {
    const csv = [
      "latitude,longitude,bright_ti4,scan,track,acq_date,acq_time,satellite,instrument,confidence,version,bright_ti5,frp,daynight",
      "14.1,100.5,330.2,0.39,0.36,2024-03-01,0612,N,VIIRS,n,2.0NRT,290.1,5.4,D",
      "14.2,100.6,340.0,0.39,0.36,2024-03-01,612,N,VIIRS,h,2.0NRT,291.0,12.0,D",
      "95.0,100.6,340.0,0.39,0.36,2024-03-01,0612,N,VIIRS,h,2.0NRT,291.0,12.0,D",
      "14.2,100.6,340.0,0.39,0.36,2024-13-01,0612,N,VIIRS,h,2.0NRT,291.0,12.0,D",
      "14.2,100.6,340.0,0.39,0.36,2024-03-01,0612,N,VIIRS,x,2.0NRT,291.0,12.0,D",
    ].join("\n");
    const r = parseFirmsCsv(csv);
    expect(r.records.map((x) => [x.sensor, x.confidence, x.magnitude, x.brightnessK])).toEqual([["VIIRS", 60, 5.4, 330.2], ["VIIRS", 90, 12, 340]]);
    expect(new Date(r.records[1].time).toISOString()).toBe("2024-03-01T06:12:00.000Z");
    expect({ rows: r.rows, rejected: r.rejected, reasons: r.reasons }).toEqual({ rows: 5, rejected: 3, reasons: { "bad coordinates": 1, "bad acq_date/acq_time": 1, "bad confidence": 1 } });
    expect(() => parseFirmsCsv("a,b\n1,2")).toThrow("neither the MODIS nor the VIIRS column set");
  });

  it("IBTrACS: native units row skipped; compact storms that crossed Thailand (NORU 2022)", () => {
    const a = parseIbtracsCsv(feed("ibtracs/ibtracs.ACTIVE.list.v04r01.csv"));
    expect(a.rows).toBe(197);
    expect(a.records).toHaveLength(197);
    const c = parseIbtracsCsv(feed("ibtracs/ibtracs_last3years_clean.csv"));
    expect(c.rows).toBe(21102);
    expect(c.records.length + c.rejected).toBe(21102);
    expect(c.reasons).toEqual({ "no wind speed": c.rejected });
    const crossed = [...new Set(c.records.filter((p) => inThailand(p.lat, p.lng)).map((p) => p.group))];
    expect(crossed).toContain("WP-2022-NORU");
    // The compact export lost the North Atlantic's basin code (an empty field): IAN 2022 is "2022-IAN", not "-2022-IAN".
    expect(c.records.find((p) => p.name === "IAN")).toMatchObject({ basin: "", group: "2022-IAN" });
  });

  it("PSMSL: 1,591 stations; Fort Phrachula Chomklao trend ~ subsidence; OLS exact on a line", () => {
    const list = parsePsmslFilelist(feed("psmsl/filelist.txt"));
    expect(list.records).toHaveLength(1591);
    expect(list.records.find((s) => s.id === 444)).toMatchObject({ name: "FORT PHRACHULA CHOMKLAO (POM PHRACHUN)", coastline: 600, flagged: true });
    const rlr = parseRlrAnnual(feed("psmsl/data/444.rlrdata"));
    const t = linearTrend(rlr.series.years, rlr.series.mm);
    expect(t.slope).toBeGreaterThan(10);
    expect(t.se).toBeGreaterThan(0);
    const exact = linearTrend([2000, 2001, 2002, 2003], [10, 13, 16, 19]);
    expect(exact.slope).toBeCloseTo(3, 12);
    expect(exact.se).toBeCloseTo(0, 12);
    expect(parseRlrAnnual("1990; 7000;N;000\nbad line\n1991;-99999;N;000\n").reasons).toEqual({ "malformed line": 1 });
  });

  it("temperature tables: Thailand 168 months, Dec 2023 +1.6878719 °C; global GISTEMP alone (the mirror's \"gcag\" rows are HadCRUT5)", () => {
    const o = parseOwidTemperature(feed("temperature/monthly-temperature-anomalies.csv"));
    const th = o.records.filter((r) => r.code === "THA");
    expect(th).toHaveLength(168);
    expect(th.at(-1)!.anomalyC).toBe(1.6878719);
    const datahub = feed("temperature/global-monthly-gistemp-gcag.csv");
    const g = parseGlobalTemperature(datahub);
    expect(g.records).toHaveLength(1728);
    expect(new Set(g.records.map((r) => r.series))).toEqual(new Set([GISTEMP]));
    expect(g.rejected).toBe(0);
    // Why "gcag" is dropped: its 1961–1990 mean is ~0 and 1850 is −0.418 °C, HadCRUT5's reference period and value.
    const gcag = datahub.split("\n").filter((l) => l.startsWith("gcag,")).map((l) => l.split(","));
    const mean = (rows: string[][]) => rows.reduce((s, r) => s + Number(r[2]), 0) / rows.length;
    expect(Math.abs(mean(gcag.filter((r) => r[1] >= "1961" && r[1] < "1991")))).toBeLessThan(0.01);
    expect(mean(gcag.filter((r) => r[1].startsWith("1850-")))).toBeCloseTo(-0.418, 3);
  });

  it("NASA's GLB.Ts+dSST.csv gives the mirror's GISTEMP months; *** months are not data", () => {
    const datahub = feed("temperature/global-monthly-gistemp-gcag.csv");
    const fromMirror = parseGlobalTemperature(datahub).records;
    const nasa = parseGlobalTemperature(gistempTable(datahub), "GLB.Ts+dSST.csv");
    expect(nasa.rejected).toBe(0);
    expect(nasa.records).toEqual(fromMirror);
    expect(nasa.records.at(-1)).toEqual({ series: GISTEMP, month: 2023 * 12 + 11, anomalyC: 1.35 });
    // Mid-year, as NASA's table stands until December's analysis: the months after May are ***.
    const may = parseGistempTable(gistempTable(datahub, "2023-05"));
    expect(may.records.at(-1)).toEqual({ series: GISTEMP, month: 2023 * 12 + 4, anomalyC: fromMirror.find((r) => r.month === 2023 * 12 + 4)!.anomalyC });
    expect(may.rows).toBe(1728 - 7);
    // Without the title line, and a value that is not a number.
    const bad = parseGistempTable("Year,Jan,Feb,Mar,Apr,May,Jun,Jul,Aug,Sep,Oct,Nov,Dec\n2024,1.2,x,***,***,***,***,***,***,***,***,***,***\n", "t.csv");
    expect(bad.records).toEqual([{ series: GISTEMP, month: 2024 * 12, anomalyC: 1.2 }]);
    expect(bad.reasons).toEqual({ "bad Feb": 1 });
  });
});

describe("fetch step", () => {
  it("downloads from a configured URL, retries, and falls back to the data directory", async () => {
    let hits = 0;
    const server = createServer((req, res) => {
      hits++;
      if (req.url === "/flaky" && hits < 2) { res.statusCode = 503; res.end(); return; }
      if (req.url === "/slow") return; // never answers: the timeout must fire
      res.end("from-url");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = mkdtempSync(join(tmpdir(), "fetch-"));
    const fallbackPath = join(dir, "feed.txt");
    writeFileSync(fallbackPath, "from-disk");
    try {
      const ok = await fetchFeed({ name: "X", fallbackPath }, { env: { FEED_URL_X: `${base}/flaky` }, retries: 2, backoffMs: 1 });
      expect([ok.text, ok.from, ok.attempts]).toEqual(["from-url", "url", 2]);
      const slow = await fetchFeed({ name: "X", fallbackPath }, { env: { FEED_URL_X: `${base}/slow` }, timeoutMs: 100, retries: 1, backoffMs: 1 });
      expect([slow.text, slow.from, slow.attempts]).toEqual(["from-disk", "data-dir", 2]);
      expect(slow.error).toMatch(/attempt 1: .*; attempt 2: /);
      const none = await fetchFeed({ name: "X", fallbackPath }, { env: {} });
      expect([none.text, none.from, none.attempts, none.error]).toEqual(["from-disk", "data-dir", 0, undefined]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe("scores are monotone", () => {
  const asOf = Date.UTC(2026, 0, 1);
  const params = { radiusKm: 200, decayKm: 75, annualRateRef: 1, recentRef: 1 };
  function score(events: EventInput[]) {
    const ix = new EventIndex(writeEventIndex(events));
    return scoreEvents(ix, ix.near(14, 100, 200), INTENSITY.flood, params, asOf, 365, 20).score;
  }
  // Deterministic pseudo-random events (LCG) so failures reproduce.
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const randomEvent = (i: number): EventInput => {
    const t = asOf - rnd() * 20 * 365 * 86_400_000;
    return { id: `e${i}`, source: rnd() < 0.5 ? "DFO" : "GDACS", time: t, endTime: t + 5 * 86_400_000, lat: 14 + (rnd() - 0.5) * 3, lng: 100 + (rnd() - 0.5) * 3, magnitude: rnd() < 0.5 ? 4 + rnd() * 3 : 1 + rnd() * 2, name: "x" };
  };

  it("more, closer or stronger events never lower the score (200 random cases each)", () => {
    for (let k = 0; k < 200; k++) {
      const evs = Array.from({ length: 1 + Math.floor(rnd() * 8) }, (_, i) => randomEvent(i));
      const base = score(evs);
      expect(score([...evs, randomEvent(99)])).toBeGreaterThanOrEqual(base);
      const j = Math.floor(rnd() * evs.length);
      const closer = evs.map((e, i) => (i === j ? { ...e, lat: 14 + (e.lat - 14) / 2, lng: 100 + (e.lng - 100) / 2 } : e));
      expect(score(closer)).toBeGreaterThanOrEqual(base);
      const stronger = evs.map((e, i) => (i === j ? { ...e, magnitude: e.magnitude + 0.5 } : e));
      expect(score(stronger)).toBeGreaterThanOrEqual(base);
    }
  });

  it("hand-computed values", () => {
    // One GDACS alert-2 flood at the point, recent: λ = 2/20 = 0.1, A = 2 → 100(1 - e^-2.1) = 87.8
    expect(score([{ id: "a", source: "GDACS", time: asOf - 86_400_000, endTime: asOf - 86_400_000, lat: 14, lng: 100, magnitude: 2, name: "a" }])).toBe(87.8);
    expect(eventScore(0, 0, params)).toBe(0);
    expect(seaLevelScore(10, 0, { rateRefMmYr: 10, coastDecayKm: 50 })).toBe(63.2);
    expect(seaLevelScore(14, 0, { rateRefMmYr: 10, coastDecayKm: 50 })).toBeGreaterThan(seaLevelScore(10, 0, { rateRefMmYr: 10, coastDecayKm: 50 }));
    expect(seaLevelScore(10, 50, { rateRefMmYr: 10, coastDecayKm: 50 })).toBe(23.3);
    // Anomalies 0,0,0,1: last month z = (1 - 0.25)/0.5 = 1.5 → between the 1.3 → 65 and 1.6 → 80 anchors: 65 + 15·(0.2/0.3) = 75
    expect(heatScore(Float64Array.from([0, 0, 0, 1]), 1).score).toBe(75);
    // A recent month at the record mean (z = 0) is low risk: 20.
    expect(heatScore(Float64Array.from([0, 1, 0, 1, 0.5]), 1).score).toBe(20);
    expect(heatScore(Float64Array.from([0, 0, 0, 2]), 1).score).toBeGreaterThanOrEqual(heatScore(Float64Array.from([0, 0, 0, 1]), 1).score);
  });
});
