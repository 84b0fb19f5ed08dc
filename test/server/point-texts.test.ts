// GET drought's JSON answer written from each cell-month's cached text (server/services/point-texts.ts) is the bytes of
// JSON.stringify of the answer object, for points over and around the region, default and asked-for months, found and
// refused points, each freshness flag, and across a change of day (the answer's currency).
import { afterAll, describe, expect, inject, it, vi } from "vitest";
import { ScoreService } from "../../server/services/score-service.ts";
import type { FeedRiskService } from "../../server/services/feed-risk-service.ts";
import { startAppOver } from "./helpers.ts";
import { openDroughtService } from "../../server/services/drought-service.ts";
import { MAX_CACHED_POINT_TEXTS, PointTexts } from "../../server/services/point-texts.ts";
import { UNKNOWN_FRESHNESS, type FreshnessFlag } from "../../server/services/source-status-service.ts";
import type { CellHit } from "../../server/services/drought-point.ts";
import type { DroughtArtifacts } from "../../formats/drought-version.ts";
import type { DroughtGridData } from "../../server/services/types.ts";
import { formatMonth } from "../../lib/months.ts";
import { rng } from "../../bench/random.ts";

const STALE: FreshnessFlag = {
  stale: true,
  staleSources: [{ name: "cpc-precip", title: "CPC \"unified\" precipitation", dataAsOf: "2023-12-31", ageDays: 1064, cadence: "monthly" }],
};

let now = Date.parse("2026-11-29T12:00:00Z");
const { service, store } = await openDroughtService(inject("artifactsDir"), { pollMs: 0, now: () => now });
afterAll(() => store.stop());

/** The answer as the route wrote it before: the object, stringified; or the 404's message. */
function expected(lat: number, lng: number, month: string | undefined, flag: FreshnessFlag): string {
  try {
    return JSON.stringify({ success: true, data: { ...service.drought(lat, lng, month), ...flag } });
  } catch (err) {
    return `404 ${(err as Error).message}`;
  }
}

function got(lat: number, lng: number, month: string | undefined, flag: FreshnessFlag): string {
  try {
    return service.droughtJson(lat, lng, month, flag);
  } catch (err) {
    return `404 ${(err as Error).message}`;
  }
}

describe("GET drought's answer from cached text", () => {
  it("is JSON.stringify's bytes for 3,000 points, default and asked-for months, both flags, the same cells again", () => {
    const grid = store.require().data.grid;
    const months = [undefined, formatMonth(grid.firstMonth), formatMonth(grid.lastMonth), formatMonth(grid.lastMonth - 13)];
    const r = rng(11);
    let found = 0;
    let refused = 0;
    for (let i = 0; i < 3000; i++) {
      // The region's box and a margin (sea, neighbours), as clients send them; every 5th point repeats one (cached).
      const lat = i % 5 === 4 ? 15.2 : Math.round((-2 + r() * 28) * 1e4) / 1e4;
      const lng = i % 5 === 4 ? 102.1 : Math.round((95 + r() * 25) * 1e4) / 1e4;
      const month = months[i % months.length];
      const flag = i % 2 === 0 ? UNKNOWN_FRESHNESS : STALE;
      const want = expected(lat, lng, month, flag);
      expect(got(lat, lng, month, flag), `${lat},${lng} ${month}`).toBe(want);
      if (want.startsWith("404")) refused++;
      else found++;
    }
    expect(found).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(500);
  });

  it("follows a change of day: the answer's currency is worked out again", () => {
    const last = formatMonth(store.require().data.grid.lastMonth);
    const [y, m] = last.split("-").map(Number);
    now = Date.UTC(y, m, 15); // two weeks after the grid's last month: current
    const fresh = got(15.2, 102.1, undefined, UNKNOWN_FRESHNESS);
    expect(fresh).toBe(expected(15.2, 102.1, undefined, UNKNOWN_FRESHNESS));
    expect(JSON.parse(fresh).data.details.currency.current).toBe(true);
    now = Date.UTC(y, m + 12, 15); // a year later: not current
    const old = got(15.2, 102.1, undefined, UNKNOWN_FRESHNESS);
    expect(old).toBe(expected(15.2, 102.1, undefined, UNKNOWN_FRESHNESS));
    expect(JSON.parse(old).data.details.currency.current).toBe(false);
  });
});

