import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchCost, createRateLimiter, DEFAULT_PLAN_LIMITS, planLimitsFromEnv } from "../../server/limits/rate-limit.ts";
import { get, postJson, startTestServer, type TestServer } from "./helpers.ts";

describe("rate-limit rules", () => {
  it("batch cost is 1 + ceil(n/10)", () => {
    expect([1, 10, 11, 55, 100].map(batchCost)).toEqual([2, 2, 3, 7, 11]);
  });

  it("plan table: defaults, RATE_LIMITS overrides, bad values rejected", () => {
    expect(planLimitsFromEnv({})).toEqual({
      free: { points: 60, duration: 60 },
      standard: { points: 600, duration: 60 },
      enterprise: { points: 6000, duration: 60 },
    });
    expect(planLimitsFromEnv({ RATE_LIMITS: '{"free":{"points":5,"duration":1},"gold":{"points":9,"duration":60}}' })).toEqual({
      ...DEFAULT_PLAN_LIMITS,
      free: { points: 5, duration: 1 },
      gold: { points: 9, duration: 60 },
    });
    expect(() => planLimitsFromEnv({ RATE_LIMITS: '{"free":{"points":-1,"duration":60}}' })).toThrow(/RATE_LIMITS: .* at free.points/);
  });

  it("unknown plans fall back to free", async () => {
    const limiter = createRateLimiter({ plans: { free: { points: 2, duration: 60 } } });
    expect(await limiter.consume("k", "platinum", 1)).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(await limiter.consume("k", "free", 1)).toMatchObject({ allowed: true, limit: 2, remaining: 0 });
    expect(await limiter.consume("k", "free", 1)).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
  });
});

describe("429 over HTTP", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ plans: { free: { points: 1000, duration: 60 }, tight: { points: 3, duration: 60 } } });
  });
  afterAll(() => s.close());

  it("counts down RateLimit-Remaining, then 429 with Retry-After, before body checks", async () => {
    for (const remaining of ["2", "1", "0"]) {
      const res = await get(s.base, "/api/ping", s.keys.tight);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("3");
      expect(res.headers.get("ratelimit-remaining")).toBe(remaining);
      const reset = Number(res.headers.get("ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(59);
      expect(reset).toBeLessThanOrEqual(60);
    }
    // Over budget: 429 even with a malformed body (rate limit is checked before the body).
    const res = await postJson(s.base, "/api/risk-map/score", "{bad json", s.keys.tight);
    expect(res.status).toBe(429);
    const retry = Number(res.headers.get("retry-after"));
    expect(retry).toBeGreaterThanOrEqual(59);
    expect(retry).toBeLessThanOrEqual(60);
    expect(res.headers.get("ratelimit-remaining")).toBe("0");
    expect(await res.json()).toEqual({
      success: false,
      error: { code: "RATE_LIMIT_EXCEEDED", message: "Request quota exceeded for the plan", details: { limit: 3, retryAfterSeconds: retry } },
    });
    // Another key's budget is untouched.
    expect((await get(s.base, "/api/ping", s.key)).status).toBe(200);
  });

  it("CORS exposes the rate-limit headers", async () => {
    const res = await get(s.base, "/api/ping", s.key);
    expect(res.headers.get("access-control-expose-headers")).toBe(
      "X-Data-Version, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, ETag, X-Data-Period, X-Data-As-Of, X-Data-Current",
    );
  });
});

describe("batch cost over HTTP", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ plans: { free: { points: 14, duration: 60 }, tight: { points: 3, duration: 60 } } });
  });
  afterAll(() => s.close());

  it("a batch of 100 costs 11 points; the next one no longer fits", async () => {
    const locations = Array.from({ length: 100 }, () => ({ lat: 13, lng: 100 }));
    const first = await postJson(s.base, "/api/risk-map/batch", { locations, riskType: "drought" }, s.key);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-remaining")).toBe("3"); // 14 - 11
    const second = await postJson(s.base, "/api/risk-map/batch", { locations, riskType: "drought" }, s.key);
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).not.toBeNull();
    expect((await second.json()).error.code).toBe("RATE_LIMIT_EXCEEDED");
    const small = await postJson(s.base, "/api/risk-map/batch", { locations: [{ lat: 13, lng: 100 }], riskType: "drought" }, s.key);
    expect(small.status).toBe(429); // the rejected batch's points still count in this window
  });
});
