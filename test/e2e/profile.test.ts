// GET /api/risk-map/profile end to end: the real server process (server/main.ts) over the real drought artifacts and
// every feed, outbreak and ports snapshot built from the data mirror. Each part is checked against the answer of its
// own endpoint for the same place, asked separately over HTTP: the same numbers, or the same error.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { RISK_TYPES } from "../../server/schemas.ts";
import { PROFILE_DISEASES, PROFILE_PARTS, profileData, type ProfileData } from "../../server/schemas-profile.ts";
import { ALL_SNAPSHOTS, privateArtifacts, startRealServer, type RealServer } from "./real-server.ts";

let server: RealServer;
beforeAll(async () => {
  const priv = privateArtifacts(inject("artifactsDir"), ALL_SNAPSHOTS);
  server = await startRealServer(priv.dir);
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read by path
type Json = any;
const get = (path: string, headers: Record<string, string> = { "X-API-Key": server.key }) => fetch(server.base + path, { headers });
const post = (path: string, body: unknown) =>
  fetch(server.base + path, { method: "POST", headers: { "X-API-Key": server.key, "Content-Type": "application/json" }, body: JSON.stringify(body) });

async function profile(lat: number, lng: number): Promise<ProfileData> {
  const res = await get(`/api/risk-map/profile?lat=${lat}&lng=${lng}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { success: boolean; data: ProfileData };
  expect(body.success).toBe(true);
  // The documented shape, exactly (the schema the OpenAPI document is generated from).
  expect(profileData.strict().safeParse(body.data).error).toBeUndefined();
  return body.data;
}

/** The own endpoint's answer for a part: status and body. */
async function own(request: { path: string; body: Record<string, unknown> }): Promise<{ status: number; body: Json }> {
  const res = await post(request.path, request.body);
  return { status: res.status, body: await res.json() };
}

const freshness = (d: Json) => ({ stale: d.stale, staleSources: d.staleSources, ...(d.staleReason === undefined ? {} : { staleReason: d.staleReason }) });

/**
 * One part against its own endpoint: the endpoint's error, or `expected` made from its answer. Returns whether the
 * part carried an error.
 */
async function checkPart(name: string, part: Json, request: Json, expected: (d: Json) => Json): Promise<boolean> {
  expect(part.request, name).toEqual(request);
  const { status, body } = await own(request);
  if (status !== 200) {
    expect(part, name).toEqual({ error: { code: body.error.code, message: body.error.message, details: body.error.details }, request });
    return true;
  }
  expect(part, name).toEqual({ ...expected(body.data), request, ...freshness(body.data) });
  return false;
}

/** Every part of a profile against its own endpoint; returns the parts that carried an error, by name. */
async function checkAgainstOwnEndpoints(p: ProfileData, lat: number, lng: number): Promise<string[]> {
  const errors: string[] = [];
  for (const riskType of RISK_TYPES) {
    const request = { method: "POST", path: "/api/risk-map/score", body: { lat, lng, riskType } };
    const drought = riskType === "drought";
    const failed = await checkPart(riskType, p.risks[riskType], request, (d) => ({
      riskType,
      riskScore: d.riskScore,
      riskLevel: d.riskLevel,
      summary: d.summary,
      confidence: (drought ? d.details.currentConditions.confidence : d.details.confidence) ?? null,
      confidenceLabel: (drought ? d.details.currentConditions.confidenceLabel : d.details.confidenceLabel) ?? null,
      confidenceNote: (drought ? d.details.currentConditions.confidenceReason : d.details.confidenceBasis) ?? null,
      period: d.details.period,
      asOf: d.details.asOf,
      currency: d.details.currency,
    }));
    if (failed) errors.push(riskType);
  }
  for (const diseaseType of PROFILE_DISEASES) {
    const request = { method: "POST", path: "/api/outbreak-radar/query", body: { lat, lng, diseaseType } };
    const failed = await checkPart(diseaseType, p.outbreaks[diseaseType], request, (d) => ({
      diseaseType,
      country: d.country,
      province: d.province,
      riskScore: d.riskScore,
      riskLevel: d.riskLevel,
      outbreakStatus: d.outbreakStatus,
      trend: d.trend,
      summary: d.summary,
      confidence: d.details.confidence,
      confidenceLabel: d.details.confidenceLabel,
      confidenceNote: d.details.confidenceBasis,
      asOf: d.asOf,
      period: d.details.period,
      currency: d.details.currency,
    }));
    if (failed) errors.push(diseaseType);
  }
  const portRequest = { path: "/api/supply-chain/query", body: { lat, lng, queryType: "congestion" } };
  const { status, body } = await own(portRequest);
  if (status !== 200) {
    errors.push("nearestPort");
    expect(p.nearestPort).toBeNull();
    expect(p.nearestPortReason).toEqual({ code: body.error.code, message: body.error.message, details: body.error.details });
  } else {
    const d = body.data;
    expect(p.nearestPortReason).toBeNull();
    expect(p.nearestPort).toEqual({
      port: d.port,
      distanceKm: d.details.resolution.distanceKm,
      rule: d.details.resolution.rule,
      congestionIndex: d.congestionIndex,
      vesselCount: d.vesselCount,
      avgDwellDays: d.avgDwellDays,
      etaDelayHours: d.etaDelayHours,
      disruptionRisk: d.disruptionRisk,
      summary: d.summary,
      missing: d.details.missing,
      asOf: d.asOf,
      period: d.details.period,
      currency: d.details.currency,
      request: { method: "POST", ...portRequest },
      ...freshness(d),
    });
  }
  return errors;
}

describe("GET /api/risk-map/profile", () => {
  it("Bangkok: every part has its own endpoint's answer or error, the same numbers and the same period", async () => {
    const p = await profile(13.75, 100.5);
    expect(p.location).toEqual({ lat: 13.75, lng: 100.5 });
    // Wildfire (a 48-hour fire file of 2018), heatwave (the station's latest full year is 2017), influenza (FluNet to
    // 2024-03) and COVID-19 (OWID to 2021-07-30) do not reach the present: their endpoints answer 404
    // (docs/methods/currency.md), and so do these parts.
    expect(await checkAgainstOwnEndpoints(p, 13.75, 100.5)).toEqual(["wildfire", "heatwave", "influenza", "covid"]);
    expect((p.risks.heatwave as Json).error.message).toMatch(/latest full year is 2017/);
    expect((p.outbreaks.influenza as Json).error.message).toMatch(/^No current Influenza data for Thailand \(THA\): .* last reports 2024-03 \(2024-03-31\)/);
    // Values read off the real data (the own endpoints' tests derive them): the Bangkok port by coordinates, no daily
    // port calls; the dengue series of the Bangkok province.
    expect(p.nearestPort).toMatchObject({ port: { code: "THBKK", name: "Bangkok" }, distanceKm: 0, congestionIndex: null, disruptionRisk: "low" });
    expect(p.outbreaks.dengue).toMatchObject({ province: { code: "TH-10", name: "Bangkok" }, asOf: "2022-12-31" });
    // The grid's default month is 2023-12 on the data mirror (docs/methods/currency.md "One default drought month").
    expect(p.risks.drought).toMatchObject({ riskType: "drought", period: { from: "2023-12-01", to: "2023-12-31" }, asOf: "2023-12-31", currency: { current: false, cadence: "monthly" } });
    expect(p.risks.flood).toMatchObject({ period: { from: "1985-01-01", to: "2026-05-24" }, asOf: "2026-05-24", currency: { current: false, cadence: "daily" } });
  });

  it("Paris: parts without data carry their endpoint's error (drought outside the region, no wildfire file, no COVID-19 or malaria series)", async () => {
    const p = await profile(48.85, 2.35);
    expect(await checkAgainstOwnEndpoints(p, 48.85, 2.35)).toEqual(["drought", "wildfire", "heatwave", "covid", "malaria"]);
    expect(p.risks.drought).toEqual({
      error: { code: "NOT_FOUND", message: "location is outside the covered area (the land of Thailand, Vietnam and Malaysia)", details: { lat: 48.85, lng: 2.35 } },
      request: { method: "POST", path: "/api/risk-map/score", body: { lat: 48.85, lng: 2.35, riskType: "drought" } },
    });
    expect((p.outbreaks.malaria as Json).error.message).toMatch(/^No Malaria data for France \(FRA\): /);
    expect(p.nearestPort?.port).toEqual({ code: "FRPAR", name: "Paris" });
  });

  it("open Pacific: no port within 50 km is a null port with the reason; the storm record still answers", async () => {
    const p = await profile(0, -150);
    expect(await checkAgainstOwnEndpoints(p, 0, -150)).toEqual(["drought", "flood", "wildfire", "heatwave", "sea_level_rise", ...PROFILE_DISEASES, "nearestPort"]);
    expect(p.nearestPort).toBeNull();
    expect(p.nearestPortReason).toEqual({
      code: "NOT_FOUND",
      message: "No port within 50 km of this location (ports of UN/LOCODE, the World Port Index and PortWatch, worldwide)",
      details: { lat: 0, lng: -150, radiusKm: 50 },
    });
  });

  it("costs one rate-limit point per part; a rejected request only the entry point", async () => {
    const remaining = async (path: string) => Number((await get(path)).headers.get("RateLimit-Remaining"));
    const a = await remaining("/api/risk-map/profile?lat=13.75&lng=100.5");
    const b = await remaining("/api/risk-map/profile?lat=13.75&lng=100.5");
    expect(PROFILE_PARTS).toBe(12);
    expect(a - b).toBe(PROFILE_PARTS);
    const c = await remaining("/api/risk-map/profile?lat=91&lng=100.5");
    expect(b - c).toBe(1);
  });

  it("bad or missing coordinates: 400 VALIDATION_ERROR in the error envelope", async () => {
    const cases: [string, string, string][] = [
      ["lat=abc&lng=100.5", "lat", "must be a decimal number"],
      ["lat=13.75", "lng", "required"],
      ["lat=91&lng=100.5", "lat", "Too big: expected number to be <=90"],
      ["lat=13.75&lng=-180.5", "lng", "Too small: expected number to be >=-180"],
      ["lat=1e1&lng=100", "lat", "must be a decimal number"],
    ];
    for (const [q, path, message] of cases) {
      const res = await get(`/api/risk-map/profile?${q}`);
      expect(res.status, q).toBe(400);
      expect(await res.json(), q).toEqual({ success: false, error: { code: "VALIDATION_ERROR", message: `${path}: ${message}`, details: { issues: [{ path, message }] } } });
    }
  });

  it("401 INVALID_API_KEY without a key or with a wrong one", async () => {
    for (const headers of [{}, { "X-API-Key": "crk_wrong" }] as Record<string, string>[]) {
      const res = await get("/api/risk-map/profile?lat=13.75&lng=100.5", headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ success: false, error: { code: "INVALID_API_KEY", message: "Missing, invalid, or expired API key", details: {} } });
    }
  });
});
