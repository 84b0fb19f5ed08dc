// The OpenAPI document against independent tools and against the server itself: swagger-parser validates the
// document (OpenAPI 3.1), and the bodies of a broad set of real requests — every route, answers and errors — are
// validated with Ajv (JSON Schema 2020-12) against the schema documented for their status and content type.
import SwaggerParser from "@apidevtools/swagger-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ERROR_CODES } from "../../server/errors.ts";
import { RISK_TYPES } from "../../server/schemas.ts";
import { DISEASE_TYPES } from "../../server/schemas-outbreak.ts";
import { privateArtifacts, startRealServer, type RealServer } from "./real-server.ts";

type Doc = {
  info: { title: string; description: string; license?: { name: string } };
  paths: Record<string, Record<string, { security?: unknown[]; "x-rate-limited"?: boolean; description?: string; responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
};

let server: RealServer;
let doc: Doc;
beforeAll(async () => {
  // The feed snapshots the map layers and the ports and outbreak answers come from, so their 200s are checked too.
  const priv = privateArtifacts(inject("artifactsDir"), ["flood", "storm", "ports", "outbreaks"]);
  server = await startRealServer(priv.dir);
  doc = (await (await fetch(server.base + "/openapi.json")).json()) as Doc;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe("the OpenAPI document", () => {
  it("is valid for an independent validator (swagger-parser, OpenAPI 3.1)", async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it("says what the service does today, from the same lists as the handlers", () => {
    expect(doc.info.title).toBe("Climate, outbreak and supply-chain risk API");
    for (const t of RISK_TYPES) expect(doc.info.description).toContain(t);
    expect(JSON.stringify(doc)).not.toMatch(/other risk types answer 404|drought only/i);
    expect(doc.info.license?.name).toMatch(/licen/);
    const score = doc.paths["/api/risk-map/score"].post.description!;
    for (const t of RISK_TYPES) expect(score).toContain(t);
    // The outbreak radar answers worldwide (it said "in Thailand" and "outside Thailand's 77 provinces: 404" until
    // the worldwide data landed).
    const outbreak = doc.paths["/api/outbreak-radar/query"].post as { summary?: string; description?: string };
    for (const d of DISEASE_TYPES) expect(outbreak.summary).toContain(d);
    expect(`${outbreak.summary} ${outbreak.description}`).not.toMatch(/in Thailand|outside Thailand/);
  });

  it("documents every error code, 503 on every API operation, RateLimit-* on authenticated answers and Retry-After on 429", () => {
    const code = (doc.components.schemas.Error as { properties: { error: { properties: { code: { enum: string[] } } } } }).properties.error.properties.code;
    expect([...code.enum].sort()).toEqual([...ERROR_CODES].sort());
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (path.startsWith("/api/")) expect(op.responses["503"], where).toBeDefined();
        for (const [status, r] of Object.entries(op.responses)) expect(r.headers?.["X-Data-Version"], `${where} ${status}`).toBeDefined();
        const authed = (op.security === undefined || op.security.length > 0) && op["x-rate-limited"] !== false;
        if (authed) expect(op.responses["200"]?.headers?.["RateLimit-Remaining"] ?? op.responses["206"], where).toBeDefined();
        if (op.responses["429"]) expect(op.responses["429"].headers?.["Retry-After"], where).toBeDefined();
      }
    }
  });
});

describe("every answer matches its documented schema", () => {
  it("validates the bodies of requests to every route, answers and errors", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
    const key = { "X-API-Key": server.key };
    const post = (path: string, body: unknown) => ({ path, init: { method: "POST", headers: { ...key, "Content-Type": "application/json" }, body: JSON.stringify(body) } });
    const get = (path: string, headers: Record<string, string> = key) => ({ path, init: { headers } });
    const requests = [
      get("/healthz", {}),
      get("/readyz", {}),
      get("/api/status", {}),
      get("/api/ping"),
      get("/api/ping", {}),
      get("/api/ping", { "X-API-Key": "crk_wrong" }),
      get("/api/risk-map/drought?lat=13.75&lng=100.5"),
      get("/api/risk-map/drought?lat=13.75&lng=100.5&month=2018-01"),
      get("/api/risk-map/drought?lat=10&lng=100"),
      get("/api/risk-map/drought?lat=abc&lng=100"),
      get("/api/risk-map/drought/province?name=Bangkok"),
      get("/api/risk-map/drought/province?name=Atlantis"),
      get("/api/risk-map/drought/history?lat=13.75&lng=100.5&from=2018-01&to=2018-03"),
      get("/api/risk-map/drought/history?lat=13.75&lng=100.5&from=2019-01&to=2018-01"),
      get("/api/risk-map/drought/province/history?name=Chiang%20Mai&from=2018-01&to=2018-02"),
      get("/api/risk-map/drought/provinces?month=2018-08"),
      get("/api/risk-map/drought/exports"),
      get("/api/risk-map/nowhere"),
      get("/api/risk-map/events?riskType=flood&bbox=97,5,106,21&limit=3"),
      get("/api/risk-map/events?riskType=storm&bbox=97,5,106,21&since=2024-01-01&limit=2"),
      get("/api/risk-map/events?riskType=flood&bbox=97,21,106,5"),
      get("/api/risk-map/events?riskType=storm&bbox=170,-20,-170,20&limit=3"),
      get("/api/risk-map/events?riskType=storm&bbox=170,-20,-170,20&limit=3&cursor=3@20200101T000000Z-0000000000"),
      get("/api/supply-chain/ports?bbox=170,-20,-170,20&limit=2"),
      get("/api/risk-map/profile?lat=13.75&lng=100.5"),
      get("/api/risk-map/profile?lat=48.85&lng=2.35"),
      get("/api/risk-map/profile?lat=abc&lng=2.35"),
      get("/tiles/legend.json", {}),
      get("/tiles/index.json", {}),
      get("/tiles/cells.json"),
      get("/tiles/drought-spei1.json?month=2018-10"),
      get("/tiles/drought-spei1.json?month=1900-01"),
      get("/tiles/drought-spei1/5/24/14.png?month=2018-10"),
      get("/tiles/cells/5/24/14.mvt"),
      get("/tiles/cells/5/24/14.png"),
      get("/tiles/cells/30/0/0.mvt"),
      get("/tiles/cells/5/24/13.mvt", {}),
      get("/tiles/v/20200101T000000Z-0000000000/cells/5/24/14.mvt"),
      get("/tiles/archives/tiles-nothing.pmtiles"),
      get("/api/supply-chain/ports?bbox=97,5,106,21&limit=5"),
      get("/api/supply-chain/ports?bbox=97,5,106"),
      get("/api/outbreak-radar/status?diseaseType=dengue"),
      get("/api/outbreak-radar/status?diseaseType=influenza&timeframe=90d"),
      get("/api/outbreak-radar/status?diseaseType=general"),
      post("/api/risk-map/score", { lat: 13.75, lng: 100.5, riskType: "drought", includeHistorical: true }),
      post("/api/risk-map/score?format=geojson", { lat: 13.75, lng: 100.5, riskType: "drought" }),
      post("/api/risk-map/score", { lat: 13.75, lng: 100.5, riskType: "volcano" }),
      post("/api/risk-map/score", { lat: 13.75, lng: 100.5, riskType: "flood" }),
      post("/api/risk-map/batch", { riskType: "drought", locations: [{ id: "a", lat: 13.75, lng: 100.5 }, { lat: 10, lng: 100 }] }),
      post("/api/risk-map/batch", { riskType: "drought", format: "geojson", locations: [{ id: "a", lat: 13.75, lng: 100.5 }, { lat: 10, lng: 100 }] }),
      post("/api/risk-map/batch", { riskType: "drought", locations: [] }),
      post("/api/outbreak-radar/query", { lat: 13.75, lng: 100.5, disease: "dengue" }),
      post("/api/outbreak-radar/query", { lat: 13.75, lng: 100.5, diseaseType: "dengue" }),
      post("/api/supply-chain/query", { portCode: "THBKK" }),
      post("/api/supply-chain/query", { portCode: "THLCH", queryType: "congestion" }),
      { path: "/api/risk-map/drought?lat=13.75&lng=100.5", init: { method: "DELETE", headers: key } },
    ];
    /** The documented path of a request path: itself, else the template ({tileset}, {z}, …) it fills. */
    const routeOf = (p: string) =>
      Object.keys(doc.paths).find((t) => t === p) ??
      Object.keys(doc.paths).find((t) => new RegExp(`^${t.replace(/[.]/g, "\\.").replace(/\{\w+\}/g, "[^/]+?")}$`).test(p));
    let validated = 0;
    const problems: string[] = [];
    const statuses = new Map<string, number>();
    for (const { path, init } of requests) {
      const r = await fetch(server.base + path, init);
      statuses.set(path, r.status);
      const type = (r.headers.get("content-type") ?? "").split(";")[0];
      const route = routeOf(path.split("?")[0]);
      const method = (init as { method?: string }).method?.toLowerCase() ?? "get";
      const op = route ? doc.paths[route][method] : undefined;
      const documented = op?.responses[String(r.status)]?.content?.[type]?.schema ?? (r.status >= 400 ? { $ref: "doc#/components/schemas/Error" } : undefined);
      if (!documented) {
        problems.push(`${method} ${path}: status ${r.status} ${type} not documented`);
        continue;
      }
      if (!type.includes("json")) {
        // Tiles and files: bytes of the documented type.
        validated++;
        continue;
      }
      const schema = JSON.parse(JSON.stringify(documented).replace(/"#\/components\//g, '"doc#/components/'));
      const body = await r.json();
      const validate = ajv.compile(schema);
      if (!validate(body)) problems.push(`${method} ${path} ${r.status}: ${ajv.errorsText(validate.errors)}`);
      validated++;
    }
    expect(problems).toEqual([]);
    expect(validated).toBe(requests.length);
    // The answers from the snapshots were answers, not 503s.
    for (const path of ["/api/risk-map/events?riskType=flood&bbox=97,5,106,21&limit=3", "/api/supply-chain/ports?bbox=97,5,106,21&limit=5", "/api/outbreak-radar/status?diseaseType=dengue", "/api/risk-map/profile?lat=13.75&lng=100.5", "/tiles/cells/5/24/14.mvt"]) {
      expect(statuses.get(path), path).toBe(200);
    }
  });
});
