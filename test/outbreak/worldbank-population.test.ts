// World Bank population in the Indicators API's JSON next to the mirror's derived CSV: the parse keeps the CSV's
// countries (ISO alpha-3 and XKX) and refuses a cut, paginated or broken answer.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { readCsvRecords } from "../../pipeline/feeds/csv.ts";
import { POPULATION_FILE, populationInput, readCountryPopulation } from "../../pipeline/health/population.ts";
import { parseWorldBankPopulation, worldBankPopulationAsOf } from "../../pipeline/health/worldbank-population.ts";

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
