// Bounded fuzz over loopback against the real entry point (server/main.ts as a child process) on the real test
// artifacts: a fixed, seeded list of hostile requests — random, deep and huge JSON, bad methods and headers,
// random paths and query strings, compressed and corrupt bodies, truncated bodies, pipelined garbage, abandoned
// connections, slow bodies — sent over raw sockets. No answer may be 5xx, every error answer is the JSON
// envelope, nothing is logged at error level, and the process is alive and answering /healthz afterwards.
// The list has a fixed length (FUZZ_CASES) and every exchange its own deadline, so the test ends by itself.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { rng } from "../../bench/random.ts";
import { EXPORT_FILE_NAMES } from "../../formats/drought-export.ts";
import { privateArtifacts, startRealServer, type RealServer } from "../e2e/real-server.ts";
import { envelopeOf, rawExchange, type RawAnswer, type RawOptions } from "./raw-http.ts";

const FUZZ_CASES = 3000;
const CONCURRENCY = 16;
const REQUEST_TIMEOUT_MS = 2000;
const HEADERS_TIMEOUT_MS = 1000;
/** Longest a client waits for an answer: past the request timeout plus Node's checking interval. */
const EXCHANGE_TIMEOUT_MS = REQUEST_TIMEOUT_MS + 3000;

let server: RealServer;
let port: number;
beforeAll(async () => {
  const art = privateArtifacts(inject("artifactsDir"));
  server = await startRealServer(art.dir, { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) });
  port = Number(new URL(server.base).port);
}, 60_000);
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

interface FuzzCase {
  kind: string;
  pieces: Array<string | Buffer>;
  opts: Omit<RawOptions, "timeoutMs">;
  /** HEAD answers and abandoned connections carry no body to check. */
  expectBody: boolean;
}

