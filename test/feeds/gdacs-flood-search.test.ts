// The GDACS flood search archive (the live search API's GeoJSON, merged by event nightly): when a refresh linked it
// into the inputs tree, its floods join the derived table's in the flood snapshot, and a flood newer than the
// mirror's answers at its place.
import { afterAll, describe, expect, inject, it } from "vitest";
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

describe("GDACS flood search archive", () => {
  let server: RealServer | undefined;
  afterAll(() => server?.stop());

  it("reads as event GeoJSON: one record per flood, the polygon widening its box", () => {
    const r = parseGdacsGeoJson(JSON.stringify(search));
    expect(r.records.map((x) => [x.id, x.kind, x.magnitude])).toEqual([["FL-1103990", "flood", 2], ["FL-1103991", "flood", 1]]);
    expect(r.records[0].bbox).toEqual([100.2, 13.5, 100.9, 14.1]);
  });

  it("its floods join the flood snapshot and answer at their place", async () => {
    const tree = inputsTreeWith({ [GDACS_FLOOD_SEARCH_FILE]: JSON.stringify(search) });

    const art = privateArtifacts(inject("artifactsDir"));
    const built = await buildSnapshots({ dataDir: tree, artifactsDir: art.dir, only: ["flood"] });
    expect(built.flood.status).toBe("published");
    server = await startRealServer(art.dir);
    const res = await fetch(`${server.base}/api/risk-map/score`, {
      method: "POST",
      headers: { "x-api-key": server.key, "content-type": "application/json" },
      body: JSON.stringify({ lat: 13.8, lng: 100.55, riskType: "flood", timeframe: "30d" }),
    });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    // The mirror's newest GDACS flood is of 2025; the search archive brings November 2026 (Vietnam's on the 15th
    // is the newest event: the snapshot's as-of).
    expect(data.details.asOf).toBe("2026-11-15T00:00:00.000Z");
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
