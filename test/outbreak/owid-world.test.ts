// OWID's worldwide COVID-19 tables next to the mirror's Thailand-only copy: the maintained catalog table (`country`,
// `code`), the frozen owid-covid-data.csv (`iso_code`) and the Thai copy all read, the worldwide ones giving a series
// per country; after a refresh links the catalog table into the inputs tree, the outbreak radar answers COVID-19
// beyond Thailand.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { dayIndex } from "../../lib/outbreaks/series.ts";
import type { CsvRejection } from "../../pipeline/feeds/csv.ts";
import { COVID_FILE, COVID_WORLD_FILE, COVID_WORLD_SOURCE, covidSeries, covidSeriesByCountry } from "../../pipeline/health/owid-covid.ts";
import { buildSnapshots } from "../../pipeline/snapshots/build-snapshots.ts";
import { inputsTreeWith } from "../e2e/inputs-tree.ts";
import { owidCovidCatalog } from "../sources/origin-replay.ts";
import { privateArtifacts, startRealServer, type RealServer } from "../e2e/real-server.ts";

// The mirror's Thailand rows in the live layout (iso_code first, the mirror's columns after), then Vietnam, an OWID
// aggregate, a country that never reported and a row with a broken date.
const mirror = readFileSync(join(dataDir(), COVID_FILE), "utf8").trimEnd().split("\n");
const world = [
  `iso_code,${mirror[0]}`,
  ...mirror.slice(1).map((l) => `THA,${l}`),
  // Vietnam 2021-05-01..2021-07-03 (64 days), 100 + day number, nothing reported on the tenth day.
  ...Array.from({ length: 64 }, (_, i) => `VNM,Asia,Vietnam,${new Date(Date.UTC(2021, 4, 1 + i)).toISOString().slice(0, 10)},,${i === 9 ? "" : 100 + i}${",".repeat(mirror[0].split(",").length - 5)}`),
  `OWID_WRL,,World,2021-07-01,,500000${",".repeat(mirror[0].split(",").length - 5)}`,
  `PCN,Oceania,Pitcairn,2021-07-01,,${",".repeat(mirror[0].split(",").length - 5)}`,
  `VNM,Asia,Vietnam,07/04/2021,,40${",".repeat(mirror[0].split(",").length - 5)}`,
].join("\n") + "\n";

// The same rows in the catalog table's layout (`country`, `date`, …, `code`; test/sources/origin-replay.ts cites
// the provider's column order).
const catalog = owidCovidCatalog(world);

describe("OWID COVID-19, live worldwide layout", () => {
  it("one series per country; aggregates, countries without values and undated rows left out (the last counted)", () => {
    const rejected: CsvRejection[] = [];
    const series = covidSeriesByCountry(world, "owid-covid-data.csv", rejected);
    expect(series.map((s) => s.country)).toEqual(["THA", "VNM"]);
    const vnm = series[1];
    expect(vnm).toMatchObject({ disease: "covid", area: "VNM", level: "national", resolution: "day", start: dayIndex("2021-05-01"), source: COVID_WORLD_SOURCE });
    expect(Array.from(vnm.values)).toEqual(Array.from({ length: 64 }, (_, i) => (i === 9 ? NaN : 100 + i)));
    expect(rejected).toEqual([{ file: "owid-covid-data.csv", line: mirror.length + 67, reason: 'date "07/04/2021" is not YYYY-MM-DD' }]);
  });

  it("Thailand's series is the same from both layouts", () => {
    const live = covidSeriesByCountry(world, "live")[0];
    const fromMirror = covidSeries(mirror.join("\n") + "\n", "mirror");
    expect(live.start).toBe(fromMirror.start);
    expect(Array.from(live.values)).toEqual(Array.from(fromMirror.values));
  });

  it("the catalog table gives the same series as the frozen file, and Thailand's as the mirror's copy", () => {
    expect(mirror[0].split(",").slice(0, 8)).toEqual(["continent", "location", "date", "total_cases", "new_cases", "new_cases_smoothed", "total_deaths", "new_deaths"]);
    const rejected: CsvRejection[] = [];
    const fromCatalog = covidSeriesByCountry(catalog, "compact.csv", rejected);
    const fromFrozen = covidSeriesByCountry(world, "owid-covid-data.csv");
    expect(fromCatalog.map((s) => s.country)).toEqual(["THA", "VNM"]);
    expect(fromCatalog.map((s) => [s.start, Array.from(s.values)])).toEqual(fromFrozen.map((s) => [s.start, Array.from(s.values)]));
    expect(rejected.map((r) => r.reason)).toEqual(['date "07/04/2021" is not YYYY-MM-DD']);
    const tha = covidSeries(mirror.join("\n") + "\n", "mirror");
    expect(fromCatalog[0].start).toBe(tha.start);
    expect(Array.from(fromCatalog[0].values)).toEqual(Array.from(tha.values));
    // 2021-07-03 in Thailand's series: the copy's own new_cases that day.
    const jul3 = mirror.find((l) => l.split(",")[2] === "2021-07-03")!.split(",")[4];
    expect(fromCatalog[0].values[dayIndex("2021-07-03") - tha.start]).toBe(Number(jul3));
  });

  it("a worldwide file without a code column is refused by name", () => {
    expect(() => covidSeriesByCountry(mirror.join("\n"), "compact.csv")).toThrow('compact.csv: missing column "code" (OWID catalog) or "iso_code" (owid-covid-data.csv)');
  });
});

describe("the outbreak radar from the catalog table", () => {
  let server: RealServer | undefined;
  afterAll(() => server?.stop());

  it("answers COVID-19 for Vietnam from its own series, with the worldwide source named", async () => {
    // An inputs tree as a refresh writes it: the data mirror, with the live file beside the Thai copy.
    const tree = inputsTreeWith({ [COVID_WORLD_FILE]: catalog });

    const art = privateArtifacts(inject("artifactsDir"));
    const r = await buildSnapshots({ dataDir: tree, artifactsDir: art.dir, only: ["outbreaks"] });
    expect(r.outbreaks.status).toBe("published");
    // The clock two days after Vietnam's last day (a daily series is current for 3 days; lib/currency.ts).
    server = await startRealServer(art.dir, { CLOCK_TODAY: "2021-07-05" });
    const ask = (lat: number, lng: number) =>
      fetch(`${server!.base}/api/outbreak-radar/query`, {
        method: "POST",
        headers: { "x-api-key": server!.key, "content-type": "application/json" },
        body: JSON.stringify({ lat, lng, diseaseType: "covid", timeframe: "7d" }),
      }).then(async (res) => ({ status: res.status, body: await res.json() }));
    const hanoi = await ask(21.03, 105.85);
    expect(hanoi.status).toBe(200);
    // The last 7 days 2021-06-27..07-03 are days 57..63: 7 × 100 + 57 + … + 63 = 1,120.
    expect(hanoi.body.data).toMatchObject({ country: { code: "VNM" }, asOf: "2021-07-03", caseEstimate: 1120 });
    expect(hanoi.body.data.details.coverage.series).toEqual([
      expect.objectContaining({ disease: "covid", area: { code: "VNM", name: "Vietnam" }, source: COVID_WORLD_SOURCE, period: { from: "2021-05-01", to: "2021-07-03" } }),
    ]);
    // Thailand's series now comes from the catalog table too.
    const bangkok = await ask(13.75, 100.5);
    expect(bangkok.status).toBe(200);
    expect(bangkok.body.data.details.coverage.series.map((x: { source: string }) => x.source)).toEqual([COVID_WORLD_SOURCE]);
  }, 120_000);
});
