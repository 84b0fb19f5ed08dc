// Hostile requests through a running server (issue 9, "Requests"): deeply nested JSON, security headers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, postJson, startTestServer, type TestServer } from "./helpers.ts";

const MIB = 1024 * 1024;
const MAX_JSON_DEPTH = 32; // docs/api.md "Limits"
const VALID_SCORE = { lat: 13, lng: 100, riskType: "drought" };

/** `{"a":{"a":…1…}}` nested `depth` objects deep. */
function nestedObjects(depth: number): string {
  return '{"a":'.repeat(depth - 1) + '{"a":1}' + "}".repeat(depth - 1);
}

let s: TestServer; // 1 MiB body limit so that deep bodies are not simply too large
beforeAll(async () => {
  s = await startTestServer({ bodyLimit: MIB });
});
afterAll(async () => {
  await s.close();
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
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
