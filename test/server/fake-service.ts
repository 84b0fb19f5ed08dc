// A small in-test DroughtService: fixed numbers for points inside a Thailand-like box (lat 5..21, lng 97..106),
// NotFoundError / found:false outside it, only "Bangkok" as a province.
import { NotFoundError } from "../../server/errors.ts";
import type { BatchItem, DroughtGridData, DroughtService, ProvinceDroughtData, ScoreData, ScoreQuery } from "../../server/services/types.ts";

export const FIXED_TIME = "2024-07-01T00:00:00.000Z";
export const DATA_VERSION = "test-v1";
/** The time fields of the fake answers: June 2024, current at the fixed time (a day old). */
export const FIXED_DETAILS = {
  period: { from: "2024-06-01", to: "2024-06-30" },
  asOf: "2024-06-30",
  currency: { current: true, cadence: "monthly" as const, horizonDays: 92, ageDays: 1, note: "current: the data reach 2024-06-30, 1 day before 2024-07-01 (a monthly series is current for 92 days)" },
};

export function inBox(lat: number, lng: number): boolean {
  return lat >= 5 && lat <= 21 && lng >= 97 && lng <= 106;
}

export class FakeDroughtService implements DroughtService {
  calls: string[] = [];
  constructor(public version = DATA_VERSION) {}

  dataVersion(): string {
    return this.version;
  }

  gridSource(): "stations" {
    return "stations";
  }

  score(q: ScoreQuery): ScoreData {
    this.calls.push(`score ${q.lat} ${q.lng} ${q.riskType} ${q.includeHistorical} ${q.timeframe}`);
    if (q.riskType !== "drought") throw new NotFoundError(`No data for risk type ${q.riskType}`, { riskType: q.riskType });
    if (!inBox(q.lat, q.lng)) throw new NotFoundError("No drought data for this location", { lat: q.lat, lng: q.lng });
    return {
      location: { lat: q.lat, lng: q.lng },
      riskType: "drought",
      riskScore: 56,
      riskLevel: "medium",
      summary: "D1 Moderate Drought: SPEI-1 -1.00, nearest grid point 3.2 km",
      details: {
        ...FIXED_DETAILS,
        currentConditions: { spei1: -1, spei3: -0.5, spei6: 0.25, spei12: null, severity: "D1", distanceKm: 3.2, month: "2024-06", monthReason: "the grid's latest month with every index" },
      },
      dataSources: ["test-grid"],
      timestamp: FIXED_TIME,
    };
  }

  drought(lat: number, lng: number, month?: string): DroughtGridData {
    this.calls.push(`drought ${lat} ${lng} ${month}`);
    if (!inBox(lat, lng)) throw new NotFoundError("No drought data for this location", { lat, lng });
    return {
      location: { requestedLat: lat, requestedLng: lng, gridId: "c0042", gridLat: 13.75, gridLng: 100.5, distanceKm: 1.5, country: "THA" },
      period: { month: month ?? "2024-06", monthReason: month ? "requested" : "the grid's latest month with every index", climatologyBaseline: "1991-2020" },
      drought: {
        score: 56,
        level: "medium",
        indices: { spei1: -1, spei3: -0.5, spei6: 0.25, spei12: null, spi1: -0.9, mcdi: -0.7 },
        severity: { spei1: "D1" },
      },
      details: FIXED_DETAILS,
    };
  }

  province(name: string, country: string, month?: string): ProvinceDroughtData {
    this.calls.push(`province ${name} ${country} ${month}`);
    if (name.toLowerCase() !== "bangkok" || country !== "THA") throw new NotFoundError(`Unknown province ${name} (${country})`);
    return {
      province: "Bangkok",
      code: "TH-10",
      country: "THA",
      month: month ?? "2024-06",
      score: 20,
      level: "low",
      indices: { spei1: 0.1, spei3: 0.2, spei6: 0.3 },
      severity: { spei1: null },
      details: FIXED_DETAILS,
    };
  }

  batchTime(results: readonly BatchItem[]): typeof FIXED_DETAILS | null {
    return results.some((r) => r.found) ? FIXED_DETAILS : null;
  }

  batchItem(id: string | undefined, lat: number, lng: number): BatchItem {
    const base = id === undefined ? { lat, lng } : { id, lat, lng };
    if (!inBox(lat, lng)) {
      return { ...base, found: false, month: null, riskScore: null, riskLevel: null, severity: null, spei1: null, reason: "outside the grid" };
    }
    return { ...base, found: true, month: "2024-06", riskScore: 56, riskLevel: "medium", severity: "D1", spei1: -1 };
  }
}
