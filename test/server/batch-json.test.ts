// The batch body read from its bytes (server/routes/batch-json.ts) against the general path it stands in for
// (parseJsonBody, then parseBatchBody): whenever it answers, the general path accepts the same body and gives the
// same locations, riskType and format; it answers for the bodies clients send; and it leaves everything else —
// malformed, repeated keys, escapes, numbers past its grammar — to the general path.
import { describe, expect, it } from "vitest";
import { parseJsonBody } from "../../server/http/body.ts";
import { parseBatchBody } from "../../server/routes/batch-body.ts";
import { batchBodyFromJson, locationFromJson } from "../../server/routes/batch-json.ts";
import { rng } from "../../bench/random.ts";

function general(text: string) {
  try {
    const raw = parseJsonBody(Buffer.from(text, "utf8"));
    return { body: parseBatchBody(raw), formatGiven: "format" in raw };
  } catch {
    return undefined;
  }
}

/** The fast answer, checked against the general path's; whether it answered. */
function agrees(text: string): boolean {
  const fast = batchBodyFromJson(Buffer.from(text, "utf8"));
  if (fast === undefined) return false;
  const want = general(text);
  if (want === undefined) throw new Error(`fast path accepted what the general path refuses: ${text.slice(0, 300)}`);
  const norm = (b: typeof fast.body) => ({ ...b, locations: b.locations.map((l) => ({ id: l.id, lat: l.lat, lng: l.lng })) });
  expect(norm(fast.body)).toEqual(norm(want.body));
  for (let k = 0; k < fast.body.locations.length; k++) {
    expect(Object.is(fast.body.locations[k].lat, want.body.locations[k].lat), text).toBe(true);
    expect(Object.is(fast.body.locations[k].lng, want.body.locations[k].lng), text).toBe(true);
  }
  expect(fast.formatGiven).toBe(want.formatGiven);
  return true;
}

describe("batchBodyFromJson", () => {
  it("reads the bodies clients send, as the general path does", () => {
    const locations = Array.from({ length: 100 }, (_, i) => ({ id: String(i), lat: 14.6 + i / 37, lng: 99.5 + i / 41 }));
    expect(agrees(JSON.stringify({ riskType: "drought", locations }))).toBe(true);
    expect(agrees(JSON.stringify({ locations, riskType: "drought", format: "csv" }, null, 2))).toBe(true);
    expect(agrees('{"riskType":"drought","locations":[{"lat":13.75,"lng":100.5}]}')).toBe(true);
    expect(agrees(' {\r\n\t"riskType" : "drought" , "locations" : [ { "lng" : -0 , "lat" : 1E1 , "id" : "" } ] , "format" : "geojson" } \n')).toBe(true);
    expect(agrees('{"riskType":"drought","locations":[{"lat":-90,"lng":180},{"lat":0.1234567890123456789,"lng":1.5e-7}]}')).toBe(true);
  });

  it("leaves to the general path what it does not know or what is refused", () => {
    const cases = [
      "",
      "{}",
      "[]",
      '{"riskType":"drought","locations":[]}',
      '{"riskType":"drought","locations":[{}]}',
      '{"riskType":"flood","locations":[{"lat":1,"lng":2}]}',
      '{"riskType":"drought","locations":[{"lat":1,"lng":2}],"format":"xml"}',
      '{"riskType":"drought","locations":[{"lat":1,"lng":2,"lat":3}]}',
      '{"riskType":"drought","riskType":"drought","locations":[{"lat":1,"lng":2}]}',
      '{"riskType":"drought","locations":[{"lat":1,"lng":2,"x":1}]}',
      '{"riskType":"drought","locations":[{"lat":1,"lng":2}],"extra":true}',
      '{"riskType":"drought","locations":[{"lat":1,"lng":2},]}',
      '{"riskType":"drought","locations":[{"lat":01,"lng":2}]}',
      '{"riskType":"drought","locations":[{"lat":1.,"lng":2}]}',
      '{"riskType":"drought","locations":[{"lat":.5,"lng":2}]}',
      '{"riskType":"drought","locations":[{"lat":+1,"lng":2}]}',
      '{"riskType":"drought","locations":[{"lat":1e,"lng":2}]}',
      '{"riskType":"drought","locations":[{"lat":91,"lng":2}]}',
      '{"riskType":"drought","locations":[{"lat":"1","lng":2}]}',
      '{"riskType":"drought","locations":[{"lat":1,"lng":2,"id":null}]}',
      '{"riskType":"drought","locations":[{"lat":1,"lng":2,"id":7}]}',
      '{"riskType":"drought","locations":[{"lat":1,"lng":2,"id":"a\\"b"}]}',
      '{"riskType":"drought","locations":[{"lat":1,"lng":2,"id":"Hà Nội"}]}',
      `{"riskType":"drought","locations":[{"lat":1,"lng":2,"id":"${"i".repeat(201)}"}]}`,
      '{"riskType":"drought","locations":[{"lat":1,"lng":2}]} x',
      '\uFEFF{"riskType":"drought","locations":[{"lat":1,"lng":2}]}',
      '{"riskType":"drought","locations":[{"lat":1,"lng":2}]',
      '{"risk\\u0054ype":"drought","locations":[{"lat":1,"lng":2}]}',
      '{"__proto__":{},"riskType":"drought","locations":[{"lat":1,"lng":2}]}',
      JSON.stringify({ riskType: "drought", locations: Array.from({ length: 101 }, () => ({ lat: 1, lng: 2 })) }),
    ];
    for (const text of cases) expect(agrees(text), text.slice(0, 120)).toBe(false);
    // Of those, the ones the general path accepts it still answers as before.
    expect(general('{"riskType":"drought","locations":[{"lat":1,"lng":2,"id":"Hà Nội"}]}')?.body.locations[0].id).toBe("Hà Nội");
    expect(general('{"riskType":"drought","locations":[{"lat":1,"lng":2,"id":"a\\"b"}]}')?.body.locations[0].id).toBe('a"b');
    expect(general('{"risk\\u0054ype":"drought","locations":[{"lat":1,"lng":2}]}')?.body.riskType).toBe("drought");
  });

  it("agrees with the general path on 20,000 random bodies, cut and mangled ones among them", () => {
    const r = rng(38);
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    const num = () => {
      const v = (r() - 0.5) * pick([1, 180, 360, 400]);
      return pick([
        () => String(v),
        () => v.toFixed(Math.floor(r() * 8)),
        () => v.toExponential(Math.floor(r() * 5)),
        () => String(Math.round(v)),
        () => "-0",
        () => "0." + "0".repeat(Math.floor(r() * 25)) + "1",
        () => "1" + "0".repeat(Math.floor(r() * 3)) + "." + "9".repeat(Math.floor(r() * 20) + 1),
      ])();
    };
    const ws = () => pick(["", "", "", " ", "\n  ", "\t"]);
    let answered = 0;
    for (let n = 0; n < 20_000; n++) {
      const locs = Array.from({ length: 1 + Math.floor(r() * (r() < 0.9 ? 5 : 101)) }, (_, i) => {
        const parts = [`"lat":${ws()}${num()}`, `"lng":${ws()}${num()}`];
        if (r() < 0.6) parts.push(`"id":"${pick(["p", "x y", "", "a\\\\b", "é", "i".repeat(200)])}${i}"`);
        if (r() < 0.02) parts.push(pick(['"lat":1', '"z":0', '"id":null']));
        if (r() < 0.5) parts.reverse();
        return `{${ws()}${parts.join(`${ws()},${ws()}`)}${ws()}}`;
      });
      const members = [`"riskType":${ws()}"${r() < 0.97 ? "drought" : "heat"}"`, `"locations":${ws()}[${locs.join(",")}]`];
      if (r() < 0.3) members.push(`"format":"${pick(["json", "csv", "geojson", "xml"])}"`);
      if (r() < 0.5) members.reverse();
      let text = `${ws()}{${members.join(`,${ws()}`)}}${ws()}`;
      if (r() < 0.1) {
        const at = Math.floor(r() * text.length);
        text = pick([() => text.slice(0, at), () => text.slice(0, at) + pick([",", "}", "]", '"', "0", "-", "e"]) + text.slice(at + 1)])();
      }
      if (agrees(text)) answered++;
      // Within its domain (no escape, ASCII only) it answers every body the general path accepts.
      else if (!/[\\\u0080-\uffff]/.test(text) && general(text) !== undefined) throw new Error(`not answered: ${text.slice(0, 300)}`);
    }
    expect(answered).toBeGreaterThan(2_000);
  });
});

