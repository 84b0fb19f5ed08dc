import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_VERSION, FIXED_DETAILS, FIXED_TIME } from "./fake-service.ts";
import { get, postJson, startTestServer, type TestServer } from "./helpers.ts";
import { API_ROUTES } from "../../server/routes/index.ts";
import { TILE_OPERATIONS } from "../../server/routes/tiles-doc.ts";
import { createTilesRouter } from "../../server/routes/tiles.ts";
import { log } from "../../lib/log.ts";
import { buildOpenApi } from "../../server/openapi.ts";
import { UNKNOWN_FRESHNESS } from "../../server/services/source-status-service.ts";
import { GRID_DEFAULT_MONTH_RULE } from "../../lib/drought/cell-latest.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

/** The time fields the fake service gives every drought answer (June 2024, a day old at the fixed time): passed through as they are. */
const DETAILS = {
  period: { from: "2024-06-01", to: "2024-06-30" },
  asOf: "2024-06-30",
  currency: { current: true, cadence: "monthly", horizonDays: 92, ageDays: 1, note: "current: the data reach 2024-06-30, 1 day before 2024-07-01 (a monthly series is current for 92 days)" },
};

const SCORE_DATA = {
  location: { lat: 13.75, lng: 100.5 },
  riskType: "drought",
  riskScore: 56,
  riskLevel: "medium",
  summary: "D1 Moderate Drought: SPEI-1 -1.00, nearest grid point 3.2 km",
  details: { ...DETAILS, currentConditions: { spei1: -1, spei3: -0.5, spei6: 0.25, spei12: null, severity: "D1", distanceKm: 3.2, month: "2024-06", monthReason: GRID_DEFAULT_MONTH_RULE } },
  dataSources: ["test-grid"],
  timestamp: FIXED_TIME,
};

describe("routes declared once (server/routes/index.ts)", () => {
  type Op = { requestBody?: { content: Record<string, { schema?: object }> }; responses: Record<string, { content?: Record<string, { schema?: object }> }> };
  const doc = buildOpenApi({ bodyLimit: 65536 }) as unknown as { paths: Record<string, Record<string, Op>> };

  it("every route but the document and its page has an operation with a 200 schema, and every POST its body's schema", () => {
    const undocumented = API_ROUTES.filter((r) => r.doc === null).map((r) => r.path);
    expect(undocumented).toEqual(["/openapi.json", "/docs", "/docs/redoc.standalone.js"]);
    for (const r of API_ROUTES.filter((x) => x.doc !== null)) {
      const op = doc.paths[r.path][r.method.toLowerCase()];
      const ok = Object.values(op.responses["200"].content ?? {});
      expect(ok.length, `${r.method} ${r.path}`).toBeGreaterThan(0);
      for (const media of ok) expect(media.schema, `${r.method} ${r.path}`).toBeTypeOf("object");
      if (r.method !== "POST") continue;
      // A JSON body's schema; the bulk route's CSV and NDJSON bodies are text, each media type with its schema.
      const bodies = Object.values(op.requestBody?.content ?? {}) as { schema?: unknown }[];
      expect(bodies.length, `${r.method} ${r.path}`).toBeGreaterThan(0);
      for (const media of bodies) expect(media.schema, `${r.method} ${r.path}`).toBeTypeOf("object");
    }
  });

  it("the running router answers each documented method of each path, and refuses the others with 405", async () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (path.startsWith("/tiles/")) continue;
      const res = await fetch(`${s.base}${path}`, { method: "OPTIONS" });
      expect(res.status, path).toBe(204);
      const documented = Object.keys(ops).map((m) => m.toUpperCase());
      const allowed = res.headers.get("allow")!.split(", ").filter((m) => m !== "HEAD" && m !== "OPTIONS");
      expect(allowed.sort(), path).toEqual(documented.sort());
    }
  });

  it("the tiles router registers exactly the tiles paths the document describes", () => {
    const router = createTilesRouter({ current: () => undefined, logger: log });
    const registered = (router.stack as Array<{ route?: { path: string } }>)
      .flatMap((layer) => (layer.route ? [layer.route.path.replace(/:(\w+)/g, "{$1}")] : []));
    void router.close();
    expect(registered.sort()).toEqual(Object.keys(TILE_OPERATIONS).sort());
  });
});

