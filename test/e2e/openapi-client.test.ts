// A client generated from the served /openapi.json compiles and works: openapi-typescript turns the document into
// TypeScript types, a small program calls four endpoints (batch in both typed media types) through openapi-fetch with them, tsc type-checks it
// (strict; numbers are numbers: passing lat as text must not compile), and the program runs against the real server
// on loopback and gets what plain fetch gets.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { privateArtifacts, startRealServer, type RealServer } from "./real-server.ts";

let server: RealServer;
let dir: string;
beforeAll(async () => {
  const priv = privateArtifacts(inject("artifactsDir"), ["ports"]);
  server = await startRealServer(priv.dir);
  // Inside the project, so that the program resolves openapi-fetch from its node_modules.
  mkdirSync(join(PROJECT_ROOT, "test-output"), { recursive: true });
  dir = mkdtempSync(join(PROJECT_ROOT, "test-output", "openapi-client-"));
}, 180_000);
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const PROGRAM = `import createClient from "openapi-fetch";
import type { paths } from "./api.ts";

export async function run(baseUrl: string, key: string) {
  // One client per media type of the answers it reads (some operations also answer CSV or GeoJSON). bbox is
  // documented as style form, explode false: four numbers joined by commas.
  const options = { baseUrl, headers: { "X-API-Key": key }, querySerializer: { array: { style: "form", explode: false } } } as const;
  const json = createClient<paths, "application/json">(options);
  const geojson = createClient<paths, "application/geo+json">(options);
  const drought = await json.GET("/api/risk-map/drought", { params: { query: { lat: 13.75, lng: 100.5 } } });
  const score = await json.POST("/api/risk-map/score", { body: { lat: 13.75, lng: 100.5, riskType: "drought" } });
  const ports = await geojson.GET("/api/supply-chain/ports", { params: { query: { bbox: [170, -20, -170, 20], limit: 2 } } });
  const missing = await json.GET("/api/risk-map/drought", { params: { query: { lat: 48.85, lng: 2.35 } } });
  // The batch answer in its two typed media types, each read without a guard: the JSON envelope by the JSON client,
  // the FeatureCollection by the GeoJSON one (CSV is text).
  const locations = [{ id: "bkk", lat: 13.75, lng: 100.5 }, { id: "sea", lat: 10, lng: 100 }];
  const batch = await json.POST("/api/risk-map/batch", { body: { riskType: "drought", locations } });
  const batchGeo = await geojson.POST("/api/risk-map/batch", { body: { riskType: "drought", locations, format: "geojson" } });
  // Typed reads: a wrong field or type here would not compile.
  const gridId: string | undefined = drought.data?.data.location.gridId;
  const spei1: number | null | undefined = drought.data?.data.drought.indices.spei1;
  const level: "low" | "medium" | "high" | "critical" | undefined = score.data?.data.riskLevel;
  const next: string | null | undefined = ports.data?.next;
  const portIds: string[] | undefined = ports.data?.features.map((f) => f.id);
  const notFound: string | undefined = missing.error?.error.code;
  const batchScores: (number | null)[] | undefined = batch.data?.data.results.map((r) => r.riskScore);
  // An item is found or not (the discriminant), no media-type guard before it.
  const first = batch.data?.data.results[0];
  const batchMonth: string | undefined = first?.found ? first.month : undefined;
  const batchReason: string | undefined = batch.data?.data.results[1]?.found === false ? batch.data.data.results[1].reason : undefined;
  const featureIds: (string | undefined)[] | undefined = batchGeo.data?.features.map((f) => f.id);
  return {
    statuses: [drought.response.status, score.response.status, ports.response.status, missing.response.status, batch.response.status, batchGeo.response.status],
    drought: drought.data,
    score: score.data,
    ports: ports.data,
    missing: missing.error,
    batch: batch.data,
    typed: { gridId, spei1, level, next, portIds, notFound, batchScores, batchMonth, batchReason, featureIds },
  };
}

export function wrongTypes(baseUrl: string) {
  const client = createClient<paths, "application/json">({ baseUrl });
  // @ts-expect-error lat is a number, not its text
  void client.GET("/api/risk-map/drought", { params: { query: { lat: "13.75", lng: 100.5 } } });
  // @ts-expect-error riskType is one of the risk types
  void client.POST("/api/risk-map/score", { body: { lat: 13.75, lng: 100.5, riskType: "volcano" } });
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2022", "DOM"],
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    // Checks the generated api.ts and the program, not the libraries' own declarations.
    skipLibCheck: true,
    types: [],
  },
  files: ["client.ts"],
};

describe("a TypeScript client generated from /openapi.json", () => {
  it("compiles with tsc and calls four endpoints (batch in JSON and GeoJSON) on the running server, getting what plain fetch gets", async () => {
    const doc = await (await fetch(`${server.base}/openapi.json`)).json();
    const types = astToString(await openapiTS(doc));
    expect(types).toContain('"/api/risk-map/profile"');
    writeFileSync(join(dir, "api.ts"), types);
    writeFileSync(join(dir, "client.ts"), PROGRAM);
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
    // tsc exits non-zero on any error, an unused @ts-expect-error included: lat typed as text would be one.
    const tsc = spawnSync(process.execPath, [join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe("");
    expect(tsc.status).toBe(0);

    const program = (await import(join(dir, "client.ts"))) as { run: (base: string, key: string) => Promise<Record<string, unknown> & { typed: Record<string, unknown>; statuses: number[] }> };
    const got = await program.run(server.base, server.key);
    expect(got.statuses).toEqual([200, 200, 200, 404, 200, 200]);
    const plain = (path: string, init: RequestInit = {}) => fetch(server.base + path, { ...init, headers: { "X-API-Key": server.key, "Content-Type": "application/json" } }).then((r) => r.json());
    expect(got.drought).toEqual(await plain("/api/risk-map/drought?lat=13.75&lng=100.5"));
    expect(got.ports).toEqual(await plain("/api/supply-chain/ports?bbox=170,-20,-170,20&limit=2"));
    expect(got.missing).toEqual(await plain("/api/risk-map/drought?lat=48.85&lng=2.35"));
    const score = (await plain("/api/risk-map/score", { method: "POST", body: JSON.stringify({ lat: 13.75, lng: 100.5, riskType: "drought" }) })) as { data: { timestamp: string } };
    const clientScore = got.score as { data: { timestamp: string } };
    expect({ ...clientScore.data, timestamp: "" }).toEqual({ ...score.data, timestamp: "" });
    const drought = got.drought as { data: { location: { gridId: string }; drought: { indices: { spei1: number } } } };
    const batch = (await plain("/api/risk-map/batch", { method: "POST", body: JSON.stringify({ riskType: "drought", locations: [{ id: "bkk", lat: 13.75, lng: 100.5 }, { id: "sea", lat: 10, lng: 100 }] }) })) as { data: { timestamp: string; results: { riskScore: number | null; month: string | null; reason?: string }[] } };
    expect({ ...(got.batch as typeof batch).data, timestamp: "" }).toEqual({ ...batch.data, timestamp: "" });
    expect(got.typed).toEqual({
      gridId: drought.data.location.gridId,
      spei1: drought.data.drought.indices.spei1,
      level: (got.score as { data: { riskLevel: string } }).data.riskLevel,
      next: (got.ports as { next: string }).next,
      portIds: ["FJSUV", "FJLTK"],
      notFound: "NOT_FOUND",
      batchScores: batch.data.results.map((r) => r.riskScore),
      batchMonth: batch.data.results[0].month,
      batchReason: batch.data.results[1].reason,
      featureIds: ["bkk", "sea"],
    });
    expect(got.typed.batchScores).toEqual([expect.any(Number), null]);
    expect(got.typed.gridId).toMatch(/^SEA100-\d+$/);
  }, 120_000);
});
