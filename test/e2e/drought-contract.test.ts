// Contract gaps of the drought answers (issue 13): the default month carries all six indices as numbers, and
// province names are found under the common Thai romanisation variants, through a running server.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readManifest } from "../../formats/manifest.ts";
import { dataDir } from "../../lib/config.ts";
import { findProvince } from "../../server/services/drought-province.ts";
import { ProvinceLookup } from "../../lib/province-lookup.ts";
import { normalizeName } from "../../lib/province-names.ts";
import { NotFoundError } from "../../server/errors.ts";
import { privateArtifacts, startRealServer, type RealServer } from "./real-server.ts";
import { ANSWER_INDICES, GRID_DEFAULT_MONTH_RULE } from "../../lib/drought/cell-latest.ts";

let server: RealServer;
let latest: string;
beforeAll(async () => {
  const art = privateArtifacts(inject("artifactsDir"));
  latest = readManifest(join(art.dir, "current")).latestValidMonth!;
  server = await startRealServer(art.dir);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});
const get = (path: string) => fetch(server.base + path, { headers: { "X-API-Key": server.key } });

/** The romanisation variants the issue names, applied to a spelling: rn/n, ph/p, th/t, kh/k, doubled vowels, spaces and hyphens. */
function variants(name: string): string[] {
  const out = new Set<string>();
  const add = (s: string) => out.add(s);
  add(name.replace(/\s+/g, ""));
  add(name.replace(/\s+/g, "-"));
  add(name.toUpperCase());
  add(name.replace(/n\b/g, "rn"));
  add(name.replace(/ph/gi, "p").replace(/th/gi, "t").replace(/kh/gi, "k"));
  add(name.replace(/([aeiou])/i, "$1$1"));
  add(name.replace(/\s+/g, "").replace(/an$/, "arn"));
  return [...out].filter((v) => v !== name);
}

