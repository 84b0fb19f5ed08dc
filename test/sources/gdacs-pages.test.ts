// GDACS' flood search read page by page: a loopback origin answering 100, 100 and 37 floods for pagenumber 1, 2 and 3
// (the shape of https://www.gdacs.org/gdacsapi/api/events/geteventlist/SEARCH as GDACS' API documentation,
// https://www.gdacs.org/gdacsapi/swagger/index.html, gives it: eventlist, fromdate, todate, alertlevel, pagesize,
// pagenumber; a GeoJSON FeatureCollection of event points with eventtype, eventid, episodeid, alertlevel, country,
// iso3, fromdate, todate). The refresh asks for the three pages and no fourth and keeps all 237 floods; the page cap
// refuses a search that never ends, and an empty answer ends it.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { fetchGeojsonPages } from "../../pipeline/sources/geojson-pages.ts";
import { currentRawDir } from "../../pipeline/sources/raw-cache.ts";
import { GDACS_PAGE_SIZE } from "../../pipeline/sources/registry.ts";
import { startReplay, type Replay } from "./origin-replay.ts";

const flood = (n: number) => ({
  type: "Feature",
  geometry: { type: "Point", coordinates: [100 + (n % 10) / 10, 13 + (n % 7) / 10] },
  properties: { eventtype: "FL", eventid: 1100000 + n, episodeid: 1, name: `Flood ${n}`, alertlevel: "Green", alertscore: 1, country: "Thailand", iso3: "THA", fromdate: "2026-11-01T00:00:00", todate: "2026-11-20T00:00:00" },
});
/** Page sizes the origin answers, by page number. */
const PAGES: Record<number, number> = { 1: 100, 2: 100, 3: 37 };
const page = (p: number) => {
  const first = Object.entries(PAGES).filter(([k]) => Number(k) < p).reduce((s, [, n]) => s + n, 0);
  return { type: "FeatureCollection", features: Array.from({ length: PAGES[p] ?? 0 }, (_, i) => flood(first + i)) };
};

let replay: Replay;
beforeAll(async () => {
  replay = await startReplay((path) => {
    const url = new URL(path, "http://x");
    if (url.pathname === "/o/gdacs_floods") return Buffer.from(JSON.stringify(page(Number(url.searchParams.get("pagenumber")))));
    if (url.pathname === "/endless") return Buffer.from(JSON.stringify({ type: "FeatureCollection", features: [flood(1), flood(2)] }));
    // GDACS answers a page past the last with an empty body.
    if (url.pathname === "/empty-after-two") return Buffer.from(Number(url.searchParams.get("pagenumber")) <= 2 ? JSON.stringify({ type: "FeatureCollection", features: [flood(1), flood(2)] }) : " ");
    return undefined;
  });
});
afterAll(() => replay?.close());

describe("GDACS flood search, every page", () => {
  it("asks pages 1..3 (the third short) and keeps the 237 floods as one FeatureCollection", async () => {
    const artifactsDir = mkdtempSync(join(tmpdir(), "gdacs-pages-"));
    const env = { SOURCE_URL_GDACS_FLOODS: `${replay.base}/o/gdacs_floods`, SOURCES_RETRIES: "0", SOURCES_TIMEOUT_MS: "5000" };
    const [r] = await refreshSources({ dataDir: dataDir(), artifactsDir, env, only: ["gdacs_floods"], progress: { start() {}, source() {} } });
    expect(r).toMatchObject({ source: "gdacs_floods", failed: 0 });
    const asked = replay.asked.filter((p) => p.startsWith("/o/gdacs_floods?")).map((p) => new URL(p, "http://x").searchParams);
    expect(asked.map((q) => q.get("pagenumber"))).toEqual(["1", "2", "3"]);
    expect(asked.every((q) => q.get("pagesize") === String(GDACS_PAGE_SIZE) && q.get("eventlist") === "FL")).toBe(true);
    const kept = JSON.parse(readFileSync(join(currentRawDir(artifactsDir, "gdacs_floods")!, "gdacs_floods.geojson"), "utf8"));
    expect(kept.type).toBe("FeatureCollection");
    expect(kept.features).toHaveLength(237);
    expect(new Set(kept.features.map((f: ReturnType<typeof flood>) => f.properties.eventid)).size).toBe(237);
  });

  it("refuses a search past its page cap; an empty answer ends the pages", async () => {
    const policy = { timeoutMs: 5000, retries: 0, backoffMs: 1, maxBytes: 1 << 20, env: {} };
    await expect(fetchGeojsonPages(`${replay.base}/endless`, { pageSize: 2, maxPages: 3, pageParam: "pagenumber" }, policy)).rejects.toThrow("paged search: more than 3 pages of 2");
    const r = await fetchGeojsonPages(`${replay.base}/empty-after-two?x=1`, { pageSize: 2, maxPages: 10, pageParam: "pagenumber" }, policy);
    expect(r.pages).toBe(3);
    expect(JSON.parse(new TextDecoder().decode(r.bytes)).features).toHaveLength(4);
  });
});
