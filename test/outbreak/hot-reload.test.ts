// Snapshot lifecycle with snapshots the test writes itself: publish, hot reload to a new version, refuse a
// corrupted one (previous keeps serving), and 404 where a snapshot has no series for the point.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OUTBREAK_DATA_FILE, OUTBREAK_INDEX_FILE, OUTBREAK_SNAPSHOT, readOutbreakData, writeOutbreakData, type OutbreakData } from "../../formats/outbreak-snapshot.ts";
import { writeProvinceIndex } from "../../formats/province-index.ts";
import { monthIndex } from "../../lib/months.ts";
import { loadProvinces, type Province } from "../../pipeline/provinces/boundaries.ts";
import { flattenRings } from "../../lib/geo/province-rings.ts";
import { provinceCentroid } from "../../pipeline/snapshots/outbreaks.ts";
import { publishSnapshot } from "../../pipeline/snapshots/publish-snapshot.ts";
import { openOutbreakService, type SnapshotOutbreakService } from "../../server/services/outbreak-service.ts";
import type { ArtifactStore } from "../../server/data/artifact-store.ts";
import { NotFoundError } from "../../server/errors.ts";
import { silent } from "../server/helpers.ts";

let provinces: Province[];
let index: Uint8Array;
let artifacts: string;
let service: SnapshotOutbreakService;
let store: ArtifactStore<unknown>;

/** Bangkok dengue 2017-01..2022-12: every month 5, Decembers 10, 20, 30, 40, 50 and `lastDecember`. */
function snapshot(lastDecember: number): OutbreakData {
  const values = new Float64Array(72).fill(5);
  [10, 20, 30, 40, 50, lastDecember].forEach((v, y) => (values[y * 12 + 11] = v));
  return {
    provinces: provinces.map((p) => ({ code: p.code, nameEn: p.nameEn, ...provinceCentroid(p), population: 1_000_000, populationYear: 2019 })),
    series: [{ disease: "dengue", area: "TH-10", country: "THA", level: "admin-1", resolution: "month", start: monthIndex(2017, 1), values, baseline: "seasonal", source: "test series" }],
    alternateSeries: [],
    news: [],
    newsAsOf: "2023-01-15",
    populations: { THA: [[2022, 70_000_000]] },
    populationSource: "test population",
    provincePopulationSource: "test province population",
    malariaIncidence: {},
    malariaIncidenceSource: "test malaria estimates",
  };
}

async function publish(data: OutbreakData, now: Date) {
  return publishSnapshot({
    artifactsDir: artifacts,
    name: OUTBREAK_SNAPSHOT,
    files: { [OUTBREAK_DATA_FILE]: writeOutbreakData(data), [OUTBREAK_INDEX_FILE]: index, "build-report.json": "{}" },
    asOf: "2022-12-31T00:00:00Z",
    sources: ["test"],
    inputs: {},
    qc: {},
    report: "build-report.json",
    now,
  });
}

const bangkok = { lat: 13.75, lng: 100.5, diseaseType: "dengue" as const, timeframe: "30d" as const };

beforeAll(async () => {
  provinces = loadProvinces();
  index = writeProvinceIndex(flattenRings(provinces));
  artifacts = mkdtempSync(join(tmpdir(), "outbreak-reload-"));
  await publish(snapshot(45), new Date("2026-01-01T00:00:00Z"));
  // The clock on the test snapshot's news date, two weeks after its last month: the series is current.
  const opened = await openOutbreakService(artifacts, silent, { now: () => new Date("2023-01-15T12:00:00Z") });
  opened.store.stop(); // the test drives reloads itself
  service = opened.service;
  store = opened.store as ArtifactStore<unknown>;
});

afterAll(() => rmSync(artifacts, { recursive: true, force: true }));

