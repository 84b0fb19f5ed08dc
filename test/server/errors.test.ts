import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKey } from "../../server/auth/key-store.ts";
import { get, postJson, startTestServer, type TestServer } from "./helpers.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const INVALID_KEY = { success: false, error: { code: "INVALID_API_KEY", message: "Missing, invalid, or expired API key", details: {} } };
const VALID_SCORE = { lat: 13, lng: 100, riskType: "drought" };

describe("401 INVALID_API_KEY", () => {
  it("is the same for missing, malformed, unknown, revoked and expired keys", async () => {
    for (const key of [undefined, "", "not-a-key", generateKey(), s.keys.revoked, s.keys.expired, s.key + "x", s.key.toUpperCase()]) {
      for (const res of [await get(s.base, "/api/ping", key), await postJson(s.base, "/api/risk-map/score", VALID_SCORE, key)]) {
        expect(res.status).toBe(401);
        expect(res.headers.get("x-data-version")).toBe("test-v1");
        expect(res.headers.get("ratelimit-limit")).toBeNull();
        expect(await res.json()).toEqual(INVALID_KEY);
      }
    }
  });

  it("the key in a query string is not accepted", async () => {
    const res = await get(s.base, `/api/ping?api_key=${s.key}`, undefined);
    expect(res.status).toBe(401);
  });
});

describe("routing errors", () => {
  it("unknown route → 404 NOT_FOUND (before auth)", async () => {
    const res = await get(s.base, "/api/nothing-here?x=1", undefined);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toEqual({ success: false, error: { code: "NOT_FOUND", message: "No route GET /api/nothing-here", details: {} } });
  });

  it("wrong method on a known route → 405 with Allow (before auth)", async () => {
    const r1 = await get(s.base, "/api/risk-map/score", undefined);
    expect(r1.status).toBe(405);
    expect(r1.headers.get("allow")).toBe("POST, OPTIONS");
    expect(await r1.json()).toEqual({
      success: false,
      error: { code: "METHOD_NOT_ALLOWED", message: "Method GET is not allowed on /api/risk-map/score", details: { allow: ["POST", "OPTIONS"] } },
    });
    const r2 = await fetch(`${s.base}/api/risk-map/drought`, { method: "DELETE", headers: { "x-api-key": s.key } });
    expect(r2.status).toBe(405);
    expect(r2.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await r2.json()).error.code).toBe("METHOD_NOT_ALLOWED");
  });
});

describe("body errors", () => {
  it("415 for a missing or non-JSON content type, after auth", async () => {
    const noType = await fetch(`${s.base}/api/risk-map/score`, { method: "POST", headers: { "x-api-key": s.key }, body: new Uint8Array(Buffer.from(JSON.stringify(VALID_SCORE))) });
    expect(noType.status).toBe(415);
    expect(await noType.json()).toEqual({
      success: false,
      error: { code: "UNSUPPORTED_MEDIA_TYPE", message: "Content-Type must be application/json", details: { received: null } },
    });
    const text = await postJson(s.base, "/api/risk-map/score", VALID_SCORE, s.key, { "content-type": "text/plain" });
    expect(text.status).toBe(415);
    expect((await text.json()).error.details).toEqual({ received: "text/plain" });
    const latin = await postJson(s.base, "/api/risk-map/score", VALID_SCORE, s.key, { "content-type": "application/json; charset=latin1" });
    expect(latin.status).toBe(415);
    const utf8 = await postJson(s.base, "/api/risk-map/score", VALID_SCORE, s.key, { "content-type": "Application/JSON; charset=UTF-8" });
    expect(utf8.status).toBe(200);
    const noKey = await postJson(s.base, "/api/risk-map/score", VALID_SCORE, undefined, { "content-type": "text/plain" });
    expect(noKey.status).toBe(401);
  });

  it("413 for a body over 64 KiB (65536 bytes ok)", async () => {
    const TOO_LARGE = { success: false, error: { code: "PAYLOAD_TOO_LARGE", message: "Request body exceeds 65536 bytes", details: { limitBytes: 65536 } } };
    const pad = (n: number) => {
      const base = JSON.stringify({ ...VALID_SCORE, pad: "" });
      return base.replace('"pad":""', `"pad":"${"x".repeat(n - base.length)}"`);
    };
    expect(pad(65536).length).toBe(65536);
    const atLimit = await postJson(s.base, "/api/risk-map/score", pad(65536), s.key);
    expect(atLimit.status).toBe(400); // read fully; the unknown field "pad" is what fails
    expect((await atLimit.json()).error.message).toBe("pad: unknown field");
    const over = await postJson(s.base, "/api/risk-map/score", pad(65537), s.key);
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual(TOO_LARGE);
  });

  it("413 for a chunked body over the limit and for a huge declared length", async () => {
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${s.base}/api/risk-map/batch`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": s.key } }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      });
      req.on("error", reject);
      for (let i = 0; i < 10; i++) req.write("x".repeat(10_000));
      req.end();
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).error.code).toBe("PAYLOAD_TOO_LARGE");

    const huge = await new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      const req = request(
        `${s.base}/api/risk-map/batch`,
        { method: "POST", headers: { "content-type": "application/json", "x-api-key": s.key, "content-length": String(50 * 1024 * 1024) } },
        (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
        },
      );
      req.on("error", reject);
      req.write("{");
    });
    expect(huge.status).toBe(413);
    expect(huge.connection).toBe("close");
    expect(JSON.parse(huge.body).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("malformed and empty JSON → 400 VALIDATION_ERROR", async () => {
    const bad = await postJson(s.base, "/api/risk-map/score", '{"lat": 13,', s.key);
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.message).toBe("Request body is not valid JSON");
    expect(body.error.details.reason).toBe("malformed_json");
    const empty = await postJson(s.base, "/api/risk-map/batch", "", s.key);
    expect(await empty.json()).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: "Request body is empty; a JSON object is required", details: { reason: "empty_body" } },
    });
  });
});

describe("500 INTERNAL_ERROR", () => {
  it("hides the error and the stack", async () => {
    const original = s.service.drought;
    s.service.drought = () => {
      throw new Error("database password is hunter2");
    };
    try {
      const res = await get(s.base, "/api/risk-map/drought?lat=13&lng=100", s.key);
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ success: false, error: { code: "INTERNAL_ERROR", message: "Unexpected server error", details: {} } });
      expect(text).not.toContain("hunter2");
      expect(text).not.toContain("at ");
    } finally {
      s.service.drought = original;
    }
  });
});
