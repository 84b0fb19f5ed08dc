// Wildfire science on synthetic detections: vegetation fires only (FIRMS `type`, untyped NRT rows near a typed static
// source), the MODIS/VIIRS factor measured where both sensors overlap, the VIIRS weight on the MODIS scale, and which
// record answers a point (a country's record only inside it; the longest record of a year or more first).
import { describe, expect, it } from "vitest";
import { parseFirmsCsv } from "../../pipeline/feeds/firms.ts";
import { chooseFireRecord, frpIntensity, measureSensorFactor, MIN_OVERLAP_DETECTIONS, observedYears, wildfireIntensity, type SensorDetection } from "../../lib/feed-risk/wildfire.ts";
import { DAY_MS } from "../../lib/feed-risk/scoring.ts";
import type { EventRecord } from "../../formats/feed-snapshot.ts";

const HEADER = "latitude,longitude,brightness,scan,track,acq_date,acq_time,satellite,instrument,confidence,version,bright_t31,frp,daynight,type";

describe("FIRMS archive rows: vegetation fires only", () => {
  it("keeps type 0, leaves out types 1-3, keeps untyped NRT rows unless a typed static source is within ~2 km; acq_time without leading zeros", () => {
    const csv = [
      HEADER,
      "39.0664,22.431,308.5,1.2,1.1,2000-11-01,953,Terra,MODIS,66,6.03,294.9,5.7,D,0",
      "40.5000,22.900,320.0,1.0,1.0,2005-07-01,5,Aqua,MODIS,80,6.03,295.0,30.0,N,2",
      "37.9000,23.600,320.0,1.0,1.0,2005-07-02,1100,Aqua,MODIS,80,6.03,295.0,30.0,D,3",
      "38.0000,21.000,320.0,1.0,1.0,2006-07-02,1100,Aqua,MODIS,80,6.03,295.0,30.0,D,1",
      // NRT rows at the end: no type. The first is 1.1 km from the static source above, the second far from any.
      "40.5100,22.900,320.0,1.0,1.0,2021-06-01,1005,Aqua,MODIS,80,6.1NRT,295.0,25.0,D,",
      "38.8000,23.400,330.0,1.0,1.0,2021-08-03,1105,Terra,MODIS,90,6.1NRT,295.0,90.0,D,",
    ].join("\n");
    const r = parseFirmsCsv(csv, "greece.csv");
    expect(r.records.map((x) => [x.lat, x.type])).toEqual([[39.0664, 0], [38.8, null]]);
    expect(new Date(r.records[0].time).toISOString()).toBe("2000-11-01T09:53:00.000Z");
    expect(r.notVegetation).toEqual({ typed: { 1: 1, 2: 1, 3: 1 }, untypedNearStatic: 1, untypedKept: 1 });
    expect(r.rejected).toBe(0);
  });

  it("a file without a type column (the global NRT files) is kept whole", () => {
    const csv = ["latitude,longitude,brightness,scan,track,acq_date,acq_time,satellite,confidence,version,bright_t31,frp,daynight", "14.1,100.5,310,1,1,2024-03-01,0612,T,50,6.1NRT,290,5,D"].join("\n");
    const r = parseFirmsCsv(csv);
    expect(r.records).toHaveLength(1);
    expect(r.notVegetation).toEqual({ typed: {}, untypedNearStatic: 0, untypedKept: 0 });
  });
});

const det = (sensor: "MODIS" | "VIIRS", day: number, frp = 20): SensorDetection => ({ sensor, time: Date.UTC(2024, 0, 1) + day * DAY_MS + 3600_000, frp });