describe("POST /api/risk-map/score", () => {
  it("returns the envelope with defaults applied", async () => {
    const res = await postJson(s.base, "/api/risk-map/score", { lat: 13.75, lng: 100.5, riskType: "drought" }, s.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-data-version")).toBe(DATA_VERSION);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toEqual({ success: true, data: { ...SCORE_DATA, ...UNKNOWN_FRESHNESS } });
    expect(s.service.calls.at(-1)).toBe("score 13.75 100.5 drought false 30d");
  });

  it("passes includeHistorical and timeframe through", async () => {
    const res = await postJson(s.base, "/api/risk-map/score", { lat: 13.75, lng: 100.5, riskType: "drought", includeHistorical: true, timeframe: "1y" }, s.key);
    expect(res.status).toBe(200);
    expect(s.service.calls.at(-1)).toBe("score 13.75 100.5 drought true 1y");
  });

  it("format=geojson returns a Feature without envelope, longitude first, the answer's period, asOf and currency flat", async () => {
    const res = await postJson(s.base, "/api/risk-map/score?format=geojson", { lat: 13.75, lng: 100.5, riskType: "drought" }, s.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/geo+json; charset=utf-8");
    expect(await res.json()).toEqual({
      type: "Feature",
      geometry: { type: "Point", coordinates: [100.5, 13.75] },
      properties: {
        riskType: "drought",
        riskScore: 56,
        riskLevel: "medium",
        summary: SCORE_DATA.summary,
        spei1: -1,
        spei3: -0.5,
        dataSources: ["test-grid"],
        periodFrom: "2024-06-01",
        periodTo: "2024-06-30",
        asOf: "2024-06-30",
        current: true,
        timestamp: FIXED_TIME,
        ...UNKNOWN_FRESHNESS,
      },
    });
  });

  it("a risk type without data is 404 NOT_FOUND from the service", async () => {
    const res = await postJson(s.base, "/api/risk-map/score", { lat: 13.75, lng: 100.5, riskType: "flood" }, s.key);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      success: false,
      error: { code: "NOT_FOUND", message: "No data for risk type flood", details: { riskType: "flood" } },
    });
  });

  it("a location without data is 404 NOT_FOUND", async () => {
    const res = await postJson(s.base, "/api/risk-map/score", { lat: 48.85, lng: 2.35, riskType: "drought" }, s.key);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      success: false,
      error: { code: "NOT_FOUND", message: "No drought data for this location", details: { lat: 48.85, lng: 2.35 } },
    });
  });
});

describe("GET /api/risk-map/drought", () => {
  it("returns the drought grid result with the default month, the grid's, and its time details", async () => {
    const res = await get(s.base, "/api/risk-map/drought?lat=13.75&lng=100.5", s.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-data-version")).toBe(DATA_VERSION);
    const body = await res.json();
    expect(body).toEqual({
      success: true,
      data: {
        location: { requestedLat: 13.75, requestedLng: 100.5, gridId: "c0042", gridLat: 13.75, gridLng: 100.5, distanceKm: 1.5, country: "THA" },
        period: { month: "2024-06", monthReason: GRID_DEFAULT_MONTH_RULE, climatologyBaseline: "1991-2020" },
        drought: {
          score: 56,
          level: "medium",
          indices: { spei1: -1, spei3: -0.5, spei6: 0.25, spei12: null, spi1: -0.9, mcdi: -0.7 },
          severity: { spei1: "D1" },
        },
        details: DETAILS,
        ...UNKNOWN_FRESHNESS,
      },
    });
    expect(s.service.calls.at(-1)).toBe("drought 13.75 100.5 undefined");
  });

  it("passes the month and parses signed decimals", async () => {
    const res = await get(s.base, "/api/risk-map/drought?lat=%2B13.5&lng=100&month=2023-12", s.key);
    expect(res.status).toBe(200);
    expect(s.service.calls.at(-1)).toBe("drought 13.5 100 2023-12");
    expect((await res.json()).data.period.month).toBe("2023-12");
  });

  it("ignores unknown query parameters (cache busters)", async () => {
    const res = await get(s.base, "/api/risk-map/drought?lat=13.75&lng=100.5&_=123", s.key);
    expect(res.status).toBe(200);
  });
});

describe("GET /api/risk-map/drought/province", () => {
  it("defaults country to THA; the answer carries its time details", async () => {
    const res = await get(s.base, "/api/risk-map/drought/province?name=Bangkok", s.key);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      data: { province: "Bangkok", code: "TH-10", country: "THA", month: "2024-06", score: 20, level: "low", indices: { spei1: 0.1, spei3: 0.2, spei6: 0.3 }, severity: { spei1: null }, details: DETAILS, ...UNKNOWN_FRESHNESS },
    });
    expect(s.service.calls.at(-1)).toBe("province Bangkok THA undefined");
  });

  it("upper-cases the country, trims the name and passes the month", async () => {
    const res = await get(s.base, "/api/risk-map/drought/province?name=%20Bangkok%20&country=tha&month=2020-01", s.key);
    expect(res.status).toBe(200);
    expect(s.service.calls.at(-1)).toBe("province Bangkok THA 2020-01");
  });

  it("an unknown province is 404", async () => {
    const res = await get(s.base, "/api/risk-map/drought/province?name=Atlantis", s.key);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, error: { code: "NOT_FOUND", message: "Unknown province Atlantis (THA)", details: {} } });
  });
});

