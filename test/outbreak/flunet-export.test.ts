// FluNet's own export (VIW_FNT: one row per country, ISO week and surveillance origin), what `make refresh`
// downloads, next to the OWID copies of the data mirror: origins summed per week, weeks to months by the Thursday
// rule, A + B served for every country in it. Built here from the mirror's Vietnam weekly file, split between two
// origins, and Thailand rows with influenza A only.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { formatDay } from "../../lib/outbreaks/series.ts";
import {
  FLUNET_DIR, FLUNET_FILES, FLUNET_LIVE_FILE, flunetExportSeries, flunetInputs, influenzaSeries, parseFlunetExport, readFlunet, servedInfluenza, totalSeries,
} from "../../pipeline/health/flunet.ts";
import { inputsTreeWith } from "../e2e/inputs-tree.ts";

const weeklyRows = readFileSync(join(dataDir(), FLUNET_DIR, FLUNET_FILES.vietnamWeekly), "utf8").trim().split("\n").slice(1).map((l) => l.split(","));
const header = "WHOREGION,COUNTRY_CODE,COUNTRY_AREA_TERRITORY,ISO_WEEKSTARTDATE,ISO_YEAR,ISO_WEEK,ORIGIN_SOURCE,SPEC_PROCESSED_NB,INF_A,INF_B,INF_ALL";
const half = (v: string) => (v === "" ? "" : String(Math.floor(Number(v) / 2)));
const rest = (v: string) => (v === "" ? "" : String(Number(v) - Math.floor(Number(v) / 2)));
const exportText = [
  header,
  // Vietnam: each week's counts split between the sentinel and the non-sentinel rows.
  ...weeklyRows.flatMap(([day, a, b]) => [
    `WPR,VNM,Viet Nam,${day}T00:00:00Z,0,0,SENTINEL,,${half(a)},${half(b)},`,
    `WPR,VNM,Viet Nam,${day}T00:00:00Z,0,0,NONSENTINEL,,${rest(a)},${rest(b)},`,
  ]),
  // Thailand: influenza A only, the nine ISO weeks of January and February 2024.
  ...Array.from({ length: 9 }, (_, i) => `SEAR,THA,Thailand,${formatDay(19723 + 7 * i)},2024,${i + 1},SENTINEL,,${10 + i},,`),
].join("\n") + "\n";

describe("FluNet export", () => {
  const weekly = parseFlunetExport(exportText, FLUNET_LIVE_FILE);
  const mirror = readFlunet(dataDir());

  it("sums a week's origins: Vietnam's weeks are the mirror's weekly file again, blank weeks blank", () => {
    const vnm = weekly.get("VNM")!;
    expect(vnm.mondays.map(formatDay)).toEqual(weeklyRows.map(([d]) => d));
    expect(Array.from(vnm.A)).toEqual(weeklyRows.map(([, a]) => (a === "" ? NaN : Number(a))));
    expect(Array.from(vnm.B)).toEqual(weeklyRows.map(([, , b]) => (b === "" ? NaN : Number(b))));
  });

  it("serves A + B per country by the Thursday rule (Vietnam: the mirror's weekly cross-check), A alone where B is never reported", () => {
    const served = flunetExportSeries(weekly, FLUNET_LIVE_FILE);
    expect(served.map((s) => [s.area, s.type])).toEqual([["THA", "A"], ["VNM", "total"]]);
    const expected = totalSeries(influenzaSeries("VNM", "A", mirror.vietnamFromWeekly.A, "A"), influenzaSeries("VNM", "B", mirror.vietnamFromWeekly.B, "B"));
    expect([served[1].start, Array.from(served[1].values)]).toEqual([expected.start, Array.from(expected.values)]);
    // Mondays 2024-01-01 … 02-26: January has 4 Thursdays (4–25), February 5 (1–29), each week whole to its Thursday's month.
    expect(Array.from(served[0].values)).toEqual([10 + 11 + 12 + 13, 14 + 15 + 16 + 17 + 18]);
  });

  it("a row without a week start names its line", () => {
    expect(() => parseFlunetExport(`${header}\nSEAR,THA,Thailand,,2024,1,SENTINEL,,1,,\n`, "VIW_FNT.csv")).toThrow('VIW_FNT.csv:2: expected a country code and a week start date, got "THA", ""');
  });

  it("in an inputs tree with the export, the radar serves it instead of the OWID copies", () => {
    const tree = inputsTreeWith({ [join(FLUNET_DIR, FLUNET_LIVE_FILE)]: exportText });
    expect(flunetInputs(tree)).toEqual([join(FLUNET_DIR, FLUNET_LIVE_FILE)]);
    expect(servedInfluenza(tree).map((s) => [s.area, s.type])).toEqual([["THA", "A"], ["VNM", "total"]]);
    expect(servedInfluenza(dataDir()).map((s) => [s.area, s.type, s.values.length])).toEqual([["THA", "A", 183], ["VNM", "total", 183]]);
  });
});
