// The examples of the OpenAPI document are the service's own answers. This file lists, per operation, the requests
// whose answers are its examples, sends them to the real server (server/main.ts over the data mirror's drought build
// and every snapshot) and compares the answers with server/openapi-examples.json, but for what changes from build to
// build or from request to request (times, versions, freshness, host and port). With UPDATE_OPENAPI_EXAMPLES=1 it
// writes the file from the answers instead. Every example must also match its documented schema, and every operation
// and error response of the document must carry one.
import { writeFileSync } from "node:fs";
import express from "express";
import { pino } from "pino";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { errorHandler } from "../../server/http/error-handler.ts";
import { listen } from "../../server/serve.ts";
import { createTilesRouter } from "../../server/routes/tiles.ts";
import { buildOpenApi } from "../../server/openapi.ts";
import { EXAMPLES_FILE, loadExamples, type Example, type ExampleFile, type RecordedRequest } from "../../server/openapi-examples.ts";
import { ALL_SNAPSHOTS, privateArtifacts, startRealServer, writeE2eKeys, type RealServer } from "./real-server.ts";
import { rawExchange } from "../server/raw-http.ts";

const UPDATE = process.env.UPDATE_OPENAPI_EXAMPLES === "1";
const silent = pino({ level: "silent" });

let server: RealServer;
let tight: string;
let droughtVersion: string;
beforeAll(async () => {
  const priv = privateArtifacts(inject("artifactsDir"), ALL_SNAPSHOTS);
  droughtVersion = priv.version;
  const keys = writeE2eKeys([{ id: "key_tight", plan: "tight" }]);
  tight = keys.extra.key_tight;
  // CLOCK_TODAY: the answers' currency (ageDays, notes, recent windows) is counted to a fixed day, so that the recorded
  // examples are the same answers on every day the test runs (docs/methods/currency.md "The clock").
  const env = { RATE_LIMITS: JSON.stringify({ enterprise: { points: 1_000_000, duration: 60 }, tight: { points: 1, duration: 60 } }), CLOCK_TODAY: "2026-11-28" };
  server = await startRealServer(priv.dir, env, keys);
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

interface Spec {
  /** operationId, or "*" for an error any operation may answer. */
  op: string;
  name: string;
  summary: string;
  method?: "GET" | "POST" | "DELETE";
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Which key to send: the enterprise key (default), the one-point key, or none. */
  key?: "enterprise" | "tight" | "none";
  /** This request's parameters and body are the operation's examples. */
  main?: true;
  /** The answer is bytes (a tile, a file): only the request is an example. */
  binary?: true;
  /** Keep a part of a text answer. */
  pick?: (text: string) => string;
  /** Answers that no request to the full server gives: made by a raw exchange or another server. */
  answer?: () => Promise<{ status: number; type: string; body: unknown }>;
}

const Q = (lat: number, lng: number) => `lat=${lat}&lng=${lng}`;
const BANGKOK = { lat: 13.75, lng: 100.5 };
const PARIS = { lat: 48.85, lng: 2.35 };
const STALE_CURSOR = "cursor=2@20200101T000000Z-0000000000";

function specs(): Spec[] {
  const exportSpecs = ["drought-cells.parquet", "drought-cells.csv.gz", "province-summaries.parquet", "province-summaries.csv.gz"].map(
    (name): Spec => ({ op: `droughtExport_${name.replace(/[^a-z0-9]+/g, "_")}`, name: "firstBytes", summary: `The first 4 bytes of ${name}`, path: `/api/risk-map/drought/exports/${name}`, headers: { Range: "bytes=0-3" }, main: true, binary: true }),
  );
  return [
    // Errors any operation may answer.
    { op: "*", name: "400", summary: "A query parameter that is not a number (GET /api/risk-map/drought?lat=abc&lng=100.5)", path: "/api/risk-map/drought?lat=abc&lng=100.5" },
    { op: "*", name: "401", summary: "No X-API-Key header (GET /api/ping)", path: "/api/ping", key: "none" },
    { op: "*", name: "404", summary: "A path the service does not have (GET /api/risk-map/nowhere)", path: "/api/risk-map/nowhere" },
    { op: "*", name: "405", summary: "DELETE on a GET route", method: "DELETE", path: `/api/risk-map/drought?${Q(13.75, 100.5)}` },
    { op: "*", name: "413", summary: "A 70,000-byte body (POST /api/risk-map/score; the limit is 65,536)", method: "POST", path: "/api/risk-map/score", body: { ...BANGKOK, riskType: "drought", pad: "x".repeat(70_000) } },
    { op: "*", name: "415", summary: "A text/plain body", method: "POST", path: "/api/risk-map/score", headers: { "Content-Type": "text/plain" }, body: "lat=13.75" },
    { op: "*", name: "429", summary: "The second request in a minute of a key whose plan allows one", path: "/api/ping", key: "tight" },
    { op: "*", name: "412", summary: "If-Match with another ETag than the file's", path: "/api/risk-map/drought/exports/province-summaries.csv.gz", headers: { "If-Match": '"not-the-file"' } },
    { op: "*", name: "416", summary: "A range past the end of the file", path: "/api/risk-map/drought/exports/province-summaries.csv.gz", headers: { Range: "bytes=999999999-" } },
    { op: "*", name: "408", summary: "Headers still incomplete after HEADERS_TIMEOUT_MS (the connection is closed)", path: "/api/ping", answer: () => aside("/api/ping", ["GET /api/ping HTTP/1.1\r\nHost: localhost\r\n"]) },
    { op: "*", name: "417", summary: "Expect: other than 100-continue", path: "/api/ping", answer: () => raw([`GET /api/ping HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${server.key}\r\nExpect: 200-ok\r\n\r\n`]) },
    { op: "*", name: "431", summary: "20 KiB of request headers (the connection is closed)", path: "/api/ping", answer: () => raw([`GET /api/ping HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(20_480)}\r\n\r\n`]) },
    { op: "*", name: "500", summary: "An unexpected failure inside a handler, as the error handler answers it (no request to the service makes one)", path: "/", answer: () => aside("/boom") },
    { op: "*", name: "503", summary: "Before the drought data are loaded (a server starting up)", path: "/tiles/index.json", answer: () => aside("/tiles/index.json") },

    { op: "riskScore", name: "bangkokFlood", summary: "Flood at Bangkok", method: "POST", path: "/api/risk-map/score", body: { ...BANGKOK, riskType: "flood" }, main: true },
    { op: "riskScore", name: "bangkokDroughtFeature", summary: "Drought at Bangkok as a GeoJSON Feature", method: "POST", path: "/api/risk-map/score?format=geojson", body: { ...BANGKOK, riskType: "drought" } },
    { op: "riskScore", name: "unknownRiskType", summary: "A riskType the service does not know", method: "POST", path: "/api/risk-map/score", body: { ...BANGKOK, riskType: "volcano" } },
    { op: "riskScore", name: "droughtInParis", summary: "Drought outside the drought region (Thailand, Vietnam, Malaysia)", method: "POST", path: "/api/risk-map/score", body: { ...PARIS, riskType: "drought" } },
    { op: "riskScore", name: "bangkokStorm", summary: "Storm at Bangkok: the West Pacific record, not current; no data for the 30 days to today", method: "POST", path: "/api/risk-map/score", body: { ...BANGKOK, riskType: "storm" } },
    { op: "riskScore", name: "bangkokHeatwaveNotCurrent", summary: "Heatwave at Bangkok: the nearest daily station's latest full year (2017) is not current", method: "POST", path: "/api/risk-map/score", body: { ...BANGKOK, riskType: "heatwave" } },
    { op: "riskScore", name: "hobartWildfireShortRecord", summary: "Wildfire at Hobart: the only fire record there spans two months of 2019, too short for a level", method: "POST", path: "/api/risk-map/score", body: { lat: -42.88, lng: 147.33, riskType: "wildfire" } },

    { op: "droughtAtPoint", name: "bangkok", summary: "Bangkok, the grid's default month (its latest with every index)", path: `/api/risk-map/drought?${Q(13.75, 100.5)}`, main: true },
    { op: "droughtAtPoint", name: "bangkokCsv", summary: "Bangkok as CSV", path: `/api/risk-map/drought?${Q(13.75, 100.5)}&format=csv` },
    { op: "droughtAtPoint", name: "notANumber", summary: "lat=abc", path: "/api/risk-map/drought?lat=abc&lng=100.5" },
    { op: "droughtAtPoint", name: "paris", summary: "Paris, outside the grid", path: `/api/risk-map/drought?${Q(48.85, 2.35)}` },
    { op: "droughtAtPoint", name: "hanoi", summary: "Hanoi, Vietnam (country VNM)", path: `/api/risk-map/drought?${Q(21.03, 105.85)}` },
    { op: "droughtAtPoint", name: "kualaLumpur", summary: "Kuala Lumpur, Malaysia (country MYS)", path: `/api/risk-map/drought?${Q(3.14, 101.69)}` },

    { op: "droughtHistoryAtPoint", name: "bangkok2023", summary: "Bangkok, October to December 2023", path: `/api/risk-map/drought/history?${Q(13.75, 100.5)}&from=2023-10&to=2023-12`, main: true },
    { op: "droughtHistoryAtPoint", name: "bangkok2023Csv", summary: "The same as CSV", path: `/api/risk-map/drought/history?${Q(13.75, 100.5)}&from=2023-10&to=2023-12&format=csv` },
    { op: "droughtHistoryAtPoint", name: "fromAfterTo", summary: "from after to", path: `/api/risk-map/drought/history?${Q(13.75, 100.5)}&from=2019-06&to=2019-04` },
    { op: "droughtHistoryAtPoint", name: "afterTheRecord", summary: "A range after the record", path: `/api/risk-map/drought/history?${Q(13.75, 100.5)}&from=2030-01` },

    { op: "droughtChoropleth", name: "december2023", summary: "The region's provinces in 2023-12 (two of the 157 features shown)", path: "/api/risk-map/drought/provinces?month=2023-12", main: true },
    { op: "droughtChoropleth", name: "malaysia", summary: "Malaysia's states and federal territories only (two of the 16 shown)", path: "/api/risk-map/drought/provinces?country=MYS" },
    { op: "droughtChoropleth", name: "laos", summary: "A country outside the drought region", path: "/api/risk-map/drought/provinces?country=LAO" },
    { op: "droughtChoropleth", name: "month13", summary: "A month that is not one", path: "/api/risk-map/drought/provinces?month=2018-13" },
    { op: "droughtChoropleth", name: "before1950", summary: "A month before the summaries", path: "/api/risk-map/drought/provinces?month=1900-01" },

    { op: "eventsInBox", name: "stormsAcrossTheAntimeridian", summary: "Storms in a box across the antimeridian (Fiji, Samoa), first page of 2", path: "/api/risk-map/events?riskType=storm&bbox=170,-20,-170,20&limit=2", main: true },
    { op: "eventsInBox", name: "floodsInThailand", summary: "The two newest flood events in Thailand's box", path: "/api/risk-map/events?riskType=flood&bbox=97,5,106,21&limit=2" },
    { op: "eventsInBox", name: "southAboveNorth", summary: "A bbox whose south is above its north", path: "/api/risk-map/events?riskType=flood&bbox=97,21,106,5" },
    { op: "eventsInBox", name: "staleCursor", summary: "A cursor of a snapshot version no longer served", path: `/api/risk-map/events?riskType=flood&bbox=97,5,106,21&limit=2&${STALE_CURSOR}` },

    { op: "stationsInBox", name: "heatwaveStationsInThailand", summary: "Two heatwave stations in Thailand's box, first page", path: "/api/risk-map/stations?riskType=heatwave&bbox=97,5,106,21&limit=2", main: true },
    { op: "stationsInBox", name: "tideGaugesInThailand", summary: "Two tide gauges in Thailand's box", path: "/api/risk-map/stations?riskType=sea_level_rise&bbox=97,5,106,21&limit=2" },
    { op: "stationsInBox", name: "floodHasNoStations", summary: "A riskType without stations", path: "/api/risk-map/stations?riskType=flood&bbox=97,5,106,21" },

    { op: "profileAtPoint", name: "bangkok", summary: "Bangkok: every part with its period; wildfire and heatwave carry their endpoints' 404s (no current data)", path: `/api/risk-map/profile?${Q(13.75, 100.5)}`, main: true },
    { op: "profileAtPoint", name: "paris", summary: "Paris: drought, wildfire, heatwave, COVID-19 and malaria carry their endpoints' errors", path: `/api/risk-map/profile?${Q(48.85, 2.35)}` },
    { op: "profileAtPoint", name: "latTooBig", summary: "lat=91", path: "/api/risk-map/profile?lat=91&lng=100.5" },

    { op: "droughtHistoryByProvince", name: "chiangMai", summary: "Chiang Mai, October and November 2023", path: "/api/risk-map/drought/province/history?name=Chiang%20Mai&from=2023-10&to=2023-11", main: true },
    { op: "droughtHistoryByProvince", name: "chiangMaiCsv", summary: "The same as CSV", path: "/api/risk-map/drought/province/history?name=Chiang%20Mai&from=2023-10&to=2023-11&format=csv" },
    { op: "droughtHistoryByProvince", name: "twoLetterCountry", summary: "country=TH (alpha-3 expected)", path: "/api/risk-map/drought/province/history?name=Chiang%20Mai&country=TH" },
    { op: "droughtHistoryByProvince", name: "atlantis", summary: "A province that does not exist", path: "/api/risk-map/drought/province/history?name=Atlantis" },

    { op: "droughtByProvince", name: "bangkok", summary: "Bangkok province, the grid's latest valid month", path: "/api/risk-map/drought/province?name=Bangkok", main: true },
    { op: "droughtByProvince", name: "bangkokCsv", summary: "The same as CSV", path: "/api/risk-map/drought/province?name=Bangkok&format=csv" },
    { op: "droughtByProvince", name: "month13", summary: "A month that is not one", path: "/api/risk-map/drought/province?name=Bangkok&month=2019-13" },
    { op: "droughtByProvince", name: "atlantis", summary: "A province that does not exist", path: "/api/risk-map/drought/province?name=Atlantis" },
    { op: "droughtByProvince", name: "hanoi", summary: "Hà Nội asked without diacritics", path: "/api/risk-map/drought/province?name=Ha%20Noi&country=VNM" },
    { op: "droughtByProvince", name: "yenBai", summary: "Yên Bái, part of Lào Cai since the 2025 reform", path: "/api/risk-map/drought/province?name=Yen%20Bai&country=VNM" },
    { op: "droughtByProvince", name: "penang", summary: "Penang by its Malay name", path: "/api/risk-map/drought/province?name=Pulau%20Pinang&country=MYS" },
    { op: "droughtByProvince", name: "laos", summary: "A country outside the drought region", path: "/api/risk-map/drought/province?name=Vientiane&country=LAO" },

    { op: "droughtBatch", name: "bangkokAndParis", summary: "Bangkok and Hanoi (found) and Paris (outside the region)", method: "POST", path: "/api/risk-map/batch", body: { riskType: "drought", locations: [{ id: "bkk", ...BANGKOK }, { id: "hanoi", lat: 21.03, lng: 105.85 }, { id: "paris", ...PARIS }] }, main: true },
    { op: "droughtBatch", name: "geojson", summary: "The same as a FeatureCollection", method: "POST", path: "/api/risk-map/batch", body: { riskType: "drought", format: "geojson", locations: [{ id: "bkk", ...BANGKOK }, { id: "hanoi", lat: 21.03, lng: 105.85 }, { id: "paris", ...PARIS }] } },
    { op: "droughtBatch", name: "csv", summary: "The same as CSV", method: "POST", path: "/api/risk-map/batch", body: { riskType: "drought", format: "csv", locations: [{ id: "bkk", ...BANGKOK }, { id: "hanoi", lat: 21.03, lng: 105.85 }, { id: "paris", ...PARIS }] } },
    { op: "droughtBulk", name: "csv", summary: "Three rows of CSV, CSV out: Bangkok and Hanoi (found), a row whose lat is not a number", method: "POST", path: "/api/risk-map/bulk", headers: { "Content-Type": "text/csv", Accept: "text/csv" }, body: "id,lat,lng\nbkk,13.75,100.5\nhanoi,21.03,105.85\nbad,abc,100.5\n", main: true },
    { op: "droughtBulk", name: "ndjson", summary: "The same points as NDJSON: one batch item a line, then the end record", method: "POST", path: "/api/risk-map/bulk", headers: { "Content-Type": "application/x-ndjson" }, body: '{"id":"bkk","lat":13.75,"lng":100.5}\n{"id":"hanoi","lat":21.03,"lng":105.85}\n{"id":"paris","lat":48.85,"lng":2.35}\n' },
    { op: "droughtBulk", name: "noLatLng", summary: "A CSV header without lat and lng", method: "POST", path: "/api/risk-map/bulk", headers: { "Content-Type": "text/csv" }, body: "id,latitude,longitude\nbkk,13.75,100.5\n" },
    { op: "droughtBulk", name: "json", summary: "A JSON body (neither CSV nor NDJSON)", method: "POST", path: "/api/risk-map/bulk", headers: { "Content-Type": "application/json" }, body: '{"locations":[]}' },
    { op: "droughtBatch", name: "noLocations", summary: "An empty list", method: "POST", path: "/api/risk-map/batch", body: { riskType: "drought", locations: [] } },

    { op: "droughtExports", name: "list", summary: "The served version's exports (two of four shown)", path: "/api/risk-map/drought/exports", main: true },
    ...exportSpecs,

    { op: "outbreakRadarQuery", name: "dengueBangkok", summary: "Dengue at Bangkok (two of the diseases' and news lists shown)", method: "POST", path: "/api/outbreak-radar/query", body: { ...BANGKOK, diseaseType: "dengue" }, main: true },
    { op: "outbreakRadarQuery", name: "unknownField", summary: "disease instead of diseaseType", method: "POST", path: "/api/outbreak-radar/query", body: { ...BANGKOK, disease: "dengue" } },
    { op: "outbreakRadarQuery", name: "malariaParis", summary: "Malaria in France: no series, no news", method: "POST", path: "/api/outbreak-radar/query", body: { ...PARIS, diseaseType: "malaria" } },

    { op: "outbreakStatusByArea", name: "dengue", summary: "Dengue by area (two countries and two provinces shown)", path: "/api/outbreak-radar/status?diseaseType=dengue", main: true },
    { op: "outbreakStatusByArea", name: "general", summary: "general is a per-point answer", path: "/api/outbreak-radar/status?diseaseType=general" },

    { op: "portsInBox", name: "acrossTheAntimeridian", summary: "Ports in a box across the antimeridian, first page of 2", path: "/api/supply-chain/ports?bbox=170,-20,-170,20&limit=2", main: true },
    { op: "portsInBox", name: "threeNumbers", summary: "A bbox of three numbers", path: "/api/supply-chain/ports?bbox=97,5,106" },
    { op: "portsInBox", name: "staleCursor", summary: "A cursor of a snapshot version no longer served", path: `/api/supply-chain/ports?bbox=97,5,106,21&limit=2&${STALE_CURSOR}` },

    { op: "supplyChainQuery", name: "laemChabang", summary: "Congestion at Laem Chabang", method: "POST", path: "/api/supply-chain/query", body: { portCode: "THLCH", queryType: "congestion" }, main: true },
    { op: "supplyChainQuery", name: "noQueryType", summary: "queryType missing", method: "POST", path: "/api/supply-chain/query", body: { portCode: "THLCH" } },
    { op: "supplyChainQuery", name: "openPacific", summary: "No port within 50 km", method: "POST", path: "/api/supply-chain/query", body: { lat: 0, lng: -150, queryType: "congestion" } },
    { op: "supplyChainQuery", name: "djiboutiTradeRisk", summary: "Trade risk at Djibouti: Bab el-Mandeb and Suez transits (the Red Sea crisis)", method: "POST", path: "/api/supply-chain/query", body: { portCode: "DJJIB", queryType: "trade_risk" } },
    { op: "supplyChainQuery", name: "babElMandeb", summary: "A chokepoint's own answer (by its id)", method: "POST", path: "/api/supply-chain/query", body: { chokepoint: "chokepoint4", queryType: "trade_risk" } },
    { op: "supplyChainQuery", name: "unknownChokepoint", summary: "An unknown chokepoint", method: "POST", path: "/api/supply-chain/query", body: { chokepoint: "chokepoint99", queryType: "trade_risk" } },
    { op: "chokepoints", name: "all", summary: "The chokepoints with transits", path: "/api/supply-chain/chokepoints", main: true },

    { op: "ping", name: "pong", summary: "A valid key", path: "/api/ping", main: true },
    { op: "status", name: "noStatusPublished", summary: "A build without a sources status (no refresh ran)", path: "/api/status", key: "none", main: true },
    { op: "health", name: "alive", summary: "Alive", path: "/healthz", key: "none", main: true },
    { op: "ready", name: "ready", summary: "The drought data are loaded", path: "/readyz", key: "none", main: true },
    { op: "metrics", name: "dataVersion", summary: "One metric of the exposition", path: "/metrics", key: "none", main: true, pick: (t) => t.split("\n").filter((l) => l.includes("drought_data_version_info")).join("\n") + "\n" },

    { op: "tilesLegend", name: "legend", summary: "The colour classes (two of twelve shown)", path: "/tiles/legend.json", key: "none", main: true },
    { op: "tilesIndex", name: "index", summary: "The tilesets (two catalog entries shown)", path: "/tiles/index.json", key: "none", main: true },
    { op: "tileJson", name: "spei1October2018", summary: "SPEI-1 of 2018-10", path: "/tiles/drought-spei1.json?month=2018-10", main: true },
    { op: "tileJson", name: "cells", summary: "The cells vector tileset", path: "/tiles/cells.json" },
    { op: "tileJson", name: "monthWithoutZero", summary: "month=2018-1", path: "/tiles/drought-spei1.json?month=2018-1" },
    { op: "tileJson", name: "unknownTileset", summary: "A tileset that does not exist", path: "/tiles/drought-xyz.json" },
    { op: "tile", name: "thailandZ5", summary: "The z5 tile over Thailand", path: "/tiles/drought-spei1/5/24/14.png?month=2018-10", main: true, binary: true },
    { op: "tile", name: "zoomTooDeep", summary: "z = 30", path: "/tiles/cells/30/0/0.mvt" },
    { op: "tile", name: "wrongExtension", summary: "png of a vector tileset", path: "/tiles/cells/5/24/14.png" },
    { op: "tileVersioned", name: "cellsZ5", summary: "The z5 cells tile over Thailand", path: "/tiles/v/{version}/cells/5/24/14.mvt", main: true, binary: true },
    { op: "tileVersioned", name: "oldVersion", summary: "A data version no longer served", path: "/tiles/v/20200101T000000Z-0000000000/cells/5/24/14.mvt" },
    { op: "tileArchive", name: "header", summary: "The 127-byte PMTiles header of the provinces archive", path: "/tiles/archives/tiles-provinces.pmtiles", headers: { Range: "bytes=0-126" }, main: true, binary: true },
    { op: "tileArchive", name: "noSuchArchive", summary: "An archive the version does not have", path: "/tiles/archives/tiles-nothing.pmtiles" },
  ];
}

async function raw(pieces: string[], port = Number(new URL(server.base).port)) {
  const a = await rawExchange(port, pieces, { timeoutMs: 5000 });
  return { status: a.status ?? 0, type: (a.headers["content-type"] ?? "").split(";")[0], body: JSON.parse(a.body) as unknown };
}

/**
 * What a small app of the service's own parts answers: the error handler after a throwing route, the tiles router
 * with no data, the server's own timeouts (server/serve.ts, 300 ms for headers) for `pieces` sent raw.
 */
async function aside(path: string, pieces?: string[]) {
  const app = express();
  app.get("/boom", () => {
    throw new Error("boom");
  });
  app.use(createTilesRouter({ current: () => undefined, logger: silent }));
  app.use(errorHandler(silent));
  const running = await listen(app, { port: 0, host: "127.0.0.1", logger: silent, timeouts: { headersTimeoutMs: 300 } });
  try {
    if (pieces) return await raw(pieces, running.port);
    const res = await fetch(`http://127.0.0.1:${running.port}${path}`);
    return { status: res.status, type: (res.headers.get("content-type") ?? "").split(";")[0], body: (await res.json()) as unknown };
  } finally {
    await running.shutdown();
  }
}

async function send(spec: Spec): Promise<{ status: number; type: string; body: unknown }> {
  if (spec.answer) return spec.answer();
  const headers: Record<string, string> = { ...(spec.headers ?? {}) };
  const key = spec.key ?? "enterprise";
  if (key === "enterprise") headers["X-API-Key"] = server.key;
  if (key === "tight") {
    headers["X-API-Key"] = tight;
    await fetch(server.base + spec.path, { headers }); // spends the plan's one point
  }
  let body: string | undefined;
  if (spec.body !== undefined) {
    body = typeof spec.body === "string" ? spec.body : JSON.stringify(spec.body);
    headers["Content-Type"] ??= "application/json";
  }
  const res = await fetch(server.base + spec.path.replace("{version}", droughtVersion), { method: spec.method ?? (body === undefined ? "GET" : "POST"), headers, body });
  const type = (res.headers.get("content-type") ?? "").split(";")[0];
  if (spec.binary || res.status === 204 || res.status === 304) return { status: res.status, type, body: undefined };
  const text = await res.text();
  return { status: res.status, type, body: type.includes("json") && !type.includes("ndjson") ? JSON.parse(text) : spec.pick ? spec.pick(text) : text };
}

/** Lists cut to their first items (objects: 2, strings: 8), so that an example stays readable; numbers untouched. */
function trim(v: unknown): { value: unknown; cut: boolean } {
  if (Array.isArray(v)) {
    const max = v.every((x) => typeof x === "object" && x !== null && !Array.isArray(x)) ? 2 : v.every((x) => typeof x === "string") ? 8 : Infinity;
    const kept = v.slice(0, max).map(trim);
    return { value: kept.map((k) => k.value), cut: v.length > max || kept.some((k) => k.cut) };
  }
  if (typeof v === "object" && v !== null) {
    const entries = Object.entries(v).map(([k, x]) => [k, trim(x)] as const);
    return { value: Object.fromEntries(entries.map(([k, t]) => [k, t.value])), cut: entries.some(([, t]) => t.cut) };
  }
  return { value: v, cut: false };
}

async function record(): Promise<ExampleFile> {
  const file: ExampleFile = {
    note: "Answers of the service over the data mirror's build, recorded by UPDATE_OPENAPI_EXAMPLES=1 npx vitest run test/e2e/openapi-examples.test.ts; the test checks them against the service.",
    operations: {},
    errors: {},
  };
  for (const spec of specs()) {
    const answer = await send(spec);
    const { value, cut } = trim(answer.body);
    const example: Example = { summary: `${spec.summary}${cut ? " (lists cut to their first items)" : ""}`, value };
    if (spec.op === "*") {
      expect(String(answer.status), spec.summary).toBe(spec.name);
      file.errors[spec.name] = example;
      continue;
    }
    const op = (file.operations[spec.op] ??= { responses: {} });
    if (spec.main) {
      const request: RecordedRequest = { method: spec.method ?? (spec.body === undefined ? "GET" : "POST"), path: spec.path.replace("{version}", droughtVersion) };
      if (spec.body !== undefined) request.body = spec.body;
      if (spec.headers) request.headers = spec.headers;
      op.request = request;
    }
    if (answer.body === undefined) continue;
    const byType = ((op.responses[String(answer.status)] ??= {})[answer.type] ??= {});
    byType[spec.name] = example;
  }
  return file;
}

/** The file with what varies between builds and requests replaced: times, versions, freshness, host and port. */
function mask(v: unknown): unknown {
  const VOLATILE = new Set(["timestamp", "stale", "staleSources", "staleReason", "retryAfterSeconds", "sha256", "bytes", "contentRange", "generatedAt"]);
  const text = (s: string) => s.replace(/\d{8}T\d{6}Z-[0-9a-f]{10}/g, "<version>").replace(/http:\/\/127\.0\.0\.1:\d+/g, "<base>");
  if (typeof v === "string") return text(v);
  if (Array.isArray(v)) return v.map(mask);
  if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, VOLATILE.has(k) ? "<volatile>" : mask(x)]));
  return v;
}