describe("GET /api/risk-map/drought through the service main.ts serves (ScoreService over the drought service)", () => {
  it("answers JSON from the cached text, the same bytes; CSV as before", async () => {
    const written = vi.spyOn(service, "droughtJson");
    const app = await startAppOver({ drought: new ScoreService(service, {} as FeedRiskService) }, 1000);
    try {
      const ask = (query: string) => fetch(`${app.base}/api/risk-map/drought?${query}`, { headers: { "x-api-key": app.key } });
      const json = await ask("lat=15.2&lng=102.1");
      expect(json.status).toBe(200);
      // No sources status in this app: the flag is UNKNOWN_FRESHNESS.
      expect(await json.text()).toBe(expected(15.2, 102.1, undefined, UNKNOWN_FRESHNESS));
      expect(written).toHaveBeenCalledTimes(1);
      const csv = await ask("lat=15.2&lng=102.1&format=csv");
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      await csv.text();
      expect(written).toHaveBeenCalledTimes(1);
    } finally {
      written.mockRestore();
      await app.close();
    }
  });
});

describe("PointTexts on a grid of many cells", () => {
  it("keeps at most MAX_CACHED_POINT_TEXTS cell-months (then starts again), and the answers past them stay right", () => {
    const texts = new PointTexts(() => 0);
    const a = { version: "v", grid: { nMonths: 12 } } as unknown as DroughtArtifacts;
    let built = 0;
    const answer = (cell: number): DroughtGridData => {
      built++;
      return {
        location: { requestedLat: 0, requestedLng: 0, gridId: `G-${cell}`, gridLat: cell / 8, gridLng: 100.5, distanceKm: 0, country: "THA" },
        period: { month: "2023-12", monthReason: "requested", climatologyBaseline: "1991-2020" },
        drought: { score: 50 },
        details: { asOf: "2023-12-31" },
      } as unknown as DroughtGridData;
    };
    const n = MAX_CACHED_POINT_TEXTS + 5;
    for (let cell = 0; cell < n; cell++) {
      const hit = { a, cell, distanceKm: 1.234, month: 0, offset: 3, spei1: 0, monthReason: "requested", country: "THA" } as CellHit;
      const text = texts.text(hit, 1.5, 100.25, UNKNOWN_FRESHNESS, () => answer(cell));
      expect(JSON.parse(text).data.location).toEqual({ requestedLat: 1.5, requestedLng: 100.25, gridId: `G-${cell}`, gridLat: cell / 8, gridLng: 100.5, distanceKm: 1.23, country: "THA" });
    }
    // Emptied once full: the 5 cells past the cap are the ones kept.
    expect(texts.cachedCells).toBe(5);
    expect(built).toBe(n);
    const again = { a, cell: n - 1, distanceKm: 0, month: 0, offset: 3, spei1: 0, monthReason: "requested", country: "THA" } as CellHit;
    texts.text(again, 0, 0, UNKNOWN_FRESHNESS, () => answer(n - 1));
    expect(built).toBe(n);
    // Full again, a cached cell-month is still a hit (it does not empty the cache).
    for (let cell = n; texts.cachedCells < MAX_CACHED_POINT_TEXTS; cell++) texts.text({ ...again, cell }, 0, 0, UNKNOWN_FRESHNESS, () => answer(cell));
    const before = built;
    texts.text(again, 0, 0, UNKNOWN_FRESHNESS, () => answer(n - 1));
    expect(built).toBe(before);
    expect(texts.cachedCells).toBe(MAX_CACHED_POINT_TEXTS);
    // A new version starts again.
    texts.text({ ...again, a: { version: "w", grid: { nMonths: 12 } } as unknown as DroughtArtifacts }, 0, 0, UNKNOWN_FRESHNESS, () => answer(n - 1));
    expect(built).toBe(before + 1);
    expect(texts.cachedCells).toBe(1);
  });
});
