// World Bank population from the Indicators API (source worldbank_population) next to the mirror's derived CSV: the
// parse keeps the CSV's countries (ISO alpha-3 and XKX) and refuses a cut, paginated or broken answer; a refresh from a
// loopback replay of the API links the JSON into the inputs tree, the outbreak snapshot names and reads it, and the
// radar's rates per 100,000 follow it. A broken answer afterwards is refused and the previous download keeps serving.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { snapshotRoot } from "../../formats/snapshot-layout.ts";
import { readCsvRecords } from "../../pipeline/feeds/csv.ts";
import { POPULATION_FILE, populationInput, readCountryPopulation } from "../../pipeline/health/population.ts";
import { parseWorldBankPopulation, WORLDBANK_POPULATION_JSON, worldBankPopulationAsOf } from "../../pipeline/health/worldbank-population.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { buildSnapshots } from "../../pipeline/snapshots/build-snapshots.ts";
import { writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { readSourceState } from "../../pipeline/sources/raw-cache.ts";
import type { OutbreakData } from "../../server/schemas-outbreak.ts";
import { openOutbreakService } from "../../server/services/outbreak-service.ts";
import { postJson, silent } from "../server/helpers.ts";
import { startOutbreakServer } from "./helpers.ts";

type Row = [code: string, year: number, value: number | null];

/** A World Bank API v2 answer (one page unless `meta` says otherwise). */
function answer(rows: Row[], meta: Record<string, unknown> = {}): string {
  return JSON.stringify([
    { page: 1, pages: 1, per_page: 20000, total: rows.length, sourceid: "2", lastupdated: "2026-07-01", ...meta },
    rows.map(([code, year, value]) => ({
      indicator: { id: "SP.POP.TOTL", value: "Population, total" },
      country: { id: code.slice(0, 2), value: code },
      countryiso3code: code,
      date: String(year),
      value,
      unit: "",
      obs_status: "",
      decimal: 0,
    })),
  ]);
}

const mirrorRows = (): Row[] =>
  readCsvRecords(readFileSync(join(dataDir(), POPULATION_FILE), "utf8"), "csv").records.map((r) => [r.iso3, Number(r.year), Number(r.population)]);

describe("parseWorldBankPopulation", () => {
  it("keeps ISO alpha-3 codes and XKX; drops aggregates, CHI and codeless rows; skips years without a value", () => {
    const m = parseWorldBankPopulation(
      answer([
        ["WLD", 2023, 8_000_000_000],
        ["", 2023, 5],
        ["CHI", 2023, 170_000],
        ["THA", 2024, 71_668_011],
        ["THA", 2023, 71_702_435],
        ["THA", 2025, null],
        ["XKX", 2023, 1_756_374],
        ["EAS", 2023, 2_400_000_000],
      ]),
      "p.json",
    );
    expect([...m]).toEqual([["THA", [[2023, 71_702_435], [2024, 71_668_011]]], ["XKX", [[2023, 1_756_374]]]]);
    expect(worldBankPopulationAsOf(answer([["THA", 2024, 1], ["XKX", 2023, 2], ["WLD", 2025, 3]]), "p.json")).toBe("2024-12-31");
  });

  it("the mirror's 265 World Bank codes in the API's layout give the mirror's derived CSV (215 ISO codes and XKX)", () => {
    const hub = gunzipSync(readFileSync(join(dataDir(), "population", "worldbank_SP.POP.TOTL_datahub.csv.gz"))).toString("utf8");
    const rows = readCsvRecords(hub, "hub").records.map((r): Row => [r["Country Code"], Number(r.Year), Number(r.Value)]);
    expect(new Set(rows.map((r) => r[0])).size).toBe(265);
    const fromApi = parseWorldBankPopulation(answer(rows), "p.json");
    expect(fromApi.size).toBe(216);
    expect(fromApi).toEqual(readCountryPopulation(dataDir()));
  });

  it("refuses an error answer, one page of several, a cut answer, no country, and a population that is not positive", () => {
    const ok: Row[] = [["THA", 2024, 71_668_011]];
    expect(() => parseWorldBankPopulation("<html>", "p.json")).toThrow(/^p\.json: not JSON/);
    expect(() => parseWorldBankPopulation('[{"message":[{"id":"120","key":"Invalid value","value":"The provided parameter value is not valid"}]}]', "p.json")).toThrow(
      "p.json: the API answered an error (The provided parameter value is not valid)",
    );
    expect(() => parseWorldBankPopulation('{"value":[]}', "p.json")).toThrow("p.json: not a World Bank API answer");
    expect(() => parseWorldBankPopulation(answer(ok, { pages: 2, per_page: 1, total: 2 }), "p.json")).toThrow("p.json: page 1 of 2 (per_page 1, total 2): one page is read; raise per_page");
    expect(() => parseWorldBankPopulation(answer(ok, { total: 17_290 }), "p.json")).toThrow("p.json: 1 rows, the answer's total is 17290 (cut short)");
    expect(() => parseWorldBankPopulation(answer([["WLD", 2024, 8e9]]), "p.json")).toThrow("p.json: no country rows");
    expect(() => parseWorldBankPopulation(answer([]), "p.json")).toThrow("p.json: no country rows");
    expect(() => parseWorldBankPopulation(answer([...ok, ["VNM", 2024, 0]]), "p.json")).toThrow("p.json: row 2 (VNM 2024): population 0 is not a positive count");
    expect(() => parseWorldBankPopulation(answer([...ok, ["VNM", 2024, -3]]), "p.json")).toThrow("population -3 is not a positive count");
    expect(() => parseWorldBankPopulation(answer(ok).replace("71668011", '"71668011"'), "p.json")).toThrow('population "71668011" is not a positive count');
    expect(() => parseWorldBankPopulation(answer(ok).replace('"2024"', '"2024Q1"'), "p.json")).toThrow('row 1 (THA): date "2024Q1" is not a year');
  });

  it("reads the CSV without a download, the JSON when one is linked", () => {
    expect(populationInput(dataDir())).toBe(POPULATION_FILE);
  });
});

describe("refresh of worldbank_population from a loopback replay of the API, through the outbreak radar", () => {
  // The mirror's countries with Vietnam's population halved (synthetic), the World aggregate and an empty 2025.
  const halved = mirrorRows().map(([c, y, v]): Row => [c, y, c === "VNM" ? Math.round(v! / 2) : v]);
  const good = answer([...halved, ["WLD", 2024, 8_142_056_446], ["VNM", 2025, null]]);
  let body = good;
  let server: Server;
  let base = "";
  const asked: string[] = [];
  const raw = mkdtempSync(join(tmpdir(), "wb-pop-raw-"));
  const art = mkdtempSync(join(tmpdir(), "wb-pop-art-"));
  beforeAll(async () => {
    server = createServer((req, res) => {
      asked.push(req.url ?? "");
      res.writeHead(200, { "content-type": "application/json;charset=utf-8" });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(raw, { recursive: true, force: true });
    rmSync(art, { recursive: true, force: true });
  });
  const env = () => ({ SOURCE_URL_WORLDBANK_POPULATION: `${base}/v2/country/all/indicator/SP.POP.TOTL?format=json&per_page=20000`, SOURCES_RETRIES: "0" });
  const refresh = async () => (await refreshSources({ dataDir: dataDir(), artifactsDir: raw, env: env(), only: ["worldbank_population"], progress: { start() {}, source() {} } }))[0];

  it("links the JSON into the inputs tree; the outbreak snapshot reads it and names it; Hanoi's dengue rate doubles", async () => {
    const r = await refresh();
    expect(asked).toEqual(["/v2/country/all/indicator/SP.POP.TOTL?format=json&per_page=20000"]);
    expect(r).toMatchObject({ source: "worldbank_population", outcome: "updated", dataAsOf: "2024-12-31" });
    const { dir: tree } = await writeInputOverlay(dataDir(), raw, env());
    expect(populationInput(tree)).toBe(WORLDBANK_POPULATION_JSON);
    expect(readCountryPopulation(tree).get("VNM")!.at(-1)).toEqual([2024, 50_493_843]);

    const built = await buildSnapshots({ dataDir: tree, artifactsDir: art, only: ["outbreaks"], env: {} });
    expect(built.outbreaks.status).toBe("published");
    const manifest = JSON.parse(readFileSync(join(snapshotRoot(art, "outbreaks"), "current", "manifest.json"), "utf8")) as { inputs: Record<string, unknown> };
    expect(Object.keys(manifest.inputs)).toContain(WORLDBANK_POPULATION_JSON);
    expect(Object.keys(manifest.inputs)).not.toContain(POPULATION_FILE);

    const opened = await openOutbreakService(art, silent);
    const http = await startOutbreakServer(opened.service);
    try {
      const res = await postJson(http.base, "/api/outbreak-radar/query", { lat: 21.03, lng: 105.85, diseaseType: "dengue" }, http.key);
      expect(res.status).toBe(200);
      const d = ((await res.json()) as { data: OutbreakData }).data;
      // From the mirror's CSV: 112,410 cases / 100,987,686 (Vietnam 2024) = 111 per 100,000 (test/outbreak/http.test.ts).
      expect(d.details.diseases[0].burden).toMatchObject({ cases: 112410, population: 50_493_843, populationYear: 2024, rate: Number(((112410 / 50_493_843) * 1e5).toPrecision(3)) });
      expect(d.details.diseases[0].burden!.rate).toBe(223);
    } finally {
      opened.store.stop();
      await http.close();
    }
  }, 120_000);

  it("refuses a broken answer and keeps the previous download in the inputs tree", async () => {
    body = answer([...halved.slice(0, 100), ["VNM", 2024, 0]]);
    const r = await refresh();
    expect(r.outcome).toBe("failed");
    expect(readSourceState(raw, "worldbank_population")!.files["SP.POP.TOTL.json"].error).toContain("population 0 is not a positive count");
    const { dir: tree } = await writeInputOverlay(dataDir(), raw, env());
    expect(populationInput(tree)).toBe(WORLDBANK_POPULATION_JSON);
    expect(readFileSync(join(tree, WORLDBANK_POPULATION_JSON), "utf8")).toBe(good);
  });
});
