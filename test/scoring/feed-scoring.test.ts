// The global feed scoring on synthetic events: the event index's radius search everywhere on the sphere (the
// antimeridian, the poles) against brute force, event sets, the storm record window (frequency over the whole
// record, intensity from the wind era), windless and zero-intensity events, and the partial sort.
import { describe, expect, it } from "vitest";
import { EventIndex, writeEventIndex, type EventInput } from "../../formats/event-index.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";
import { INTENSITY, YEAR_MS, scoreEvents, strongestOf, type Contribution } from "../../lib/feed-risk/scoring.ts";

let seed = 4242;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const ev = (id: string, lat: number, lng: number, extra: Partial<EventInput> = {}): EventInput => ({ id, source: "IBTrACS", time: 0, endTime: 0, lat, lng, magnitude: 64, name: id, ...extra });

describe("EventIndex.near on the whole sphere", () => {
  it("finds exactly the events a brute-force haversine finds, at random points, the poles and the antimeridian", () => {
    const events = Array.from({ length: 3000 }, (_, i) => ev(`e${i}`, Math.asin(2 * rnd() - 1) * (180 / Math.PI), -180 + 360 * rnd()));
    // Clusters across the antimeridian and around both poles.
    for (let i = 0; i < 200; i++) events.push(ev(`d${i}`, -20 + 40 * rnd(), rnd() < 0.5 ? 179 + rnd() : -180 + rnd()));
    for (let i = 0; i < 200; i++) events.push(ev(`p${i}`, (rnd() < 0.5 ? 1 : -1) * (88 + 2 * rnd()), -180 + 360 * rnd()));
    const ix = new EventIndex(writeEventIndex(events));
    const queries: [number, number][] = [[0, 179.95], [0, -179.95], [10, 180], [89.9, 0], [-90, 45], [90, -120]];
    for (let i = 0; i < 200; i++) queries.push([Math.asin(2 * rnd() - 1) * (180 / Math.PI), -180 + 360 * rnd()]);
    for (const [lat, lng] of queries) {
      for (const radius of [50, 300, 1500]) {
        const got = ix.near(lat, lng, radius);
        const found = new Map<number, number>();
        for (let k = 0; k < got.count; k++) found.set(got.index[k], got.distanceKm[k]);
        const want = events.map((e, i) => [i, haversineKm(lat, lng, e.lat, e.lng)] as const).filter(([, d]) => d <= radius);
        expect([...found.keys()].sort((a, b) => a - b), `${lat},${lng} r${radius}`).toEqual(want.map(([i]) => i));
        for (const [i, d] of want) expect(found.get(i)).toBeCloseTo(d, 6);
      }
    }
  });

  it("a storm 22 km away across the date line is found (the search box wraps)", () => {
    const ix = new EventIndex(writeEventIndex([ev("fiji", -17, -179.9)]));
    const got = ix.near(-17, 179.9, 50);
    expect(got.count).toBe(1);
    expect(got.distanceKm[0]).toBeCloseTo(haversineKm(-17, 179.9, -17, -179.9), 9);
  });

  it("event sets round-trip per group; a file without sets reads as one unnamed set", () => {
    const ix = new EventIndex(writeEventIndex([ev("a1", 0, 0, { group: "A", set: "west-pacific" }), ev("b1", 0, 1, { group: "B", set: "global" }), ev("a2", 0, 2, { group: "A", set: "global" })]));
    expect(ix.sets).toEqual(["west-pacific", "global"]);
    expect(Array.from(ix.groupSet)).toEqual([0, 1]);
    const plain = new EventIndex(writeEventIndex([ev("x", 0, 0)]));
    expect(plain.sets).toEqual([""]);
    expect(Array.from(plain.groupSet)).toEqual([0]);
  });
});