describe("locationFromJson (a bulk NDJSON line)", () => {
  it("reads id, lat and lng as JSON.parse does, and calls a line compact only when it is the JSON row's own head", () => {
    const r = rng(11);
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    let compact = 0;
    let read = 0;
    for (let n = 0; n < 50_000; n++) {
      const v = () =>
        pick([
          () => String((r() - 0.5) * 180),
          () => ((r() - 0.5) * 180).toFixed(Math.floor(r() * 7)),
          () => pick(["0", "-0", "0.0", "1e1", "0.000001", "0.0000001", "-0.5", "90", "180.0", "91", "013"]),
        ])();
      const parts = [`"lat":${v()}`, `"lng":${v()}`];
      if (r() < 0.7) parts.unshift(`"id":"${pick(["p", "", "a b", "x\\y", "é", "q\"r"])}${n}"`);
      if (r() < 0.05) parts.push(pick(['"extra":1', '"lat":2']));
      if (r() < 0.2) parts.reverse();
      const line = pick(["", "", "", " "]) + "{" + parts.join(pick([",", ",", ",", ", "])) + "}" + pick(["", "", "", " "]);
      const got = locationFromJson(line, 200);
      let want: { id?: unknown; lat?: unknown; lng?: unknown } | undefined;
      try {
        want = JSON.parse(line);
      } catch {
        want = undefined;
      }
      if (got === undefined) continue;
      read++;
      expect(want, line).toBeDefined();
      expect(Object.keys(want!).every((k) => k === "id" || k === "lat" || k === "lng"), line).toBe(true);
      expect(got.id, line).toBe(want!.id);
      expect(Object.is(got.lat, want!.lat) && Object.is(got.lng, want!.lng), line).toBe(true);
      const head = `{${got.id === undefined ? "" : `"id":${JSON.stringify(got.id)},`}"lat":${got.lat},"lng":${got.lng}`;
      if (got.compact) {
        compact++;
        expect(line.slice(0, -1), line).toBe(head);
      } else if (line.slice(0, -1) === head && line.endsWith("}")) {
        // Declined only past the exact rule's reach: a coordinate of more than 15 significant digits.
        const long = [got.lat, got.lng].some((x) => String(x).replace(/^-?[0.]*/, "").replace(".", "").length > 15);
        expect(long, `${line} could be compact`).toBe(true);
      }
    }
    expect(read).toBeGreaterThan(10_000);
    expect(compact).toBeGreaterThan(1_500);
  });
});
