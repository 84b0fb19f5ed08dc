// The GDACS flood search archive (the live search API's GeoJSON, merged by event nightly): when a refresh linked it
// into the inputs tree, its floods join the derived table's in the flood snapshot, and a flood newer than the
// mirror's answers at its place.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { geometryEndpoint, geometryRequests } from "../../pipeline/feeds/gdacs-geometry.ts";
import { sourceByName } from "../../pipeline/sources/registry.ts";
import { parseGdacsGeoJson } from "../../pipeline/feeds/gdacs.ts";
import { buildSnapshots } from "../../pipeline/snapshots/build-snapshots.ts";
import { GDACS_FLOOD_SEARCH_FILE } from "../../pipeline/snapshots/feed-builders.ts";
import { inputsTreeWith } from "../e2e/inputs-tree.ts";
import { privateArtifacts, startRealServer, type RealServer } from "../e2e/real-server.ts";

// Two floods as the search API lists them: a point feature per event (and a polygon that widens its box).
const search = {
  type: "FeatureCollection",
  features: [
    {
      type: "Feature",
      geometry: { type: "Point", coordinates: [100.55, 13.8] },
      properties: { eventtype: "FL", eventid: 1103990, episodeid: 3, name: "Flood in Thailand", alertlevel: "Orange", alertscore: 2, country: "Thailand", iso3: "THA", fromdate: "2026-11-10T00:00:00", todate: "2026-11-21T00:00:00" },
    },
    {
      type: "Feature",
      geometry: { type: "Polygon", coordinates: [[[100.2, 13.5], [100.9, 13.5], [100.9, 14.1], [100.2, 14.1], [100.2, 13.5]]] },
      properties: { eventtype: "FL", eventid: 1103990, Class: "Poly_Affected" },
    },
    {
      type: "Feature",
      geometry: { type: "Point", coordinates: [105.85, 21.03] },
      properties: { eventtype: "FL", eventid: 1103991, episodeid: 1, name: "Flood in Vietnam", alertlevel: "Green", alertscore: 1, country: "Viet Nam", iso3: "VNM", fromdate: "2026-11-15T00:00:00", todate: "2026-11-18T00:00:00" },
    },
  ],
};

/** A flood snapshot built from the mirror plus `files`, a real server on it, and its 30-day flood answer at a point. */
async function floodAnswer(files: Record<string, string>, lat: number, lng: number, today = "2026-11-15"): Promise<{ server: RealServer; res: Response }> {
  const art = privateArtifacts(inject("artifactsDir"));
  const built = await buildSnapshots({ dataDir: inputsTreeWith(files), artifactsDir: art.dir, only: ["flood"] });
  expect(built.flood.status).toBe("published");
  // The server's day (default: the search archive's newest flood), so that the 30-day window is the data's.
  const server = await startRealServer(art.dir, { CLOCK_TODAY: today });
  const res = await fetch(`${server.base}/api/risk-map/score`, {
    method: "POST",
    headers: { "x-api-key": server.key, "content-type": "application/json" },
    body: JSON.stringify({ lat, lng, riskType: "flood", timeframe: "30d" }),
  });
  return { server, res };
}

describe("GDACS flood search archive", () => {
  let server: RealServer | undefined;
  afterAll(() => server?.stop());

  it("reads as event GeoJSON: one record per flood, the polygon widening its box", () => {
    const r = parseGdacsGeoJson(JSON.stringify(search));
    expect(r.records.map((x) => [x.id, x.kind, x.magnitude])).toEqual([["FL-1103990", "flood", 2], ["FL-1103991", "flood", 1]]);
    expect(r.records[0].bbox).toEqual([100.2, 13.5, 100.9, 14.1]);
  });

  it("its floods join the flood snapshot and answer at their place", async () => {
    const { server: started, res } = await floodAnswer({ [GDACS_FLOOD_SEARCH_FILE]: JSON.stringify(search) }, 13.8, 100.55);
    server = started;
    expect(res.status).toBe(200);
    const { data } = await res.json();
    // The mirror's newest GDACS flood is of 2025; the search archive brings November 2026 (Vietnam's on the 15th
    // is the newest event: the snapshot's as-of).
    expect(data.details.asOf).toBe("2026-11-15");
    expect(data.details.period).toEqual({ from: "1985-01-01", to: "2026-11-15" });
    // GDACS floods within 50 km of a DFO footprint of the same days are DFO's: the GDACS record starts in 2017.
    expect(data.details.coverage.dataset).toContain("GDACS flood events 2017-01-22..2026-11-15");
    expect(data.details.flood.recent).toMatchObject({ from: "2026-10-16", to: "2026-11-15", events: 1, floor: 60 });
    // An orange alert (weight 1) whose affected-area polygon (in the search answer) covers the query point.
    expect(data.details.flood.contributingEvents.find((e: { id: string }) => e.id === "FL-1103990")).toEqual({
      id: "FL-1103990", name: "Flood in Thailand", source: "GDACS", date: "2026-11-10", endDate: "2026-11-21", distanceKm: 0, weight: 1, footprint: "polygon",
    });
    expect(data.riskScore).toBeGreaterThanOrEqual(60);
  }, 120_000);
});