/** The hostile request generators, all drawn from one seeded generator so every run sends the same list. */
function generator(seed: number, key: string) {
  const r = rng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const chance = (p: number) => r() < p;
  const junk = (n: number, alphabet = "abcXYZ019 -_.~%/?#&=+;:,\"'<>[]{}\\|`^\u0000\u0007\t\u00e9\u0e01\u2603") =>
    Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join("");

  // Feed, outbreak and port risk types are left out of otherwise valid bodies: the test artifacts hold only the
  // drought data, and for the others 503 "snapshot not loaded" is the correct answer.
  const POST_PATHS = ["/api/risk-map/score", "/api/risk-map/batch", "/api/supply-chain/query", "/api/outbreak-radar/query"];
  const GET_PATHS = ["/api/risk-map/drought", "/api/risk-map/drought/province", "/api/ping", "/healthz", "/readyz", "/metrics", "/openapi.json", "/docs", "/", "/map/map.js", "/tiles/index.json", "/tiles/legend.json"];
  const KEYS = ["lat", "lng", "riskType", "timeframe", "includeHistorical", "locations", "id", "format", "portCode", "queryType", "diseaseType", "__proto__", "constructor", "prototype", "", "a".repeat(300), "\u0000"];

  const randomValue = (depth: number): unknown => {
    const choice = int(0, depth > 4 ? 5 : 8);
    if (choice === 0) return null;
    if (choice === 1) return chance(0.5);
    if (choice === 2) return pick([0, -1, 1e308, -1e308, 5e-324, 13.75, 100.5, 90.0001, -180, 2 ** 53 + 1, int(-1e6, 1e6)]);
    if (choice === 3) return junk(int(0, 40));
    if (choice === 4) return pick(["drought", "Drought", "30d", "1y", "geojson", "json", "THLCH", "dengue"]);
    if (choice === 5) return "x".repeat(int(0, 2000));
    if (choice === 6) return Array.from({ length: int(0, 5) }, () => randomValue(depth + 1));
    return Object.fromEntries(Array.from({ length: int(0, 6) }, () => [pick(KEYS), randomValue(depth + 1)]));
  };

  const validBody = (path: string): Record<string, unknown> =>
    path === "/api/risk-map/batch"
      ? { riskType: "drought", locations: Array.from({ length: int(1, 5) }, (_, i) => ({ id: `p${i}`, lat: 5 + r() * 16, lng: 97 + r() * 9 })) }
      : { lat: 5 + r() * 16, lng: 97 + r() * 9, riskType: "drought", timeframe: pick(["7d", "30d", "90d", "1y"]), includeHistorical: chance(0.3) };

  const mutate = (body: Record<string, unknown>): Record<string, unknown> => {
    const field = pick([...Object.keys(body), pick(KEYS)]);
    const out = { ...body };
    if (chance(0.3)) delete out[field];
    else out[field] = randomValue(0);
    return out;
  };

  const request = (method: string, path: string, headers: Array<[string, string]>, body?: Buffer | string): Buffer => {
    const bytes = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body);
    const all: Array<[string, string]> = [["Host", "127.0.0.1"], ["Connection", "close"], ...headers];
    if (bytes !== undefined && !headers.some(([n]) => /^(content-length|transfer-encoding)$/i.test(n))) all.push(["Content-Length", String(bytes.length)]);
    const head = `${method} ${path} HTTP/1.1\r\n${all.map(([n, v]) => `${n}: ${v}\r\n`).join("")}\r\n`;
    return Buffer.concat([Buffer.from(head, "latin1"), bytes ?? Buffer.alloc(0)]);
  };
  const auth = (): Array<[string, string]> => [["X-API-Key", chance(0.85) ? key : pick(["", "crk_" + junk(43), junk(int(1, 100), "abc")])]];
  const json = (): Array<[string, string]> => [["Content-Type", "application/json"], ...auth()];
  const post = (body: Buffer | string, extra: Array<[string, string]> = []) => request("POST", pick(POST_PATHS), [...json(), ...extra], body);
  const plain = (pieces: Array<string | Buffer>, opts: FuzzCase["opts"] = {}, expectBody = true) => ({ pieces, opts, expectBody });

  const kinds: Record<string, () => Omit<FuzzCase, "kind">> = {
    randomJson: () => plain([post(JSON.stringify(randomValue(0)) ?? "null")]),
    mutatedValid: () => {
      const path = pick(["/api/risk-map/score", "/api/risk-map/batch"]);
      return plain([request("POST", path, json(), JSON.stringify(chance(0.8) ? mutate(validBody(path)) : validBody(path)))]);
    },
    deepJson: () => {
      const depth = pick([33, 100, 4500, 10_000, 30_000, 100_000]);
      return plain([post(chance(0.5) ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth))]);
    },
    hugeJson: () => plain([post(`{"lat":"${"9".repeat(pick([70_000, 300_000, 2_000_000]))}"}`)]),
    badJson: () => plain([post(pick(['{"lat":', "{'lat':1}", "NaN", '{"lat":1e999,"lng":1,"riskType":"drought"}', "\ufeff{}", junk(int(1, 200)), ""]))]),
    badMethod: () => plain([request(pick(["FOO", "DELETE", "PATCH", "PUT", "TRACE", "PROPFIND", "G@T", "get", "POST POST", "M-SEARCH"]), pick([...GET_PATHS, ...POST_PATHS]), auth())]),
    badHeaders: () =>
      plain([
        pick([
          () => `GET /healthz HTTP/1.1\r\nHost: x\r\nNo colon\r\n\r\n`,
          () => `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(int(17_000, 40_000))}\r\n\r\n`,
          () => `GET /healthz HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 2000 }, (_, i) => `X-${i}: 1\r\n`).join("")}\r\n`,
          () => `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Ctl: a\u0001b\r\n\r\n`,
          () => `POST /api/risk-map/score HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n{}{}{}`,
          () => `POST /api/risk-map/score HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
          () => `POST /api/risk-map/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-API-Key: ${key}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
          () => `POST /api/risk-map/score HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`,
          () => `POST /api/risk-map/score HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n`,
          () => `GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n`,
          () => `GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n`,
          () => `GET /healthz\r\n\r\n`,
          () => `GET  /healthz  HTTP/1.1\r\nHost: x\r\n\r\n`,
          () => `GET /healthz HTTP/1.1\nHost: x\n\n`,
          () => `GET http://evil.example/healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
          () => `GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        ])(),
      ]),
    randomPath: () => {
      const base = pick([...GET_PATHS, ...POST_PATHS, "/tiles", "/map", "/api", ""]);
      const path = chance(0.5) ? base + "/" + junk(int(0, 60), "abc/%.~09zZ") : base + pick(["/%", "/%zz", "/%c0%af", "/..%2f..%2fetc%2fpasswd", "//", "/.", "/" + "a".repeat(int(100, 12_000))]);
      return plain([request(pick(["GET", "HEAD", "OPTIONS", "POST"]), path.startsWith("/") ? path : "/" + path, auth())], {}, true);
    },
    randomQuery: () => {
      const num = () => pick(["13.75", "100.5", "", "abc", "1e999", "0x10", "-0", "90.00001", " 1", "Infinity", String(r() * 400 - 200), "9".repeat(400)]);
      const params = [
        `lat=${num()}`,
        `lng=${num()}`,
        `month=${pick(["2019-06", "2019-13", "0000-00", "", junk(7)])}`,
        `name=${encodeURIComponent(pick(["Bangkok", "Chiang Mai", "เชียงใหม่", junk(int(0, 150))]))}`,
        `country=${pick(["THA", "tha", "XX", junk(3)])}`,
        `format=${pick(["json", "geojson", "xml"])}`,
        pick(["lat=1&lat=2", "%zz=1", "a[b]=1", "a[__proto__][x]=1", "=", "&&&", "x=" + "%".repeat(int(1, 20))]),
      ].filter(() => chance(0.7));
      const path = pick(["/api/risk-map/drought", "/api/risk-map/drought/province", "/api/risk-map/score", "/tiles/index.json"]);
      return plain([request(pick(["GET", "HEAD"]), `${path}?${params.join("&")}`, auth())]);
    },
    tiles: () => {
      const n = () => pick(["0", "1", "5", "8", "-1", "99999999999999999999", "NaN", "1.5", "%zz", junk(3, "0123456789")]);
      const set = pick(["drought-spei1", "drought-spi1-2019-06", "provinces", "countries", "cells", "nope", "..", "%2e%2e", junk(int(1, 30))]);
      const path = pick([
        `/tiles/${set}/${n()}/${n()}/${n()}.${pick(["png", "pbf", "mvt", "jpg", ""])}`,
        `/tiles/v/${pick(["x", "..", junk(20)])}/${set}/${n()}/${n()}/${n()}.png`,
        `/tiles/archives/${pick(["tiles-provinces.pmtiles", "../manifest.json", "%2e%2e%2fmanifest.json", junk(20)])}`,
        `/tiles/${set}.json`,
      ]);
      const headers: Array<[string, string]> = [...auth()];
      if (chance(0.4)) headers.push(["Range", pick(["bytes=0-10", "bytes=-5", "bytes=999999999-", "bytes=5-1", "bytes=a-b", "items=0-1", "bytes=0-1,2-3"])]);
      if (chance(0.3)) headers.push(["Accept-Encoding", pick(["gzip", "br", "*", "identity;q=0", junk(10)])]);
      return plain([request(pick(["GET", "HEAD"]), path, headers)]);
    },
    encodings: () => {
      const body = Buffer.from(JSON.stringify(validBody("/api/risk-map/score")));
      const gz = gzipSync(body);
      const [enc, payload] = pick<[string, Buffer]>([
        ["gzip", gz],
        ["gzip", gz.subarray(0, int(0, gz.length - 1))],
        ["gzip", Buffer.from(junk(50))],
        ["deflate", gz],
        ["br", Buffer.from(junk(30))],
        ["gzip", gzipSync(Buffer.alloc(pick([100_000, 5_000_000]), 0x7b))],
        [pick(["compress", "zstd", "gzip, gzip", "identity", "", junk(8)]), body],
      ]);
      const type = chance(0.8) ? "application/json" : pick(["text/plain", "application/json; charset=latin1", "application/x-www-form-urlencoded", junk(20)]);
      return plain([request("POST", "/api/risk-map/score", [["Content-Type", type], ["Content-Encoding", enc], ...auth()], payload)]);
    },
    truncatedBody: () => {
      const full = request("POST", pick(POST_PATHS), json(), JSON.stringify(validBody("/api/risk-map/score")));
      return plain([full.subarray(0, int(10, full.length - 1))], { end: true });
    },
    pipelinedGarbage: () => {
      const first = `GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`;
      return plain([first + pick(["garbage\r\n\r\n", `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, junk(100)])]);
    },
    aborted: () => {
      const full = request("POST", pick(POST_PATHS), json(), JSON.stringify(randomValue(0)) ?? "{}");
      return plain([full.subarray(0, int(1, full.length))], { abortAfterMs: int(0, 30) }, false);
    },
    randomBytes: () => plain([Buffer.from(Array.from({ length: int(1, 3000) }, () => int(0, 255)))], { end: chance(0.5) }),
    // Conditional and range headers on every route that sends a file from disk (static assets, Redoc, exports,
    // PMTiles archives), the libraries' 412/416 included.
    conditional: () => {
      const path = pick(["/map/map.js", "/docs/redoc.standalone.js", "/", "/map/vendor/maplibre-gl/maplibre-gl.css", "/tiles/archives/tiles-provinces.pmtiles", ...EXPORT_FILE_NAMES.map((n) => `/api/risk-map/drought/exports/${n}`)]);
      const date = () => pick(["Thu, 01 Jan 1970 00:00:00 GMT", "Fri, 01 Jan 2100 00:00:00 GMT", "yesterday", junk(int(0, 30))]);
      const tag = () => pick(['"nope"', "*", 'W/"x"', '"a", "b"', "", junk(int(1, 20))]);
      const choices: Array<() => [string, string]> = [
        () => ["Range", pick(["bytes=999999999-", "bytes=-0", "bytes=0-0", "bytes=5-1", "bytes=0-1,3-4,9999999-", "bytes=-999999999", "bytes=" + junk(8, "0123456789-,")])],
        () => ["If-Match", tag()],
        () => ["If-None-Match", tag()],
        () => ["If-Unmodified-Since", date()],
        () => ["If-Modified-Since", date()],
        () => ["If-Range", chance(0.5) ? tag() : date()],
      ];
      const headers: Array<[string, string]> = [...auth()];
      for (let n = int(1, 3); n > 0; n--) headers.push(pick(choices)());
      return plain([request(pick(["GET", "GET", "HEAD"]), path, headers)], {}, true);
    },
    // Repeated Host headers, repeated JSON keys, an unknown Expect.
    duplicates: () => {
      const body = validBody("/api/risk-map/score");
      const dupBody = `{"lat":-95,${JSON.stringify(body).slice(1)}`;
      return plain([
        pick([
          () => `GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n`,
          () => `GET /api/ping HTTP/1.1\r\nHost: a\r\nX-API-Key: ${key}\r\nhost: a\r\nConnection: close\r\n\r\n`,
          () => request("POST", "/api/risk-map/score", json(), dupBody),
          () => request("POST", "/api/risk-map/batch", json(), `{"riskType":"drought","locations":[{"lat":13,"lng":100,"lat":14}]}`),
          () => request("POST", "/api/risk-map/score", [...json(), ["Content-Type", "application/json"]], JSON.stringify(body)),
          () => request("GET", "/healthz", [["Expect", pick(["x-weird", "100-continue, x", junk(int(1, 20))])]]),
        ])(),
      ]);
    },
    slowBody: () => {
      const body = JSON.stringify(validBody("/api/risk-map/score"));
      return plain([request("POST", "/api/risk-map/score", [...json(), ["Content-Length", String(body.length)]]), ...body], { gapMs: 250 });
    },
  };
  const weights: Array<[keyof typeof kinds, number]> = [
    ["randomJson", 14], ["mutatedValid", 14], ["deepJson", 5], ["hugeJson", 3], ["badJson", 5], ["badMethod", 5], ["badHeaders", 8],
    ["randomPath", 10], ["randomQuery", 10], ["tiles", 8], ["encodings", 6], ["truncatedBody", 4], ["pipelinedGarbage", 2],
    ["aborted", 5], ["randomBytes", 3], ["conditional", 8], ["duplicates", 5],
  ];
  const total = weights.reduce((a, [, w]) => a + w, 0);
  return (i: number): FuzzCase => {
    // A handful of slow bodies (each held until the request timeout), spread over the run.
    if (i % 300 === 150) return { kind: "slowBody", ...kinds.slowBody() };
    let x = r() * total;
    for (const [kind, w] of weights) if ((x -= w) < 0) return { kind, ...kinds[kind]() };
    return { kind: "randomJson", ...kinds.randomJson() };
  };
}

describe("fuzz: hostile requests against the real server", () => {
  it(`${FUZZ_CASES} hostile requests: no 5xx, errors in the envelope, no error logs, still alive`, async () => {
    const next = generator(9, server.key);
    const cases = Array.from({ length: FUZZ_CASES }, (_, i) => next(i));
    const answers: Array<{ c: FuzzCase; a: RawAnswer }> = [];
    let cursor = 0;
    const worker = async () => {
      while (cursor < cases.length) {
        const c = cases[cursor++];
        answers.push({ c, a: await rawExchange(port, c.pieces, { ...c.opts, timeoutMs: EXCHANGE_TIMEOUT_MS }) });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(answers).toHaveLength(FUZZ_CASES);

    const describeCase = ({ c, a }: { c: FuzzCase; a: RawAnswer }) => `${c.kind} ${a.status}: ${String(c.pieces[0]).split("\r\n")[0].slice(0, 200)} → ${a.body.slice(0, 200)}`;
    expect(answers.filter(({ a }) => a.status !== undefined && a.status >= 500).map(describeCase)).toEqual([]);
    // Every error answer with a body is the envelope (HEAD answers have no body).
    const bareErrors = answers.filter(({ c, a }) => c.expectBody && a.status !== undefined && a.status >= 400 && a.body !== "" && envelopeOf(a) === undefined);
    expect(bareErrors.map(describeCase)).toEqual([]);
    // The run reached the answers it was meant to provoke.
    const statuses = new Set(answers.map(({ a }) => a.status));
    for (const status of [200, 206, 304, 400, 401, 404, 405, 408, 412, 413, 415, 416, 417, 431]) expect([status, statuses.has(status)]).toEqual([status, true]);
    // Errors from conditional and range headers and from Expect are the envelope by their headers too.
    const wrongHeaders = answers.filter(({ a }) => [412, 416, 417].includes(a.status ?? 0) && (a.headers["content-type"] !== "application/json; charset=utf-8" || a.headers["x-content-type-options"] !== "nosniff"));
    expect(wrongHeaders.map(describeCase)).toEqual([]);

    expect(server.proc.exitCode).toBeNull();
    const health = await fetch(`${server.base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ success: true, data: { status: "ok" } });
    const errorLines = server.logs.join("").split("\n").filter((l) => /"level":(5|6)\d/.test(l));
    expect(errorLines).toEqual([]);
    // Its time is a matter of the machine's load (12 s quiet, past 60 s with both cores taken by others): the limit
    // only stops a hang.
  }, 600_000);
});

describe("conditional and range headers on files from disk (issue 24)", () => {
  const exportPath = `/api/risk-map/drought/exports/${EXPORT_FILE_NAMES[0]}`;
  const get = (path: string, headers: Record<string, string>) => fetch(server.base + path, { headers: { "X-API-Key": server.key, ...headers } });
  const expectEnvelope = async (res: Response, status: number, code: string) => {
    expect([res.status, res.headers.get("content-type"), res.headers.get("x-content-type-options"), res.headers.get("content-security-policy")]).toEqual([
      status,
      "application/json; charset=utf-8",
      "nosniff",
      "frame-ancestors 'none'",
    ]);
    expect(res.headers.get("content-disposition")).toBeNull();
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
  };

  it("a Range past the end or bytes=-0 is 416 RANGE_NOT_SATISFIABLE with Content-Range */size", async () => {
    const js = await get("/map/map.js", { Range: "bytes=999999999-" });
    expect(js.headers.get("content-range")).toMatch(/^bytes \*\/\d+$/);
    await expectEnvelope(js, 416, "RANGE_NOT_SATISFIABLE");
    await expectEnvelope(await get(exportPath, { Range: "bytes=-0" }), 416, "RANGE_NOT_SATISFIABLE");
  });

  it("If-Match that does not match, or If-Unmodified-Since in the past, is 412 PRECONDITION_FAILED", async () => {
    await expectEnvelope(await get("/docs/redoc.standalone.js", { "If-Match": '"nope"' }), 412, "PRECONDITION_FAILED");
    await expectEnvelope(await get("/map/map.js", { "If-Unmodified-Since": "Thu, 01 Jan 1970 00:00:00 GMT" }), 412, "PRECONDITION_FAILED");
    await expectEnvelope(await get(exportPath, { "If-Match": '"nope"' }), 412, "PRECONDITION_FAILED");
    const etag = (await get(exportPath, { Range: "bytes=0-0" })).headers.get("etag")!;
    const matched = await get(exportPath, { "If-Match": etag, Range: "bytes=0-3" });
    expect(matched.status).toBe(206);
    await matched.arrayBuffer();
  });

  it("an Expect other than 100-continue is 417 EXPECTATION_FAILED in the envelope, with the security headers", async () => {
    const a = await rawExchange(port, ["GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: x-weird\r\n\r\n"], { timeoutMs: 5000 });
    expect([a.status, a.headers["content-type"], a.headers["x-content-type-options"], a.headers["content-security-policy"]]).toEqual([417, "application/json; charset=utf-8", "nosniff", "frame-ancestors 'none'"]);
    expect(envelopeOf(a)).toEqual({ code: "EXPECTATION_FAILED", message: "Only the expectation 100-continue is supported", details: { received: "x-weird", supported: ["100-continue"] } });
  });
});

describe("duplicates (issue 24)", () => {
  it("two Host headers are 400 BAD_REQUEST (RFC 9112 §3.2), and the connection closes", async () => {
    const a = await rawExchange(port, ["GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"], { timeoutMs: 5000 });
    expect(a.status).toBe(400);
    expect(envelopeOf(a)).toEqual({ code: "BAD_REQUEST", message: "A request must have exactly one Host header", details: { hostFields: 2 } });
    expect(a.closedByServer).toBe(true);
  });

  it("a JSON body with a repeated key is 400 VALIDATION_ERROR naming the key", async () => {
    const res = await fetch(`${server.base}/api/risk-map/score`, {
      method: "POST",
      headers: { "X-API-Key": server.key, "Content-Type": "application/json" },
      body: '{"lat":-95,"lat":13.75,"lng":100.5,"riskType":"drought"}',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: unknown }).error).toEqual({
      code: "VALIDATION_ERROR",
      message: "lat: duplicate key",
      details: { reason: "duplicate_key", issues: [{ path: "lat", message: "duplicate key" }] },
    });
  });
});