describe("POST /api/risk-map/batch", () => {
  const locations = [
    { id: "bkk", lat: 13.75, lng: 100.5 },
    { lat: 18.79, lng: 98.98 },
    { id: "paris", lat: 48.85, lng: 2.35 },
  ];
  const results = [
    { id: "bkk", lat: 13.75, lng: 100.5, found: true, month: "2024-06", riskScore: 56, riskLevel: "medium", severity: "D1", spei1: -1 },
    { lat: 18.79, lng: 98.98, found: true, month: "2024-06", riskScore: 56, riskLevel: "medium", severity: "D1", spei1: -1 },
    { id: "paris", lat: 48.85, lng: 2.35, found: false, month: null, riskScore: null, riskLevel: null, severity: null, spei1: null, reason: "outside the grid" },
  ];

  it("format json (default): envelope with count, riskType, results, timestamp; a location without data does not fail", async () => {
    const res = await postJson(s.base, "/api/risk-map/batch", { locations, riskType: "drought" }, s.key);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.data.count).toBe(3);
    expect(body.data.riskType).toBe("drought");
    expect(body.data.results).toEqual(results);
    expect(body.data.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The batch's time: the months its found items are answered for (the service's batchTime).
    expect(body.data.details).toEqual(FIXED_DETAILS);
    expect(body.data).not.toHaveProperty("detailsReason");
  });

  it("a batch with no location found: details null, with the reason", async () => {
    const res = await postJson(s.base, "/api/risk-map/batch", { locations: [{ id: "paris", lat: 48.85, lng: 2.35 }], riskType: "drought" }, s.key);
    const body = await res.json();
    expect(body.data).toMatchObject({ details: null, detailsReason: "no location of the batch has drought data" });
    const geo = await (await postJson(s.base, "/api/risk-map/batch", { locations: [{ lat: 48.85, lng: 2.35 }], riskType: "drought", format: "geojson" }, s.key)).json();
    expect(geo).toMatchObject({ details: null, detailsReason: "no location of the batch has drought data" });
  });

  it("format geojson: FeatureCollection with foreign members", async () => {
    const res = await postJson(s.base, "/api/risk-map/batch", { locations, riskType: "drought", format: "geojson" }, s.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/geo+json; charset=utf-8");
    const body = await res.json();
    expect(body.type).toBe("FeatureCollection");
    expect(body.count).toBe(3);
    expect(body.riskType).toBe("drought");
    expect(body.dataVersion).toBe(DATA_VERSION);
    expect(body.details).toEqual(FIXED_DETAILS);
    // Feature id = the request's id; every Feature has the same property keys, null where there is no value.
    const keys = ["id", "lat", "lng", "found", "month", "riskScore", "riskLevel", "severity", "spei1", "confidence", "confidenceLabel", "reason"];
    expect(body.features).toEqual(
      results.map((r) => ({
        type: "Feature",
        ...(r.id === undefined ? {} : { id: r.id }),
        geometry: { type: "Point", coordinates: [r.lng, r.lat] },
        properties: { id: null, confidence: null, confidenceLabel: null, reason: null, ...r },
      })),
    );
    for (const f of body.features) expect(Object.keys(f.properties).sort()).toEqual([...keys].sort());
  });

  it("accepts exactly 100 locations", async () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ id: `p${i}`, lat: 10 + i / 100, lng: 100 }));
    const res = await postJson(s.base, "/api/risk-map/batch", { locations: many, riskType: "drought" }, s.key);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.count).toBe(100);
    expect(body.data.results[99]).toEqual({ id: "p99", lat: 10.99, lng: 100, found: true, month: "2024-06", riskScore: 56, riskLevel: "medium", severity: "D1", spei1: -1 });
  });
});