describe("GDACS flood geometry (polygons/getgeometry)", () => {
  let server: RealServer | undefined;
  afterAll(() => server?.stop());

  it("a refresh asks for the affected area of every flood of the last 60 days the previous archive listed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gdacs-geom-"));
    const old = { ...search.features[2], properties: { ...search.features[2].properties, eventid: 1100001, fromdate: "2026-08-01T00:00:00" } };
    writeFileSync(join(dir, "gdacs_floods.geojson"), JSON.stringify({ ...search, features: [...search.features, old] }));
    const reqs = geometryRequests(join(dir, "gdacs_floods.geojson"), "https://www.gdacs.org/gdacsapi/api/events/geteventlist/SEARCH", new Date("2026-11-26T00:00:00Z"));
    // The GDACS flood table's geometry_url has this form: polygons/getgeometry?eventtype=FL&eventid=…&episodeid=…
    expect(reqs).toEqual([
      { id: "FL-1103990", url: "https://www.gdacs.org/gdacsapi/api/polygons/getgeometry?eventtype=FL&eventid=1103990&episodeid=3", file: "geometry/FL-1103990.geojson" },
      { id: "FL-1103991", url: "https://www.gdacs.org/gdacsapi/api/polygons/getgeometry?eventtype=FL&eventid=1103991&episodeid=1", file: "geometry/FL-1103991.geojson" },
    ]);
    expect(geometryEndpoint("http://127.0.0.1:9/o/gdacs_floods")).toBe("http://127.0.0.1:9/o/gdacs_floods/polygons/getgeometry");
    expect(geometryRequests(join(dir, "missing.geojson"), "https://x", new Date())).toEqual([]);
    // The registry lists them as downloads linked into the inputs tree under feeds/gdacs/geometry/.
    const specs = await sourceByName("gdacs_floods")!.resources({ origin: "https://www.gdacs.org/gdacsapi/api/events/geteventlist/SEARCH", dataDir: dir, currentDir: dir, env: {}, now: new Date("2026-11-26T00:00:00Z") });
    expect(specs.filter((s) => s.file.startsWith("geometry/")).map((s) => s.dataDirFile)).toEqual(["feeds/gdacs/geometry/FL-1103990.geojson", "feeds/gdacs/geometry/FL-1103991.geojson"]);
  });

  it("a fetched geometry's affected area is the flood's footprint: a point 80 km from the event point is covered", async () => {
    // The Vietnam flood's point is Hanoi (105.85E 21.03N); its affected area as the geometry endpoint answers it
    // reaches Nam Dinh, ~80 km south-east, beyond the 50 km disc a point alone would get.
    const geometry = {
      type: "FeatureCollection",
      features: [
        { type: "Feature", geometry: { type: "Polygon", coordinates: [[[105.6, 20.2], [106.5, 20.2], [106.5, 21.2], [105.6, 21.2], [105.6, 20.2]]] }, properties: { eventtype: "FL", eventid: 1103991, episodeid: 1, Class: "Poly_Affected", polygonlabel: "Affected area" } },
        { type: "Feature", geometry: { type: "Polygon", coordinates: [[[100, 10], [110, 10], [110, 25], [100, 25], [100, 10]]] }, properties: { eventtype: "FL", eventid: 1103991, Class: "Poly_Global" } },
      ],
    };
    const { server: started, res } = await floodAnswer({ [GDACS_FLOOD_SEARCH_FILE]: JSON.stringify(search), "feeds/gdacs/geometry/FL-1103991.geojson": JSON.stringify(geometry) }, 20.43, 106.17);
    server = started;
    const { data } = await res.json();
    // The only flood of the 30 days before the as-of (2026-11-15) that covers the point is the Vietnam one (green:
    // floor 30); without its polygon, the 50 km disc around Hanoi would not reach here and recent.events would be 0.
    expect(data.details.flood.recent).toMatchObject({ events: 1, floor: 30 });
  }, 120_000);
});
