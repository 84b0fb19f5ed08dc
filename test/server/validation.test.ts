import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findForbiddenKey, formatPath } from "../../server/http/validate.ts";
import { get, postJson, startTestServer, type TestServer } from "./helpers.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

function validationError(message: string, issues: Array<{ path: string; message: string }>) {
  return { success: false, error: { code: "VALIDATION_ERROR", message, details: { issues } } };
}

async function score(body: unknown) {
  const res = await postJson(s.base, "/api/risk-map/score", body, s.key);
  return { status: res.status, body: await res.json() };
}

const TOO_BIG_90 = "Too big: expected number to be <=90";
const TOO_SMALL_90 = "Too small: expected number to be >=-90";

describe("score body", () => {
  it("lat ±90 and lng ±180 are accepted (reach the service)", async () => {
    for (const [lat, lng] of [[90, 180], [-90, -180], [90, -180], [-90, 180]]) {
      const r = await score({ lat, lng, riskType: "drought" });
      expect(r.status).toBe(404); // outside the fake's box: validation passed
      expect(r.body.error.code).toBe("NOT_FOUND");
    }
  });

  it("lat 90.0001 / -90.0001 and lng 180.0001 / -180.0001 are 400 naming the field", async () => {
    expect(await score({ lat: 90.0001, lng: 0, riskType: "drought" })).toEqual({ status: 400, body: validationError(`lat: ${TOO_BIG_90}`, [{ path: "lat", message: TOO_BIG_90 }]) });
    expect(await score({ lat: -90.0001, lng: 0, riskType: "drought" })).toEqual({ status: 400, body: validationError(`lat: ${TOO_SMALL_90}`, [{ path: "lat", message: TOO_SMALL_90 }]) });
    const big = "Too big: expected number to be <=180";
    const small = "Too small: expected number to be >=-180";
    expect(await score({ lat: 0, lng: 180.0001, riskType: "drought" })).toEqual({ status: 400, body: validationError(`lng: ${big}`, [{ path: "lng", message: big }]) });
    expect(await score({ lat: 0, lng: -180.0001, riskType: "drought" })).toEqual({ status: 400, body: validationError(`lng: ${small}`, [{ path: "lng", message: small }]) });
  });

  it("numeric strings, booleans, null are wrong types", async () => {
    const m = "Invalid input: expected number, received string";
    expect(await score({ lat: "12", lng: 100, riskType: "drought" })).toEqual({ status: 400, body: validationError(`lat: ${m}`, [{ path: "lat", message: m }]) });
    expect((await score({ lat: 12, lng: null, riskType: "drought" })).body.error.message).toBe("lng: Invalid input: expected number, received null");
    expect((await score({ lat: true, lng: 100, riskType: "drought" })).body.error.message).toBe("lat: Invalid input: expected number, received boolean");
    expect((await score({ lat: 12, lng: 100, riskType: "drought", includeHistorical: "yes" })).body.error.message).toBe(
      "includeHistorical: Invalid input: expected boolean, received string",
    );
  });

  it("Infinity (1e999 in JSON) is rejected; NaN is not JSON at all", async () => {
    const m = "Invalid input: expected number, received Infinity";
    expect(await score('{"lat": 1e999, "lng": 100, "riskType": "drought"}')).toEqual({ status: 400, body: validationError(`lat: ${m}`, [{ path: "lat", message: m }]) });
    const nan = await score('{"lat": NaN, "lng": 100, "riskType": "drought"}');
    expect(nan.status).toBe(400);
    expect(nan.body.error.message).toBe("Request body is not valid JSON");
  });

  it("missing required fields are listed, each as required", async () => {
    expect(await score({ riskType: "drought" })).toEqual({
      status: 400,
      body: validationError("lat: required", [{ path: "lat", message: "required" }, { path: "lng", message: "required" }]),
    });
    expect(await score({ lat: 1, lng: 1 })).toEqual({ status: 400, body: validationError("riskType: required", [{ path: "riskType", message: "required" }]) });
  });

  it("unknown riskType and timeframe are enum errors", async () => {
    const m = 'Invalid option: expected one of "drought"|"flood"|"wildfire"|"heatwave"|"storm"|"sea_level_rise"';
    expect(await score({ lat: 1, lng: 1, riskType: "tsunami" })).toEqual({ status: 400, body: validationError(`riskType: ${m}`, [{ path: "riskType", message: m }]) });
    expect((await score({ lat: 1, lng: 1, riskType: "Drought" })).status).toBe(400);
    const t = 'Invalid option: expected one of "7d"|"30d"|"90d"|"1y"';
    expect((await score({ lat: 1, lng: 1, riskType: "drought", timeframe: "2y" })).body.error.message).toBe(`timeframe: ${t}`);
  });

  it("unknown fields are rejected by name", async () => {
    expect(await score({ lat: 1, lng: 1, riskType: "drought", latitude: 1 })).toEqual({
      status: 400,
      body: validationError("latitude: unknown field", [{ path: "latitude", message: "unknown field" }]),
    });
  });

  it("prototype-pollution keys anywhere are 400", async () => {
    for (const [raw, path] of [
      ['{"lat": 1, "lng": 1, "riskType": "drought", "__proto__": {"polluted": 1}}', "__proto__"],
      ['{"lat": 1, "lng": 1, "riskType": "drought", "constructor": {"prototype": {}}}', "constructor"],
      ['{"locations": [{"lat": 1, "lng": 1}, {"lat": 1, "lng": 1, "prototype": 1}], "riskType": "drought"}', "locations[1].prototype"],
      ['{"locations": [{"lat": 1, "lng": 1, "__proto__": {"x": 1}}], "riskType": "drought"}', "locations[0].__proto__"],
    ] as const) {
      const res = await postJson(s.base, raw.includes("locations") ? "/api/risk-map/batch" : "/api/risk-map/score", raw, s.key);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(validationError(`${path}: forbidden key`, [{ path, message: "forbidden key" }]));
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("the body must be a JSON object", async () => {
    for (const raw of ["[1,2]", "42", '"text"', "null"]) {
      const r = await score(raw);
      expect(r).toEqual({ status: 400, body: { success: false, error: { code: "VALIDATION_ERROR", message: "Request body must be a JSON object", details: { reason: "not_an_object" } } } });
    }
  });

  it("format query must be json or geojson", async () => {
    const res = await postJson(s.base, "/api/risk-map/score?format=xml", { lat: 13, lng: 100, riskType: "drought" }, s.key);
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe('format: Invalid option: expected one of "json"|"geojson"');
  });
});

describe("batch body", () => {
  const loc = { lat: 13, lng: 100 };
  async function batch(body: unknown) {
    const res = await postJson(s.base, "/api/risk-map/batch", body, s.key);
    return { status: res.status, body: await res.json() };
  }

  it("101 locations → 400, 0 locations → 400", async () => {
    const m = "Too big: expected array to have <=100 items";
    expect(await batch({ locations: Array.from({ length: 101 }, () => loc), riskType: "drought" })).toEqual({
      status: 400,
      body: validationError(`locations: ${m}`, [{ path: "locations", message: m }]),
    });
    expect((await batch({ locations: [], riskType: "drought" })).body.error.message).toBe("locations: Too small: expected array to have >=1 items");
  });

  it("names the offending element path", async () => {
    const r = await batch({ locations: [loc, loc, loc, { lat: 91, lng: 1 }], riskType: "drought" });
    expect(r).toEqual({ status: 400, body: validationError(`locations[3].lat: ${TOO_BIG_90}`, [{ path: "locations[3].lat", message: TOO_BIG_90 }]) });
    const id = await batch({ locations: [{ id: 7, lat: 1, lng: 1 }], riskType: "drought" });
    expect(id.body.error.message).toBe("locations[0].id: Invalid input: expected string, received number");
    const str = await batch({ locations: [loc, { lat: 1, lng: "100" }], riskType: "drought" });
    expect(str.body.error.message).toBe("locations[1].lng: Invalid input: expected number, received string");
  });

  it("riskType other than drought and unknown format are 400", async () => {
    expect((await batch({ locations: [loc], riskType: "flood" })).body.error.message).toBe('riskType: Invalid input: expected "drought"');
    expect((await batch({ locations: [loc], riskType: "drought", format: "xml" })).body.error.message).toBe('format: Invalid option: expected one of "json"|"geojson"|"csv"');
    expect((await batch({ riskType: "drought" })).body.error.message).toBe("locations: required");
  });
});

describe("query strings", () => {
  async function drought(q: string) {
    const res = await get(s.base, `/api/risk-map/drought?${q}`, s.key);
    return { status: res.status, body: await res.json() };
  }
  const notDecimal = (field: string) => validationError(`${field}: must be a decimal number`, [{ path: field, message: "must be a decimal number" }]);

  it("strict decimals: abc, empty, 1e999, 0x10, 1e2, ' 1', '1.' are 400", async () => {
    for (const v of ["abc", "", "1e999", "0x10", "1e2", "%201", "1.", "Infinity", "NaN", "1,5"]) {
      expect(await drought(`lat=${v}&lng=100`)).toEqual({ status: 400, body: notDecimal("lat") });
    }
    expect(await drought("lat=13&lng=0x10")).toEqual({ status: 400, body: notDecimal("lng") });
  });

  it("range boundaries on query numbers", async () => {
    expect((await drought("lat=90&lng=180")).status).toBe(404);
    expect((await drought("lat=-90&lng=-180")).status).toBe(404);
    expect(await drought("lat=90.0001&lng=100")).toEqual({ status: 400, body: validationError(`lat: ${TOO_BIG_90}`, [{ path: "lat", message: TOO_BIG_90 }]) });
    expect((await drought("lat=13&lng=-180.0001")).body.error.message).toBe("lng: Too small: expected number to be >=-180");
  });

  it("missing and repeated parameters", async () => {
    expect(await drought("lng=100")).toEqual({ status: 400, body: validationError("lat: required", [{ path: "lat", message: "required" }]) });
    expect((await drought("lat=1&lat=2&lng=100")).body.error.message).toBe("lat: Invalid input: expected string, received array");
  });

  it("month must be YYYY-MM with a real month", async () => {
    const bad = validationError("month: must be YYYY-MM with month 01-12", [{ path: "month", message: "must be YYYY-MM with month 01-12" }]);
    for (const m of ["2024-13", "2024-00", "2024-1", "24-01", "2024-01-01", "2024/01"]) {
      expect(await drought(`lat=13&lng=100&month=${m}`)).toEqual({ status: 400, body: bad });
    }
    expect((await drought("lat=13&lng=100&month=2024-12")).status).toBe(200);
    expect((await drought("lat=13&lng=100&month=2024-01")).status).toBe(200);
  });

  it("province: name required, country alpha-3", async () => {
    const res = await get(s.base, "/api/risk-map/drought/province?country=TH", s.key);
    expect(await res.json()).toEqual(
      validationError("name: required", [
        { path: "name", message: "required" },
        { path: "country", message: "must be an ISO 3166-1 alpha-3 code" },
      ]),
    );
    const blank = await get(s.base, "/api/risk-map/drought/province?name=%20%20", s.key);
    expect((await blank.json()).error.message).toBe("name: Too small: expected string to have >=1 characters");
  });
});

describe("helpers", () => {
  it("formatPath and findForbiddenKey", () => {
    expect(formatPath(["locations", 3, "lat"])).toBe("locations[3].lat");
    expect(formatPath([0, "a"])).toBe("[0].a");
    expect(findForbiddenKey(JSON.parse('{"a": [{"b": {"__proto__": 1}}]}'))).toBe("a[0].b.__proto__");
    expect(findForbiddenKey({ a: [{ b: { c: 1 } }], proto: 1 })).toBeUndefined();
  });

  it("findForbiddenKey reports the first forbidden key in depth-first key order, whatever its value", () => {
    // Primitive values are not walked into, but a forbidden key holding one is still found, in its place.
    expect(findForbiddenKey(JSON.parse('{"a": {"constructor": 1}, "prototype": 2}'))).toBe("a.constructor");
    expect(findForbiddenKey(JSON.parse('{"x": 1, "prototype": {"y": 1}, "a": {"__proto__": 1}}'))).toBe("prototype");
    expect(findForbiddenKey(JSON.parse('{"a": null, "b": [1, "s", null, true], "__proto__": null}'))).toBe("__proto__");
    expect(findForbiddenKey(JSON.parse('[1, "x", [2, {"k": [null, {"constructor": "c"}]}]]'))).toBe("[2][1].k[1].constructor");
    expect(findForbiddenKey(JSON.parse('{"locations": [{"id": "a", "lat": 1, "lng": 2}], "riskType": "drought"}'))).toBeUndefined();
  });
});
