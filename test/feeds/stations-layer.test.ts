// GET /api/risk-map/stations (the map's heatwave and sea-level layers): the heatwave and sea-level snapshots the global
// setup built from the real data mirror, copied, the real app; each feature is a site of the snapshot with its own
// figures, only the sites in the box (across the antimeridian too), pages walked by their next links, the body valid
// against the OpenAPI document's schema (Ajv), 400/401 in the envelope. (Drought here is the fake service of the server tests.)
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildOpenApi } from "../../server/openapi.ts";
import { stationsCollection } from "../../server/schemas-stations.ts";
import { startFeedsApp, type FeedsApp } from "./feeds-app.ts";
import { privateSnapshots } from "../e2e/real-server.ts";

let app: FeedsApp;

beforeAll(async () => {
  // The station layers' snapshots as the global setup built them from the mirror, in a copy of their own.
  app = await startFeedsApp(privateSnapshots(inject("artifactsDir"), ["heatwave", "sea_level_rise"], "stations-layer-"));
}, 90_000);

afterAll(async () => {
  await app?.stop();
});

const stations = (q: string, headers: Record<string, string> = { "x-api-key": app.key }) => fetch(`${app.base}/api/risk-map/stations?${q}`, { headers });

/** The 200 schema the OpenAPI document gives for the route, compiled by an independent validator. */
function documentedSchema() {
  const doc = buildOpenApi({ bodyLimit: 65536 }) as unknown as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: object }> }> } }> };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return ajv.compile(doc.paths["/api/risk-map/stations"].get.responses["200"].content["application/geo+json"].schema);
}

describe("GET /api/risk-map/stations (map layers)", () => {
  it("heatwave: every GHCN-Daily station of the snapshot in Thailand's box, with its own heatwave figures", async () => {
    const res = await stations("riskType=heatwave&bbox=97,5,106,21");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/geo+json; charset=utf-8");
    const body = await res.json();
    const validate = documentedSchema();
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    const fc = stationsCollection.parse(body);
    const snap = app.feeds.service.snapshot("heatwave");
    const inBox = snap.dailyHeat!.stations.filter((s) => s.lng >= 97 && s.lng <= 106 && s.lat >= 5 && s.lat <= 21);
    expect(inBox.length).toBeGreaterThan(10);
    expect(fc.features.map((f) => f.id)).toEqual(inBox.map((s) => s.id).sort());
    expect(fc.truncated).toBe(false);
    expect(fc.snapshotVersion).toBe(snap.version);
    for (const f of fc.features) {
      const s = inBox.find((x) => x.id === f.id)!;
      expect(f.geometry.coordinates).toEqual([s.lng, s.lat]);
      expect(f.properties).toMatchObject({ name: s.name, heatwaveDays: s.heatwaveDays, heatwaves: s.heatwaves, from: s.from, to: s.to });
    }
  });

  it("sea level: the PSMSL gauges in the box with their trends; pages of limit, walked by next, give each once in order", async () => {
    const body = await (await stations("riskType=sea_level_rise&bbox=90,-12,130,25&limit=2000")).json();
    expect(documentedSchema()(body)).toBe(true);
    const fc = stationsCollection.parse(body);
    const gauges = app.feeds.service.snapshot("sea_level_rise").gauges!.filter((g) => g.lng >= 90 && g.lng <= 130 && g.lat >= -12 && g.lat <= 25);
    expect(gauges.length).toBeGreaterThan(5);
    expect([fc.features.length, fc.numberMatched, fc.truncated, fc.next]).toEqual([gauges.length, gauges.length, false, null]);
    for (const f of fc.features) {
      const g = gauges.find((x) => String(x.id) === f.id)!;
      expect(f.geometry.coordinates).toEqual([g.lng, g.lat]);
      expect((f.properties as { trendMmYr: number }).trendMmYr).toBe(Math.round(g.trendMmYr * 100) / 100);
    }
    // Pages of 7: every next link followed until null gives the one large page, each gauge once.
    const walked: string[] = [];
    let path: string | null = "/api/risk-map/stations?riskType=sea_level_rise&bbox=90,-12,130,25&limit=7";
    while (path !== null) {
      const page = await (await fetch(app.base + path, { headers: { "x-api-key": app.key } })).json();
      expect(documentedSchema()(page)).toBe(true);
      expect(page.numberMatched).toBe(gauges.length);
      expect(page.truncated).toBe(page.next !== null);
      expect(page.links).toEqual(page.next === null ? [] : [{ rel: "next", type: "application/geo+json", href: page.next }]);
      walked.push(...page.features.map((f: { id: string }) => f.id));
      path = page.next;
    }
    expect(walked).toEqual(fc.features.map((f) => f.id));
  });

  it("a box with west > east crosses the antimeridian: its gauges are those of its two halves", async () => {
    const ids = async (bbox: string) => stationsCollection.parse(await (await stations(`riskType=sea_level_rise&bbox=${bbox}&limit=2000`)).json()).features.map((f) => f.id);
    const across = await ids("170,-30,-170,30");
    const halves = [...(await ids("170,-30,180,30")), ...(await ids("-180,-30,-170,30"))].sort();
    expect(across.length).toBeGreaterThan(3);
    expect(across).toEqual(halves);
  });

  it("bad input is a 400 and a missing key a 401, in the envelope", async () => {
    for (const q of ["riskType=flood&bbox=97,5,106,21", "riskType=heatwave", "riskType=heatwave&bbox=97,5,97,21", "riskType=heatwave&bbox=97,21,106,5", "riskType=heatwave&bbox=97,5,106,21&limit=0", "riskType=heatwave&bbox=97,5,106,21&cursor=x"]) {
      const res = await stations(q);
      expect(res.status, q).toBe(400);
      expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
    }
    const res = await stations("riskType=heatwave&bbox=97,5,106,21", {});
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("INVALID_API_KEY");
  });
});
