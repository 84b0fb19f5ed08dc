// Hostile requests through a running server (issue 9, "Requests"): deeply nested JSON, malformed HTTP answered by
// Node itself, slow bodies and headers, clients that disconnect mid-body, security headers, compressed bodies.
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, postJson, startTestServer, type TestServer } from "./helpers.ts";
import { envelopeOf, rawExchange } from "./raw-http.ts";

const MIB = 1024 * 1024;
const MAX_JSON_DEPTH = 32; // docs/api.md "Limits"
const VALID_SCORE = { lat: 13, lng: 100, riskType: "drought" };

const logLines: string[] = [];
const logger = pino({ level: "debug" }, { write: (line: string) => void logLines.push(line) });
const logged = () => logLines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown; [k: string]: unknown });

/** `{"a":{"a":…1…}}` nested `depth` objects deep. */
function nestedObjects(depth: number): string {
  return '{"a":'.repeat(depth - 1) + '{"a":1}' + "}".repeat(depth - 1);
}

let s: TestServer; // 1 MiB body limit so that deep bodies are not simply too large
let short: TestServer; // short timeouts
beforeAll(async () => {
  s = await startTestServer({ bodyLimit: MIB, logger });
  short = await startTestServer({ timeouts: { requestTimeoutMs: 1000, headersTimeoutMs: 500 } });
});
afterAll(async () => {
  await s.close();
  await short.close();
});