describe("the MODIS/VIIRS factor", () => {
  it("is the ratio of weighted detections over the days both sensors cover, pooled over records", () => {
    // Record a: MODIS days 0..29, VIIRS days 10..39, 4 VIIRS detections a day for each MODIS one; overlap days 10..29.
    const a: SensorDetection[] = [];
    for (let d = 0; d < 30; d++) a.push(det("MODIS", d, 30));
    for (let d = 10; d < 40; d++) for (let k = 0; k < 4; k++) a.push(det("VIIRS", d, 30));
    // Record b: MODIS alone (no overlap), not counted.
    const b = Array.from({ length: 500 }, (_, i) => det("MODIS", i % 50, 100));
    // Record c: 10 MODIS and 20 VIIRS a day for 10 days.
    const c: SensorDetection[] = [];
    for (let d = 0; d < 10; d++) {
      for (let k = 0; k < 10; k++) c.push(det("MODIS", d, 30));
      for (let k = 0; k < 20; k++) c.push(det("VIIRS", d, 30));
    }
    const f = measureSensorFactor([{ id: "a", detections: a }, { id: "b", detections: b }, { id: "c", detections: c }]);
    // Overlap a: 20 MODIS, 80 VIIRS; c: 100 MODIS, 200 VIIRS → 280 / 120.
    expect(f).toMatchObject({ modisDetections: 120, viirsDetections: 280, overlapDays: 30, records: ["a", "c"] });
    expect(f!.viirsPerModis).toBeCloseTo(280 / 120, 12);
  });

  it("is null without an overlap of a week or with too few detections", () => {
    const short = [...Array.from({ length: 300 }, () => det("MODIS", 0)), ...Array.from({ length: 300 }, () => det("VIIRS", 5))];
    expect(measureSensorFactor([{ id: "s", detections: short }])).toBeNull();
    const few = [...Array.from({ length: MIN_OVERLAP_DETECTIONS - 1 }, (_, i) => det("MODIS", i % 10)), ...Array.from({ length: 400 }, (_, i) => det("VIIRS", i % 10))];
    expect(measureSensorFactor([{ id: "f", detections: few }])).toBeNull();
  });

  it("divides a VIIRS detection's weight by the factor; MODIS and GDACS as they are; no factor: VIIRS as it is", () => {
    const k = wildfireIntensity(4);
    expect(k(100, "FIRMS-VIIRS")).toBeCloseTo(frpIntensity(100) / 4, 12);
    expect(k(100, "FIRMS-MODIS")).toBeCloseTo(Math.log1p(10), 12);
    expect(k(2, "GDACS")).toBe(2);
    expect(wildfireIntensity(undefined)(100, "FIRMS-VIIRS")).toBeCloseTo(frpIntensity(100), 12);
    expect(wildfireIntensity(4)).toBe(k);
  });
});

describe("which fire record answers", () => {
  const rec = (id: string, bbox: [number, number, number, number], years: number, country?: string): EventRecord => ({ id, name: id, start: "2000-01-01", end: "2021-01-01", events: 1, bbox, years, ...(country ? { country } : {}) });
  const records = [rec("global-nrt", [-180, -90, 180, 90], 7 / 365), rec("rhodes-2023", [27, 35, 29, 37], 10 / 365), rec("greece", [19, 34, 29, 42], 20.8, "GRC"), rec("malaysia", [99, 0, 120, 8], 1.8, "MYS")];
  it("the longest record of a year or more whose extent holds the point, a country's only inside that country", () => {
    expect(chooseFireRecord(records, 36.09, 28.08, "GRC")?.id).toBe("greece");
    // Izmir lies inside the Greek file's box but in Turkey: the Greek record does not answer it.
    expect(chooseFireRecord(records, 38.42, 27.14, "TUR")?.id).toBe("global-nrt");
    expect(chooseFireRecord(records, 3.14, 101.69, "MYS")?.id).toBe("malaysia");
    expect(chooseFireRecord(records.slice(1), 38.42, 27.14, "TUR")).toBeUndefined();
    expect(chooseFireRecord(records.slice(1, 2), 36.09, 28.08, "GRC")?.id).toBe("rhodes-2023");
  });
});

describe("the years a fire record observed", () => {
  const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`);
  it("is first to last detection, less every gap of more than two years without one", () => {
    // The mirror's 2-day 2018 sample with live rows of 2026 merged into it: 30 days observed, not eight years.
    const merged = [day("2018-05-23"), day("2018-05-25"), day("2026-10-01"), day("2026-10-15"), day("2026-10-29")];
    expect(observedYears(merged) * 365.2425).toBeCloseTo(2 + 28, 6);
    // A multi-year archive that burns only in July (gaps of 366 days across leap years) keeps its whole span.
    const archive = [day("2000-11-01"), day("2001-06-01"), day("2001-12-18"), day("2021-08-10")].concat(Array.from({ length: 20 }, (_, i) => day(`${2002 + i}-07-01`)));
    expect(observedYears(archive)).toBeCloseTo((day("2021-08-10") - day("2000-11-01")) / (365.2425 * DAY_MS), 9);
    // Order does not matter; nothing or one detection is one day.
    expect(observedYears([...merged].reverse())).toBe(observedYears(merged));
    expect(observedYears([])).toBe(1 / 365.2425);
    expect(observedYears([day("2020-01-01")])).toBe(1 / 365.2425);
  });
});