describe("outbreak snapshot lifecycle", () => {
  it("round-trips the data file, NaN as null", () => {
    const d = snapshot(45);
    d.series[0].values[3] = NaN;
    const back = readOutbreakData(writeOutbreakData(d));
    expect(back.series[0].values[3]).toBeNaN();
    expect(back.series[0].values[71]).toBe(45);
    expect(back.provinces).toHaveLength(77);
    expect(() => readOutbreakData('{"format":"outbreaks","version":1}', "x.json")).toThrow('x.json: expected format "outbreaks" version 3');
    const badPopulation = JSON.parse(writeOutbreakData(d));
    badPopulation.populations.THA = [[2022, -5]];
    expect(() => readOutbreakData(JSON.stringify(badPopulation), "x.json")).toThrow("x.json: populations: THA 2022: -5 is not a positive whole number");
    const badIncidence = JSON.parse(writeOutbreakData(d));
    badIncidence.malariaIncidence = { NGA: [[2022, 1300]] };
    expect(() => readOutbreakData(JSON.stringify(badIncidence), "x.json")).toThrow("x.json: malariaIncidence: NGA 2022: 1300 is not within 0..1,000 per 1,000");
    const bad = JSON.parse(writeOutbreakData(d));
    bad.series[0].resolution = "week";
    expect(() => readOutbreakData(JSON.stringify(bad), "x.json")).toThrow('x.json: series 0 (dengue TH-10): unknown resolution "week"');
    const noCountry = JSON.parse(writeOutbreakData(d));
    noCountry.series[0].country = "Thailand";
    expect(() => readOutbreakData(JSON.stringify(noCountry), "x.json")).toThrow("x.json: series 0 (dengue TH-10): country must be an ISO alpha-3 code");
    const offGlobe = JSON.parse(writeOutbreakData(d));
    offGlobe.provinces[0].lat = 113.7;
    expect(() => readOutbreakData(JSON.stringify(offGlobe), "x.json")).toThrow("x.json: province 0 (TH-10) centroid 113.7, 100.");
    const badNews = JSON.parse(writeOutbreakData(d));
    badNews.news = [{ id: "DON1", date: "2020-01-01", link: "x" }];
    expect(() => readOutbreakData(JSON.stringify(badNews), "x.json")).toThrow("x.json: news item 0 lacks id, date (YYYY-MM-DD), iso3 or link");
  });

  it("serves the first version, hot-reloads a second, refuses a corrupted third", async () => {
    const first = service.query(bangkok);
    // Score: 2022's 11 × 5 + 45 = 100 cases per 1,000,000 → 10 per 100,000 → 10 + 20·log(10)/log(100) = 20.
    expect([first.outbreakStatus, first.riskScore, first.caseEstimate]).toEqual(["warning", 20, 45]);
    const v1 = service.dataVersion();

    const second = await publish(snapshot(47), new Date("2026-01-02T00:00:00Z"));
    expect(await store.reload()).toBe("loaded");
    expect(service.dataVersion()).toBe(second.version);
    expect(service.dataVersion()).not.toBe(v1);
    const after = service.query(bangkok);
    expect([after.outbreakStatus, after.riskScore]).toEqual(["alert", 20.1]); // 102 cases → 10.2 per 100,000: 10 + 20·log(10.2)/log(100) = 20.09

    const third = await publish(snapshot(10), new Date("2026-01-03T00:00:00Z"));
    writeFileSync(join(third.dir, OUTBREAK_DATA_FILE), writeOutbreakData(snapshot(11)));
    expect(await store.reload()).toBe("refused");
    expect(service.dataVersion()).toBe(second.version);
    expect(service.query(bangkok).outbreakStatus).toBe("alert");
  });

  it("404 for a province without a series when the snapshot has no national series or news either", () => {
    expect(() => service.query({ ...bangkok, lat: 18.79, lng: 98.98 })).toThrow(NotFoundError);
    expect(() => service.query({ ...bangkok, lat: 18.79, lng: 98.98 })).toThrow(
      "No Dengue data for Thailand (THA): the data hold no national Dengue series and WHO Disease Outbreak News has no item about Dengue in Thailand up to 2023-01-15",
    );
    expect(() => service.query({ ...bangkok, diseaseType: "malaria" })).toThrow("No Malaria data for Thailand (THA): the data hold no national Malaria series and WHO Disease Outbreak News has no item");
    // general answers with the diseases that have data (here dengue in Bangkok); the others are listed as not covered
    const general = service.query({ ...bangkok, diseaseType: "general" });
    expect(general.details.diseases.map((d) => d.diseaseType)).toEqual(["dengue"]);
    expect(general.details.coverage.notCovered.map((n) => n.split(":")[0])).toEqual(["malaria", "cholera", "covid", "influenza"]);
    expect(general.caseEstimate).toBe(47);
    expect(() => service.query({ ...bangkok, lat: 18.79, lng: 98.98, diseaseType: "general" })).toThrow(
      "No surveillance data for Thailand (THA): no count series and no WHO Disease Outbreak News item for any monitored disease",
    );
  });
});