describe("the OpenAPI examples", () => {
  let recorded: ExampleFile;

  it("are what the service answers to their requests", async () => {
    const live = await record();
    if (UPDATE) writeFileSync(EXAMPLES_FILE, JSON.stringify(live, null, 1) + "\n");
    recorded = UPDATE ? live : loadExamples()!;
    expect(recorded, `${EXAMPLES_FILE} missing: run with UPDATE_OPENAPI_EXAMPLES=1`).toBeDefined();
    expect(mask(live)).toEqual(mask(recorded));
  }, 120_000);

  it("are served in /openapi.json, parameters typed as their schemas say", async () => {
    const served = (await (await fetch(`${server.base}/openapi.json`)).json()) as { paths: Record<string, Record<string, { parameters?: { name: string; example?: unknown }[]; responses: Record<string, { content?: Record<string, { examples?: Record<string, Example> }> }> }>> };
    const drought = served.paths["/api/risk-map/drought"].get;
    expect(drought.parameters!.filter((p) => p.example !== undefined).map((p) => [p.name, p.example])).toEqual([["lat", 13.75], ["lng", 100.5]]);
    const events = served.paths["/api/risk-map/events"].get;
    expect(events.parameters!.filter((p) => p.example !== undefined).map((p) => [p.name, p.example])).toEqual([["riskType", "storm"], ["bbox", [170, -20, -170, 20]], ["limit", 2]]);
    const tile = served.paths["/tiles/{tileset}/{z}/{x}/{y}.{ext}"].get;
    expect(tile.parameters!.filter((p) => p.example !== undefined).map((p) => [p.name, p.example])).toEqual([["tileset", "drought-spei1"], ["z", 5], ["x", 24], ["y", 14], ["ext", "png"], ["month", "2018-10"]]);
    const profile = served.paths["/api/risk-map/profile"].get.responses["200"].content!["application/json"].examples!;
    expect(Object.keys(profile)).toEqual(["bangkok", "paris"]);
    expect((profile.bangkok.value as { data: { location: unknown } }).data.location).toEqual({ lat: 13.75, lng: 100.5 });
  });
  // Last: its schema compilation holds the event loop for seconds (a request after it would meet a keep-alive
  // socket the server has closed meanwhile).
  it("match their documented schemas, and every operation and error response carries one", async () => {
    type Media = { schema?: unknown; examples?: Record<string, Example>; example?: unknown };
    type Op = { operationId: string; parameters?: { name: string; required?: boolean; example?: unknown }[]; requestBody?: { content: Record<string, Media> }; responses: Record<string, { content?: Record<string, Media> }> };
    const doc = buildOpenApi({ bodyLimit: 65536, examples: recorded }) as unknown as { paths: Record<string, Record<string, Op>>; components: unknown };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
    const problems: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        const examples = Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {}).flatMap((m) => Object.values(m.examples ?? {})));
        const requestExample = op.parameters?.some((p) => p.example !== undefined) || Object.values(op.requestBody?.content ?? {}).some((m) => m.example !== undefined);
        if (examples.length === 0 && !requestExample) problems.push(`${where}: no example`);
        // Every required parameter and a JSON body have their example.
        for (const p of op.parameters ?? []) if (p.required && p.example === undefined) problems.push(`${where}: parameter ${p.name} without example`);
        if (op.requestBody && Object.values(op.requestBody.content).every((m) => m.example === undefined)) problems.push(`${where}: body without example`);
        for (const [status, r] of Object.entries(op.responses)) {
          for (const [type, media] of Object.entries(r.content ?? {})) {
            if (Number(status) >= 400 && !media.examples) problems.push(`${where} ${status}: error without example`);
            if (status === "200" && type === "application/json" && !media.examples) problems.push(`${where} 200: no example`);
            if (!media.examples || typeof media.schema !== "object" || media.schema === null || (media.schema as { type?: string }).type === "string") continue;
            const validate = ajv.compile(JSON.parse(JSON.stringify(media.schema).replace(/"#\/components\//g, '"doc#/components/')));
            for (const [name, ex] of Object.entries(media.examples)) {
              if (!validate(ex.value)) problems.push(`${where} ${status} ${type} ${name}: ${ajv.errorsText(validate.errors)}`);
              checked++;
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

});
