// Temperature at cells from stations: normal + anomaly, each by inverse distance; a month no station reports is the
// cell's normal. Synthetic stations with values whose weighted means are worked by hand.
import { describe, expect, it } from "vitest";
import { stationNormals, stationTemperatureGrid, type TemperatureStation } from "../../pipeline/grid/station-temperature.ts";
import { monthIndex } from "../../lib/months.ts";

const Y2000 = monthIndex(2000, 1);
/** A station with `years` years from 2000 of a seasonal cycle plus `offset`, and `extra` added in given months. */
function station(lat: number, lng: number, offset: number, years: number, extra: Record<number, number> = {}): TemperatureStation {
  const tavg = Float64Array.from({ length: years * 12 }, (_, m) => 25 + offset + (m % 12) / 10 + (extra[m] ?? 0));
  return { lat, lng, firstMonth: Y2000, tavg };
}
const BASE = { baselineStart: Y2000, baselineEnd: monthIndex(2009, 12) };

describe("stationNormals", () => {
  it("is the calendar month's mean over the baseline, NaN with fewer years than asked", () => {
    const s = station(10, 100, 0, 12, { 0: 10 }); // January 2000 is 10 °C warmer: the January normal +1 over 10 years
    const n = stationNormals(s, BASE.baselineStart, BASE.baselineEnd, 10);
    expect(n[0]).toBeCloseTo(26, 12);
    expect(n[5]).toBeCloseTo(25.5, 12);
    expect(stationNormals(s, BASE.baselineStart, BASE.baselineEnd, 11)[0]).toBeNaN();
  });
});

describe("stationTemperatureGrid", () => {
  it("at a station it is that station's series; between two it weights normals and anomalies by 1/d²", () => {
    // Two stations on the equator 1° and 3° of longitude from the target: weights 1/1 and 1/9 (distances ∝ degrees).
    const a = station(0, 101, 0, 12, { 120: 2 }); // January 2010: +2 at a
    const b = station(0, 97, 4, 12); // 4 °C warmer throughout
    const g = stationTemperatureGrid([a, b], Float64Array.from([0, 0]), Float64Array.from([101, 100]), Y2000, 144, BASE);
    expect(g.stationsUsed).toBe(2);
    expect(g.normalOnly).toBe(0);
    expect(g.values[120]).toBeCloseTo(27, 5); // target 0 sits on a: a's own value
    const wa = 1, wb = 1 / 9;
    const normal = (wa * 25 + wb * 29) / (wa + wb);
    const anomaly = (wa * 2 + wb * 0) / (wa + wb);
    expect(g.values[144 + 120]).toBeCloseTo(normal + anomaly, 5);
    expect(g.values[144 + 125]).toBeCloseTo(normal + 0.5, 5); // June 2010: no anomaly anywhere
  });

  it("a month no station reports is the cell's normal; a cell beyond every station's range is NaN", () => {
    const a = station(0, 100, 0, 10); // reports 2000–2009 only
    const g = stationTemperatureGrid([a], Float64Array.from([0, 40]), Float64Array.from([100.5, 100]), Y2000, 132, BASE);
    expect(g.values[125]).toBeCloseTo(25.5, 5); // June 2010, no report: the normal
    expect(g.normalOnly).toBe(12);
    expect(g.values[132 + 5]).toBeNaN(); // 40° north, 4,400 km away
  });
});
