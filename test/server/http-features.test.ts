import { request } from "node:http";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, postJson, startTestServer, type TestServer } from "./helpers.ts";

function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

const logLines: string[] = [];
const logger = pino({ level: "info" }, { write: (line: string) => void logLines.push(line) });

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ logger });
});
afterAll(() => s.close());

describe("CORS", () => {
  it("answers preflight without a key", async () => {
    const res = await fetch(`${s.base}/api/risk-map/batch`, {
      method: "OPTIONS",
      headers: { origin: "https://maps.example", "access-control-request-method": "POST", "access-control-request-headers": "x-api-key, content-type" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    expect(res.headers.get("access-control-allow-headers")).toBe("X-API-Key, Content-Type, If-None-Match, Accept-Encoding");
    expect(res.headers.get("access-control-max-age")).toBe("600");
    expect(await res.text()).toBe("");
  });

  it("every response allows any origin and exposes X-Data-Version and RateLimit-*", async () => {
    for (const res of [await get(s.base, "/api/ping", s.key), await get(s.base, "/api/ping", undefined), await get(s.base, "/nope", undefined)]) {
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-expose-headers")).toContain("X-Data-Version, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset");
      expect(res.headers.get("x-data-version")).toBe("test-v1");
    }
  });

  it("preflight on an unknown path is 404", async () => {
    const res = await fetch(`${s.base}/api/unknown`, { method: "OPTIONS" });
    expect(res.status).toBe(404);
  });
});

describe("ETag", () => {
  it("GET responses carry a weak ETag; If-None-Match gives 304 with no body; a different query gives a different tag", async () => {
    const first = await get(s.base, "/api/risk-map/drought?lat=13.75&lng=100.5", s.key);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    const again = await get(s.base, "/api/risk-map/drought?lat=13.75&lng=100.5", s.key, { "if-none-match": etag! });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
    const list = await get(s.base, "/api/risk-map/drought?lat=13.75&lng=100.5", s.key, { "if-none-match": `"other", ${etag!.slice(2)}` });
    expect(list.status).toBe(304);
    const other = await get(s.base, "/api/risk-map/drought?lat=13.5&lng=100.5", s.key, { "if-none-match": etag! });
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).not.toBe(etag);
  });

  it("POST responses and errors have no ETag", async () => {
    const post = await postJson(s.base, "/api/risk-map/score", { lat: 13, lng: 100, riskType: "drought" }, s.key);
    expect(post.headers.get("etag")).toBeNull();
    const err = await get(s.base, "/api/risk-map/drought?lat=x&lng=1", s.key);
    expect(err.headers.get("etag")).toBeNull();
  });

  it("HEAD gives the headers of GET without a body", async () => {
    const res = await fetch(`${s.base}/api/risk-map/drought?lat=13.75&lng=100.5`, { method: "HEAD", headers: { "x-api-key": s.key } });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toMatch(/^W\//);
    expect(await res.text()).toBe("");
  });
});

describe("compression", () => {
  it("bodies ≥ 1 KiB are gzip or brotli when accepted; small ones are not", async () => {
    const gz = await rawGet(`${s.base}/openapi.json`, { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.vary).toBe("Accept-Encoding");
    const doc = JSON.parse(gunzipSync(gz.body).toString("utf8"));
    expect(doc.openapi).toBe("3.1.0");
    expect(gz.body.length).toBeLessThan(JSON.stringify(doc).length / 3);

    const br = await rawGet(`${s.base}/openapi.json`, { "accept-encoding": "gzip, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(br.body).toString("utf8"))).toEqual(doc);

    const none = await rawGet(`${s.base}/openapi.json`, {});
    expect(none.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(none.body.toString("utf8"))).toEqual(doc);

    const refused = await rawGet(`${s.base}/openapi.json`, { "accept-encoding": "gzip;q=0" });
    expect(refused.headers["content-encoding"]).toBeUndefined();

    // q-values decide, br before gzip at equal q; `*` stands for any coding not named; identity wins a higher q.
    for (const [accept, coding] of [
      ["*", "br"],
      ["GZIP", "gzip"],
      ["gzip;q=1, br;q=0.5", "gzip"],
      ["br;q=0, *", "gzip"],
      ["gzip;q=0.5", "gzip"],
      ["gzip;q=0.5, identity", undefined],
      ["*;q=0", undefined],
      ["identity;q=0", undefined],
    ] as const) {
      expect([accept, (await rawGet(`${s.base}/openapi.json`, { "accept-encoding": accept })).headers["content-encoding"]]).toEqual([accept, coding]);
    }

    const small = await rawGet(`${s.base}/healthz`, { "accept-encoding": "gzip" });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body.toString()).toBe('{"success":true,"data":{"status":"ok"}}');
  });
});

describe("request log", () => {
  it("one line per request: method, path without query, status, duration, key id; never the key", async () => {
    logLines.length = 0;
    await get(s.base, `/api/risk-map/drought?lat=13.75&lng=100.5&secret=${s.key}`, s.key);
    await new Promise((r) => setTimeout(r, 20));
    const lines = logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === "request");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: "GET", path: "/api/risk-map/drought", route: "/api/risk-map/drought", status: 200, keyId: "key_active" });
    expect(lines[0].durationMs).toBeTypeOf("number");
    expect(logLines.join("")).not.toContain(s.key);
  });
});

describe("graceful shutdown", () => {
  it("finishes the in-flight request, then refuses new connections", async () => {
    const t = await startTestServer();
    const body = JSON.stringify({ lat: 13.75, lng: 100.5, riskType: "drought" });
    // Start a request and send only half of its body.
    const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${t.base}/api/risk-map/score`,
        { method: "POST", headers: { "content-type": "application/json", "x-api-key": t.key, "content-length": String(body.length) } },
        (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        closed = t.running.shutdown();
        setTimeout(() => req.end(body.slice(10)), 100);
      }, 100);
    });
    let closed: Promise<void> | undefined;
    const result = await inFlight;
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body).data.riskScore).toBe(56);
    await closed;
    await expect(fetch(`${t.base}/healthz`)).rejects.toThrow();
    await t.close();
  });
});

describe("workers setting", () => {
  it("WORKERS: default 1, a number, auto = cores; 0 and junk rejected", async () => {
    const { workerCount } = await import("../../server/serve.ts");
    const { availableParallelism } = await import("node:os");
    expect(workerCount({})).toBe(1);
    expect(workerCount({ WORKERS: "3" })).toBe(3);
    expect(workerCount({ WORKERS: "auto" })).toBe(availableParallelism());
    expect(() => workerCount({ WORKERS: "0" })).toThrow('WORKERS must be at least 1 or "auto", got "0"');
    expect(() => workerCount({ WORKERS: "many" })).toThrow('WORKERS must be a non-negative integer, got "many"');
  });
});