describe("real server settings", () => {
  it("REQUEST_TIMEOUT_MS: a body trickled past it is 408 in the envelope and the connection closes", async () => {
    const body = JSON.stringify({ lat: 13.75, lng: 100.5, riskType: "drought" });
    const head = `POST /api/risk-map/score HTTP/1.1\r\nHost: x\r\nX-API-Key: ${server.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const a = await rawExchange(port, [head, ...body], { gapMs: 250, timeoutMs: EXCHANGE_TIMEOUT_MS });
    expect(a.status).toBe(408);
    expect(envelopeOf(a)).toEqual({ code: "REQUEST_TIMEOUT", message: "Request was not received completely in time", details: {} });
    expect(a.closedByServer).toBe(true);
  });

  it("a path parameter that is not valid percent-encoding is 400 BAD_REQUEST, not 500", async () => {
    const res = await fetch(`${server.base}/tiles/drought-spei1/%zz/0/0.png`, { headers: { "x-api-key": server.key } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      success: false,
      error: { code: "BAD_REQUEST", message: "Malformed request", details: { reason: "Failed to decode param '%zz'" } },
    });
  });

  it("the map page keeps its own policy (MapLibre workers from blob:) with framing forbidden; assets and tiles are nosniff", async () => {
    const page = await fetch(`${server.base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'self'; img-src 'self' data: blob:; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
    );
    for (const path of ["/", "/map/map.js", "/tiles/index.json", "/openapi.json"]) {
      const res = await fetch(server.base + path);
      expect([path, res.status, res.headers.get("x-content-type-options")]).toEqual([path, 200, "nosniff"]);
    }
  });
});