describe("scoreEvents with a record window", () => {
  const asOf = Date.UTC(2025, 0, 1);
  const p = { radiusKm: 300, decayKm: 150, annualRateRef: 0.2, recentRef: 0.3 };
  const at = (y: number) => Date.UTC(y, 6, 1);

  it("counts tracks over the whole record, weighs wind from the wind era, takes only the record's set", () => {
    const events = [
      // A storm of 1950 without wind: a track (frequency), no intensity term.
      ev("old", 14, 121, { group: "OLD", time: at(1950), endTime: at(1950), magnitude: NaN, set: "wp" }),
      // A 1990 typhoon at the point, 65 kt: intensity (65 − 25)/40 = 1.
      ev("t90", 14, 121, { group: "T90", time: at(1990), endTime: at(1990), magnitude: 65, set: "wp" }),
      // A storm of another set passing close in 2000: not in this record.
      ev("ni", 14, 121, { group: "NI", time: at(2000), endTime: at(2000), magnitude: 100, set: "global" }),
    ];
    const ix = new EventIndex(writeEventIndex(events));
    const wp = ix.sets.indexOf("wp");
    const window = { start: at(1900), years: (asOf - at(1900)) / YEAR_MS, rateStart: Date.UTC(1977, 0, 1), rateYears: (asOf - Date.UTC(1977, 0, 1)) / YEAR_MS, inRecord: (g: number) => ix.groupSet[g] === wp };
    const h = scoreEvents(ix, ix.near(14, 121, 300), INTENSITY.storm, p, asOf, 365, window);
    expect(h.eventCount).toBe(2);
    expect(h.returnPeriodYears).toBeCloseTo(window.years / 2, 9);
    expect(h.annualRate).toBeCloseTo(1 / window.rateYears, 9);
    expect(h.strongest.map((c) => ix.groups.get(ix.group[c.index]))).toEqual(["T90", "OLD"]);
    // The windless storm carries the depression floor weight 0.05 in the list, not in the rate.
    expect(h.strongest[1].weight).toBeCloseTo(0.05, 9);
  });

  it("a zero-intensity event (FRP 0) still counts as an event, with weight 0", () => {
    const ix = new EventIndex(writeEventIndex([ev("f", 14, 100, { source: "FIRMS-MODIS", magnitude: 0, time: asOf, endTime: asOf })]));
    const h = scoreEvents(ix, ix.near(14, 100, 100), INTENSITY.wildfire, { radiusKm: 100, decayKm: 30, annualRateRef: 10, recentRef: 3 }, asOf, 7, 1);
    expect(h.eventCount).toBe(1);
    expect(h.recentCount).toBe(1);
    expect(h.strongest[0].weight).toBeCloseTo(0, 12);
    expect(h.score).toBe(0);
  });

  it("the same answer whatever the order of the candidates (per-group scratch reset between calls)", () => {
    const events = Array.from({ length: 400 }, (_, i) => ev(`e${i}`, 14 + 4 * (rnd() - 0.5), 121 + 4 * (rnd() - 0.5), { group: `g${i % 37}`, time: at(1980 + (i % 40)), endTime: at(1980 + (i % 40)), magnitude: 30 + 100 * rnd() }));
    const ix = new EventIndex(writeEventIndex(events));
    const near = ix.near(14, 121, 300);
    const a = scoreEvents(ix, near, INTENSITY.storm, p, asOf, 365, 45);
    const rev = { count: near.count, index: near.index.slice(0, near.count).reverse(), distanceKm: near.distanceKm.slice(0, near.count).reverse() };
    const b = scoreEvents(ix, rev, INTENSITY.storm, p, asOf, 365, 45);
    expect(b.score).toBe(a.score);
    expect(b.strongest).toEqual(a.strongest);
    expect(b.eventCount).toBe(a.eventCount);
  });
});

describe("strongestOf", () => {
  it("equals sorting the whole list and taking the first k (ties by event index)", () => {
    for (let t = 0; t < 50; t++) {
      const list: Contribution[] = Array.from({ length: Math.floor(rnd() * 60) }, (_, i) => ({ index: i, distanceKm: 0, weight: Math.round(rnd() * 10) / 10 }));
      const sorted = [...list].sort((a, b) => b.weight - a.weight || a.index - b.index);
      for (const k of [1, 3, 10]) expect(strongestOf(list, k)).toEqual(sorted.slice(0, k));
    }
  });
});