describe("operational endpoints", () => {
  it("GET /api/ping with a key", async () => {
    const res = await get(s.base, "/api/ping", s.key);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, data: { pong: true } });
    expect(res.headers.get("ratelimit-limit")).toBe("1000");
  });

  it("/healthz is 200 without a key, /readyz follows deps.ready()", async () => {
    const h = await get(s.base, "/healthz", undefined);
    expect(h.status).toBe(200);
    expect(await h.json()).toEqual({ success: true, data: { status: "ok" } });
    const r1 = await get(s.base, "/readyz", undefined);
    expect(r1.status).toBe(200);
    expect(await r1.json()).toEqual({ success: true, data: { status: "ready", dataVersion: DATA_VERSION } });
    s.ready.value = false;
    try {
      const r2 = await get(s.base, "/readyz", undefined);
      expect(r2.status).toBe(503);
      expect(await r2.json()).toEqual({
        success: false,
        error: { code: "SERVICE_UNAVAILABLE", message: "Drought data is not loaded yet", details: {} },
      });
    } finally {
      s.ready.value = true;
    }
  });

  it("/metrics exposes request counts by route and status and the data version", async () => {
    await get(s.base, "/api/ping", s.key);
    const res = await get(s.base, "/metrics", undefined);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/ping",status="200"\} \d+/);
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.0005",method="GET",route="/api/ping",status="200"}');
    expect(text).toContain('drought_data_version_info{version="test-v1"} 1');
  });

  it("/openapi.json is an OpenAPI 3.1 document generated from the zod schemas", async () => {
    const res = await get(s.base, "/openapi.json", undefined);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBeTypeOf("string");
    // Every declared route but the document itself and its page, and the tiles routes (server/routes/tiles-doc.ts).
    const tiles = ["/tiles/legend.json", "/tiles/index.json", "/tiles/{tileset}.json", "/tiles/{tileset}/{z}/{x}/{y}.{ext}", "/tiles/v/{version}/{tileset}/{z}/{x}/{y}.{ext}", "/tiles/archives/{file}"];
    expect(Object.keys(doc.paths).sort()).toEqual([...API_ROUTES.map((r) => r.path).filter((p) => p !== "/openapi.json" && !p.startsWith("/docs")), ...tiles].sort());
    expect(Object.keys(doc.paths)).toContain("/api/risk-map/drought/exports/drought-cells.parquet");
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: "apiKey", in: "header", name: "X-API-Key" });
    const scoreBody = doc.paths["/api/risk-map/score"].post.requestBody.content["application/json"].schema;
    expect(scoreBody.required).toEqual(["lat", "lng", "riskType"]);
    expect(scoreBody.properties.lat).toMatchObject({ type: "number", minimum: -90, maximum: 90 });
    expect(scoreBody.properties.riskType.enum).toEqual(["drought", "flood", "wildfire", "heatwave", "storm", "sea_level_rise"]);
    expect(scoreBody.additionalProperties).toBe(false);
    const batch = doc.paths["/api/risk-map/batch"].post.requestBody.content["application/json"].schema;
    expect(batch.properties.locations.maxItems).toBe(100);
    const params = doc.paths["/api/risk-map/drought"].get.parameters;
    expect(params.map((p: { name: string; required: boolean }) => [p.name, p.required])).toEqual([["lat", true], ["lng", true], ["month", false], ["format", false]]);
    // Query numbers are typed as the numbers they are read as, the text rule in the description.
    expect(params[0].schema).toEqual({ type: "number", minimum: -90, maximum: 90 });
    expect(params[0].description).toContain("Sent as text and read as this number: a plain decimal (13.75, -0.5)");
    const limit = doc.paths["/api/risk-map/events"].get.parameters.find((p: { name: string }) => p.name === "limit");
    expect(limit.schema).toEqual({ type: "integer", minimum: 1, maximum: 2000, default: 500 });
    expect(params[2].schema.pattern).toBe("^\\d{4}-(0[1-9]|1[0-2])$");
    const ok = doc.paths["/api/risk-map/drought"].get.responses["200"].content["application/json"].schema;
    expect(ok.properties.data.properties.location.required).toContain("gridId");
    // every $ref resolves
    for (const ref of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)) {
      expect(doc.components.schemas[ref[1]]).toBeDefined();
    }
  });

  it("/docs renders the document with Redoc served from here, every operation also in plain HTML for clients without scripts", async () => {
    const res = await get(s.base, "/docs", undefined);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; worker-src blob:; frame-ancestors 'none'",
    );
    const html = await res.text();
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('<redoc spec-url="/openapi.json"');
    expect(html).toContain('<script src="/docs/redoc.standalone.js"></script>');
    const noscript = html.slice(html.indexOf("<noscript>"), html.indexOf("</noscript>"));
    expect(noscript).toContain("<code>POST /api/risk-map/batch</code>");
    expect(noscript).toContain("<code>GET /api/risk-map/drought/province</code>");
    // Nothing from another host.
    expect(html).not.toMatch(/(src|href)="https?:/);
    const bundle = await get(s.base, "/docs/redoc.standalone.js", undefined);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(bundle.headers.get("cache-control")).toBe("public, max-age=86400");
    const js = await bundle.text();
    expect(js.length).toBeGreaterThan(500_000);
    expect(js).toContain("Redoc");
  });
});