describe("JSON nesting depth", () => {
  it("a body nested 100,000 levels deep is 400 VALIDATION_ERROR too_deep", async () => {
    const res = await postJson(s.base, "/api/risk-map/score", nestedObjects(100_000), s.key);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      success: false,
      error: {
        code: "VALIDATION_ERROR",
        message: `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
        details: { reason: "too_deep", maxDepth: MAX_JSON_DEPTH },
      },
    });
  });

  it("16 deep bodies at once are all 400 and /healthz answers alongside them", async () => {
    const body = nestedObjects(100_000);
    const deep = Array.from({ length: 16 }, () => postJson(s.base, "/api/risk-map/batch", body, s.key));
    const health = get(s.base, "/healthz", undefined);
    const answers = await Promise.all([...deep, health]);
    expect(answers.map((r) => r.status)).toEqual([...Array(16).fill(400), 200]);
    for (const r of answers.slice(0, 16)) expect((await r.json()).error.details.reason).toBe("too_deep");
  });

  it(`depth ${MAX_JSON_DEPTH} passes the depth check, ${MAX_JSON_DEPTH + 1} does not; brackets inside strings do not count`, async () => {
    const at = (depth: number) => `{"lat":13,"lng":100,"riskType":"drought","extra":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
    const ok = await postJson(s.base, "/api/risk-map/score", at(MAX_JSON_DEPTH), s.key);
    expect(ok.status).toBe(400);
    expect((await ok.json()).error.message).toBe("extra: unknown field");
    const over = await postJson(s.base, "/api/risk-map/score", at(MAX_JSON_DEPTH + 1), s.key);
    expect((await over.json()).error.details.reason).toBe("too_deep");
    const inString = await postJson(s.base, "/api/risk-map/score", `{"lat":13,"lng":100,"riskType":"\\"${"[{".repeat(5000)}"}`, s.key);
    expect((await inString.json()).error.message).toMatch(/^riskType: /);
  });
});

describe("repeated JSON keys (issue 24)", () => {
  const reasonOf = async (body: string, path = "/api/risk-map/batch") => {
    const res = await postJson(s.base, path, body, s.key);
    const error = (await res.json()).error as { code: string; message: string; details: { reason?: string } } | undefined;
    return [res.status, error?.code, error?.message, error?.details.reason];
  };

  it("is 400 VALIDATION_ERROR naming the key by its path, also escaped or nested", async () => {
    expect(await reasonOf('{"riskType":"drought","locations":[{"lat":1,"lng":100},{"lat":13,"lng":100,"lat":14}]}')).toEqual([400, "VALIDATION_ERROR", "locations[1].lat: duplicate key", "duplicate_key"]);
    expect(await reasonOf('{"lat":13,"l\\u0061t":14,"lng":100,"riskType":"drought"}', "/api/risk-map/score")).toEqual([400, "VALIDATION_ERROR", "lat: duplicate key", "duplicate_key"]);
    expect(await reasonOf('{"riskType":"drought","riskType":"drought","locations":[]}')).toEqual([400, "VALIDATION_ERROR", "riskType: duplicate key", "duplicate_key"]);
  });

  it("the same key in sibling objects, or as a string value, is no duplicate", async () => {
    const batch = JSON.stringify({ riskType: "drought", locations: [{ id: "lat", lat: 13, lng: 100 }, { id: "lat", lat: 14, lng: 100 }] });
    expect((await postJson(s.base, "/api/risk-map/batch", batch, s.key)).status).toBe(200);
  });

  it("keeps the depth limit: a deep body is too_deep before any key is compared", async () => {
    expect((await reasonOf(nestedObjects(100_000)))[3]).toBe("too_deep");
  });
});

describe("malformed HTTP that Node answers itself", () => {
  const expectEnvelope = (a: Awaited<ReturnType<typeof rawExchange>>, status: number, code: string) => {
    expect(a.status).toBe(status);
    expect(envelopeOf(a)?.code).toBe(code);
    expect(a.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(a.headers["content-length"]).toBe(String(Buffer.byteLength(a.body)));
    expect(a.headers["connection"]).toBe("close");
    expect(a.headers["x-content-type-options"]).toBe("nosniff");
    expect(a.closedByServer).toBe(true);
  };

  it("a malformed request line or header is 400 BAD_REQUEST in the envelope, then the connection closes", async () => {
    const line = await rawExchange(s.running.port, ["NOT AN HTTP REQUEST\r\n\r\n"], { timeoutMs: 5000 });
    expectEnvelope(line, 400, "BAD_REQUEST");
    expect(envelopeOf(line)).toEqual({ code: "BAD_REQUEST", message: "Malformed HTTP request", details: { reason: expect.any(String) } });
    const header = await rawExchange(s.running.port, ["GET /healthz HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n"], { timeoutMs: 5000 });
    expectEnvelope(header, 400, "BAD_REQUEST");
  });

  it("an HTTP/1.1 request without Host is 400 BAD_REQUEST in the envelope", async () => {
    const a = await rawExchange(s.running.port, ["GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n"], { timeoutMs: 5000 });
    expectEnvelope(a, 400, "BAD_REQUEST");
    expect(envelopeOf(a)).toEqual({ code: "BAD_REQUEST", message: "HTTP/1.1 requests need a Host header", details: {} });
  });

  it("headers over 16 KB are 431 HEADERS_TOO_LARGE in the envelope", async () => {
    const a = await rawExchange(s.running.port, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`], { timeoutMs: 5000 });
    expectEnvelope(a, 431, "HEADERS_TOO_LARGE");
  });
});

describe("timeouts", () => {
  const head = (length: number) => `POST /api/risk-map/score HTTP/1.1\r\nHost: x\r\nX-API-Key: ${short.key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it("a body sent one byte at a time past the request timeout is 408 REQUEST_TIMEOUT and the connection closes", async () => {
    const body = JSON.stringify(VALID_SCORE);
    const a = await rawExchange(short.running.port, [head(body.length), ...body], { gapMs: 200, timeoutMs: 8000 });
    expect(a.status).toBe(408);
    expect(envelopeOf(a)?.code).toBe("REQUEST_TIMEOUT");
    expect(a.closedByServer).toBe(true);
  });

  it("headers sent one byte at a time past the headers timeout are 408 and the connection closes", async () => {
    const a = await rawExchange(short.running.port, [..."GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: aaaaaaaaaaaaaaaaaaaa\r\n\r\n"], { gapMs: 100, timeoutMs: 8000 });
    expect(a.status).toBe(408);
    expect(envelopeOf(a)?.code).toBe("REQUEST_TIMEOUT");
    expect(a.closedByServer).toBe(true);
  });

  it("a normal request on the short-timeout server still works", async () => {
    expect((await postJson(short.base, "/api/risk-map/score", VALID_SCORE, short.key)).status).toBe(200);
  });
});

describe("client that disconnects mid-body", () => {
  it("is logged as an aborted request below error level, without a stack, and not counted as 5xx", async () => {
    const head = `POST /api/risk-map/score HTTP/1.1\r\nHost: x\r\nX-API-Key: ${s.key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    await rawExchange(s.running.port, [head, '{"lat": 13, '], { gapMs: 50, abortAfterMs: 100, timeoutMs: 5000 });
    const deadline = Date.now() + 5000;
    while (!logged().some((l) => l.msg === "request aborted" || l.level >= 50) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const lines = logged();
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    const aborted = lines.filter((l) => l.msg === "request aborted");
    expect(aborted).toHaveLength(1);
    expect(aborted[0]).toMatchObject({ level: 30, method: "POST", path: "/api/risk-map/score", route: "/api/risk-map/score" });
    expect(aborted[0].err).toBeUndefined();
    const metrics = await (await get(s.base, "/metrics", undefined)).text();
    expect(metrics).not.toMatch(/http_requests_total\{[^}]*status="5\d\d"/);
  });
});

describe("security headers", () => {
  it("every response has X-Content-Type-Options: nosniff and a CSP with frame-ancestors 'none'", async () => {
    const answers = [
      await get(s.base, "/healthz", undefined),
      await get(s.base, "/openapi.json", undefined),
      await get(s.base, "/nope", undefined),
      await get(s.base, "/api/ping", undefined),
      await get(s.base, "/api/ping", s.key),
      await postJson(s.base, "/api/risk-map/score", VALID_SCORE, s.key, { "content-type": "text/plain" }),
      await fetch(`${s.base}/api/ping`, { method: "OPTIONS" }),
    ];
    for (const res of answers) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
    }
  });

  it("/docs keeps its own policy and forbids framing too", async () => {
    const res = await get(s.base, "/docs", undefined);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; worker-src blob:; frame-ancestors 'none'",
    );
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("Content-Encoding of request bodies", () => {
  const plain = Buffer.from(JSON.stringify(VALID_SCORE));
  const post = (body: Buffer, encoding: string) =>
    fetch(`${s.base}/api/risk-map/score`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": encoding, "x-api-key": s.key },
      body: new Uint8Array(body),
    });

  it("gzip, deflate and br bodies are decoded and answered like the plain body", async () => {
    const expected = await (await postJson(s.base, "/api/risk-map/score", VALID_SCORE, s.key)).json();
    expect(expected.success).toBe(true);
    for (const [encoding, body] of [
      ["gzip", gzipSync(plain)],
      ["GZIP", gzipSync(plain)],
      ["x-gzip", gzipSync(plain)],
      ["deflate", deflateSync(plain)],
      ["br", brotliCompressSync(plain)],
      ["identity", plain],
    ] as const) {
      const res = await post(body, encoding);
      expect([encoding, res.status]).toEqual([encoding, 200]);
      expect(await res.json()).toEqual(expected);
    }
  });

  it("an unknown or stacked encoding is 415 UNSUPPORTED_MEDIA_TYPE", async () => {
    for (const encoding of ["compress", "zstd", "gzip, br"]) {
      const res = await post(plain, encoding);
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({
        success: false,
        error: {
          code: "UNSUPPORTED_MEDIA_TYPE",
          message: "Content-Encoding must be one of gzip, deflate, br (or none)",
          details: { received: encoding, supported: ["gzip", "deflate", "br", "identity"] },
        },
      });
    }
  });

  it("a gzip bomb (small on the wire, 64 MiB decoded) is 413 on its decoded size", async () => {
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"lat":"'), Buffer.alloc(64 * MIB, 0x30), Buffer.from('"}')]), { level: 9 });
    expect(bomb.length).toBeLessThan(MIB);
    for (const encoding of ["gzip"]) {
      const res = await post(bomb, encoding);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        success: false,
        error: { code: "PAYLOAD_TOO_LARGE", message: `Decoded request body exceeds ${MIB} bytes`, details: { limitBytes: MIB } },
      });
    }
  });

  it("a corrupt or truncated gzip body is 400 with reason corrupt_encoding", async () => {
    const gz = gzipSync(plain);
    for (const body of [gz.subarray(0, gz.length - 6), Buffer.from("not gzip at all"), Buffer.concat([gz.subarray(0, 12), Buffer.alloc(20, 0xff)])]) {
      const res = await post(body, "gzip");
      expect(res.status).toBe(400);
      const err = (await res.json()).error;
      expect(err.code).toBe("VALIDATION_ERROR");
      expect(err.message).toBe("Request body is not valid gzip data");
      expect(err.details.reason).toBe("corrupt_encoding");
    }
  });
});

describe("reading a body (body-parser, with our limits around it)", () => {
  const head = (extra: string) => `POST /api/risk-map/score HTTP/1.1\r\nHost: x\r\nX-API-Key: ${s.key}\r\nContent-Type: application/json\r\nConnection: close\r\n${extra}\r\n`;

  it("a whole body followed at once by the client's FIN (half-close) is still read and answered", async () => {
    const body = JSON.stringify(VALID_SCORE);
    const a = await rawExchange(s.running.port, [head(`Content-Length: ${body.length}\r\n`) + body], { end: true, timeoutMs: 5000 });
    expect([a.status, envelopeOf(a)]).toEqual([200, undefined]);
  });

  it("a compressed body of no bytes is the empty body, 400 empty_body", async () => {
    const a = await rawExchange(s.running.port, [head("Content-Encoding: gzip\r\nContent-Length: 0\r\n")], { timeoutMs: 5000 });
    expect([a.status, envelopeOf(a)?.details.reason]).toEqual([400, "empty_body"]);
  });

  it("a gzip body over the limit as sent is 413 though it decodes to less (stored blocks)", async () => {
    const json = Buffer.from(`{"lat":"${"x".repeat(MIB - 20)}"}`);
    const stored = gzipSync(json, { level: 0 });
    expect([json.length < MIB, stored.length > MIB]).toEqual([true, true]);
    const res = await fetch(`${s.base}/api/risk-map/score`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip", "x-api-key": s.key },
      body: new Uint8Array(stored),
    });
    expect([res.status, (await res.json()).error]).toEqual([413, { code: "PAYLOAD_TOO_LARGE", message: `Request body exceeds ${MIB} bytes`, details: { limitBytes: MIB } }]);
  });

  it("a chunked body going on past 16 × the limit is 413 at once and the connection closes (no draining to its end: 5 s of discarding at most, body-discard.test.ts)", async () => {
    const chunk = `${MIB.toString(16)}\r\n${"x".repeat(MIB)}\r\n`;
    const a = await rawExchange(s.running.port, [head("Transfer-Encoding: chunked\r\n"), ...Array<string>(17).fill(chunk)], { timeoutMs: 10_000 });
    expect([a.status, envelopeOf(a)?.code, a.headers.connection, a.closedByServer]).toEqual([413, "PAYLOAD_TOO_LARGE", "close", true]);
  });
});

describe("documentation of the limits", () => {
  it("/openapi.json lists 408 and 431 on every route, and the body limits on POST routes", async () => {
    const doc = await (await get(s.base, "/openapi.json", undefined)).json();
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, unknown>; description?: string; requestBody?: { content: Record<string, unknown> } }>>)) {
      if (!path.startsWith("/api/") || path === "/api/ping") continue;
      for (const [method, op] of Object.entries(methods)) {
        expect([path, method, "408" in op.responses, "431" in op.responses]).toEqual([path, method, true, true]);
        if (method !== "post") continue;
        // The bulk route's CSV/NDJSON body has limits of its own (rows, decoded bytes, line length).
        if (op.requestBody?.content["application/json"] === undefined) expect(op.description).toMatch(/Limits: 1,000,000 rows, 64 MiB decoded, 4096 bytes a line/);
        else expect(op.description).toContain(`JSON body of at most ${MIB} bytes (also once decoded), nested at most ${MAX_JSON_DEPTH} levels`);
      }
    }
  });
});

describe("listen backlog (issue 24: a burst of new connections)", () => {
  it("the listening socket queues 4,096 pending connections (capped by net.core.somaxconn), not Node's 511", async () => {
    const { spawnSync } = await import("node:child_process");
    const { readFileSync } = await import("node:fs");
    const port = new URL(s.base).port;
    // ss -ltn shows a listening socket's backlog in its Send-Q column.
    const line = spawnSync("ss", ["-ltnH", `sport = :${port}`], { encoding: "utf8" }).stdout.trim();
    const somaxconn = Number(readFileSync("/proc/sys/net/core/somaxconn", "utf8"));
    expect(Number(line.split(/\s+/)[2])).toBe(Math.min(4096, somaxconn));
  });
});