describe("drought contract", () => {
  it("the grid's latest valid month carries all six indices as numbers, and is the default month of points, scores and provinces alike", async () => {
    // Every drought answer defaults to the grid's latest valid month, in which every served index has values on
    // VALID_CELL_SHARE of the cells (issue 13); asked for that month, a point answer has all six as numbers.
    const national = await get(`/api/risk-map/drought?lat=13.75&lng=100.5&month=${latest}`);
    const { data } = (await national.json()) as { data: { period: { month: string }; drought: { indices: Record<string, unknown> } } };
    expect(data.period.month).toBe(latest);
    expect(Object.keys(data.drought.indices).sort()).toEqual(["mcdi", "spei1", "spei12", "spei3", "spei6", "spi1"]);
    for (const [k, v] of Object.entries(data.drought.indices)) expect(typeof v, k).toBe("number");
    expect(((await (await get("/api/risk-map/drought/province?name=Bangkok")).json()) as { data: { month: string } }).data.month).toBe(latest);
    // Without a month a point is answered for the same month where its cell has every index then (docs/methods/
    // currency.md), not its cell's latest month with SPEI-1 (later on the station grid, where SPEI-12 has no value yet):
    // the same answer as the month named, all six indices numbers.
    const own = ((await (await get("/api/risk-map/drought?lat=13.75&lng=100.5")).json()) as { data: { period: { month: string; monthReason: string }; drought: { indices: Record<string, unknown> } } }).data;
    expect(own.period).toMatchObject({ month: latest, monthReason: GRID_DEFAULT_MONTH_RULE });
    expect(own.drought.indices).toEqual(data.drought.indices);
    for (const k of ANSWER_INDICES) expect(typeof own.drought.indices[k], k).toBe("number");
    const score = await fetch(server.base + "/api/risk-map/score", {
      method: "POST",
      headers: { "X-API-Key": server.key, "Content-Type": "application/json" },
      body: JSON.stringify({ lat: 18.79, lng: 98.98, riskType: "drought" }),
    });
    const body = (await score.json()) as { data: { details: { currentConditions: Record<string, unknown> } } };
    expect(body.data.details.currentConditions).toMatchObject({ month: latest, monthReason: GRID_DEFAULT_MONTH_RULE });
    for (const k of ["spei1", "spei3", "spei6", "spei12"]) expect(typeof body.data.details.currentConditions[k], k).toBe("number");
  });

  it('"Samutprakarn" answers Samut Prakan', async () => {
    const r = await get("/api/risk-map/drought/province?name=Samutprakarn");
    expect(r.status).toBe(200);
    expect(((await r.json()) as { data: { province: string } }).data.province).toBe("Samut Prakan");
  });

  it("every spelling of the variant table and its romanisation variants finds its province", async () => {
    const rows = parse(readFileSync(join(dataDir(), "boundaries/province_name_variants.csv")), { columns: true }) as Record<string, string>[];
    const provinces = JSON.parse(readFileSync(join(server.artifactsDir, "current", "provinces.json"), "utf8")).provinces as { code: string; nameEn: string; aliases: string[] }[];
    const accepted = new Map(provinces.map((p) => [p.code, new Set(p.aliases.map(normalizeName))]));
    const nameOf = new Map(provinces.map((p) => [p.code, p.nameEn]));
    let checked = 0;
    let resolved = 0;
    for (const row of rows) {
      const want = nameOf.get(row["ISO[7]"]);
      if (want === undefined) continue; // the table's "Prison" and "Unknown" rows
      const alts = JSON.parse(row.Alt_names.replace(/'/g, '"')) as string[];
      // Latin spellings the build took as this province's (it rejects a few wrong ones: the build report lists them).
      const latin = [row.Name, ...alts].filter((n) => /^[A-Za-z][A-Za-z .-]+$/.test(n) && n.length > 3 && accepted.get(row["ISO[7]"])!.has(normalizeName(n)));
      // The table's own spellings, and the romanisation variants of its Latin ones, which must all resolve.
      const mustResolve = new Set([row.Name, row["Name(in Thai)"], row["ISO[7]"], ...latin, ...latin.flatMap(variants)]);
      for (const name of new Set([...mustResolve, ...alts])) {
        const r = await get(`/api/risk-map/drought/province?name=${encodeURIComponent(name)}`);
        const body = (await r.json()) as { data?: { province: string }; error?: { message: string } };
        checked++;
        if (r.status === 200) {
          expect(body.data!.province, name).toBe(want);
          resolved++;
        } else if (mustResolve.has(name)) {
          // Only a spelling loosely equal to another province's may be refused, as ambiguous, naming this one.
          expect(body.error!.message, name).toMatch(new RegExp(`^ambiguous province name .*${want}`));
        } else {
          // Alternates the build does not take as this province's name (districts, damaged Thai text; the build
          // report lists them) are a 404, never another province.
          expect(r.status, name).toBe(404);
        }
      }
    }
    expect(resolved).toBeGreaterThan(77 * 6);
    expect(checked).toBeGreaterThan(resolved);
  }, 120_000);

  it("a name two provinces share loosely is a 404 naming both; an unknown one lists close matches", () => {
    const provinces = [
      { code: "TH-X1", country: "THA", nameEn: "Ban Phan", nameTh: "", slug: "", region: "", aliases: ["Ban Phan"], bbox: [0, 0, 0, 0] as [number, number, number, number], areaKm2: 1 },
      { code: "TH-X2", country: "THA", nameEn: "Ban Pan", nameTh: "", slug: "", region: "", aliases: ["Ban Pan"], bbox: [0, 0, 0, 0] as [number, number, number, number], areaKm2: 1 },
    ];
    const a = { provinces, provinceNames: new ProvinceLookup(provinces) };
    expect(findProvince(a, "Ban Phan")).toBe(0);
    expect(() => findProvince(a, "Baan Phaan")).toThrow(NotFoundError);
    expect(() => findProvince(a, "Baan Phaan")).toThrow('ambiguous province name "Baan Phaan": it may mean Ban Phan or Ban Pan');
    expect(() => findProvince(a, "Nowhere")).toThrow(/unknown province "Nowhere" in THA/);
    expect(() => findProvince(a, "Ban Phan", "LAO")).toThrow("no province data for country LAO: the drought region covers THA");
  });
});
