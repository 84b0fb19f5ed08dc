// Adapters on the real files of the data mirror (read once; values traced to the rows of the files, line numbers
// given), plus the readers and rules on text written here.
import { beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { formatMonth, monthIndex } from "../../lib/months.ts";
import { parseCount, readCsvRecords } from "../../pipeline/feeds/csv.ts";
import { newsDisease, parseDonItems } from "../../pipeline/health/who-don.ts";
import { nationalDengueSeries, parseOpenDengue, weeksToMonths, type DengueRow } from "../../pipeline/health/opendengue.ts";
import { choleraCountryCode } from "../../pipeline/health/who-cholera.ts";
import type { CsvRejection } from "../../pipeline/feeds/csv.ts";
import { parseGhoIndicator } from "../../pipeline/health/who-gho-malaria.ts";
import { dayIndex, type CaseSeries } from "../../lib/outbreaks/series.ts";
import { PROVINCE_CODES } from "../../pipeline/provinces/boundaries.ts";
import { collectOutbreakData, type CollectedOutbreaks } from "../../pipeline/snapshots/outbreaks.ts";

let c: CollectedOutbreaks;
const series = (disease: string, area: string): CaseSeries => {
  const s = c.data.series.find((x) => x.disease === disease && x.area === area);
  if (s === undefined) throw new Error(`no ${disease} ${area}`);
  return s;
};
const at = (s: CaseSeries, period: number) => s.values[period - s.start];

beforeAll(async () => {
  c = await collectOutbreakData(dataDir(), {});
}, 30_000);

describe("OpenDengue", () => {
  it("matches all 78 admin-1 names to the 77 provinces, both Prachin Buri spellings to TH-25", () => {
    const od = c.report.opendengue as Record<string, unknown> & { matches: Record<string, string> };
    expect(od.provinceNames).toBe(78);
    expect(od.provincesMatched).toBe(77);
    expect(new Set(Object.values(od.matches))).toEqual(new Set(PROVINCE_CODES));
    expect(od.matches["PHACHINBURI"]).toBe("TH-25");
    expect(od.matches["PRACHIN BURI"]).toBe("TH-25");
    expect(od.matches["BUNGKAN"]).toBe("TH-38");
    expect(od.matches["TRAD"]).toBe("TH-23");
    expect(od.matches["PHRA NAKHON SI AYUDHYA"]).toBe("TH-14");
    expect(od.matches["SAMUT SONGKHAM"]).toBe("TH-75");
    expect(od.matches["PRACHUAP KHILIKHAN"]).toBe("TH-77");
    expect(od.matches["KAMPAENG PHET"]).toBe("TH-62");
    expect(od.matches["SAMUT PRAKARN"]).toBe("TH-11");
  });

  it("reads every Thai admin-1 month once, and the temporal extract agrees with the spatial one", () => {
    const od = c.report.opendengue as Record<string, unknown>;
    expect(od.admin1RowsUsed).toBe(27024);
    expect(od.spatialRows).toBe(27103);
    expect(od.temporalRows).toBe(27259);
    expect(od.temporalAdmin1Mismatches).toBe(0);
    expect(od.provinceMonths).toBe("1993-01..2022-12");
    expect(c.data.series.filter((s) => s.disease === "dengue" && s.level === "admin-1")).toHaveLength(77);
    expect(c.data.series.filter((s) => s.disease === "dengue" && s.level === "admin-1").every((s) => s.country === "THA")).toBe(true);
  });

  it("keeps the values of the files: Bangkok, merged Prachin Buri, Bueng Kan from 2011, national to 2025-03", () => {
    const bkk = series("dengue", "TH-10");
    expect(at(bkk, monthIndex(2022, 12))).toBe(873);
    expect(at(bkk, monthIndex(2022, 11))).toBe(1246);
    const prachin = series("dengue", "TH-25");
    expect(prachin.start).toBe(monthIndex(1993, 1));
    expect(prachin.values.length).toBe(360);
    expect(prachin.values.every((v) => !Number.isNaN(v))).toBe(true);
    const buengKan = series("dengue", "TH-38");
    expect(buengKan.start).toBe(monthIndex(2011, 1));
    expect(buengKan.values.length).toBe(144);
    const nat = series("dengue", "THA");
    expect(nat.start).toBe(monthIndex(2009, 1));
    expect(at(nat, monthIndex(2025, 3))).toBe(2447);
    expect(at(nat, monthIndex(2010, 1))).toBe(1496);
    expect(at(nat, monthIndex(2024, 8))).toBe(16119);
  });
});

describe("OpenDengue national series, every country", () => {
  it("129 countries from the global national extract, one series each, at the resolution the rule chose", () => {
    const national = c.data.series.filter((s) => s.disease === "dengue" && s.level === "national");
    expect(national).toHaveLength(129);
    expect(new Set(national.map((s) => s.country)).size).toBe(129);
    expect(national.every((s) => s.area === s.country && /^[A-Z]{3}$/.test(s.country))).toBe(true);
    const od = c.report.opendengue as { nationalRows: number; nationalRowFaults: string[]; nationalDuplicatePeriods: number };
    expect([od.nationalRows, od.nationalRowFaults, od.nationalDuplicatePeriods]).toEqual([29873, [], 0]);
  });

  it("Vietnam: yearly, because its monthly 2025-03 has only two earlier Marches; 2024 is the sum of its 12 month rows", () => {
    const vn = series("dengue", "VNM");
    expect([vn.resolution, vn.start]).toEqual(["year", 1960]);
    // National_extract_V1_3.csv: 2024-01..12 Month rows 6093 + 4324 + 2732 + 2647 + 3503 + 5245 + 8642 + 16021 + 13370 + 18029 + 15175 + 12652
    expect(at(vn, 2024)).toBe(108433);
    expect(at(vn, 2022)).toBe(367729); // line 28454, Year row
    expect(at(vn, 2019)).toBe(320702); // line 28451
    expect(at(vn, 2023)).toBeNaN(); // six months of 2023 only: no year
    const choice = (c.report.opendengue as { national: Record<string, { chosen: string; reason: string }> }).national.VNM;
    expect(choice).toMatchObject({ chosen: "year", reason: "the monthly series has 2 baseline periods for its latest period (fewer than 3)" });
  });

  it("Indonesia monthly to 2024-10, Brazil yearly to 2024, Thailand monthly to 2025-03", () => {
    const id = series("dengue", "IDN");
    expect([id.resolution, formatMonth(id.start), formatMonth(id.start + id.values.length - 1)]).toEqual(["month", "2007-01", "2024-10"]);
    expect(at(id, monthIndex(2024, 10))).toBe(1019); // line 12095
    expect(at(id, monthIndex(2021, 10))).toBe(6092); // line 12059
    const br = series("dengue", "BRA");
    expect([br.resolution, br.start + br.values.length - 1]).toEqual(["year", 2024]);
    expect(at(br, 2024)).toBe(10267077); // line 4832
    expect(at(br, 2020)).toBe(1467142); // line 4674
    expect(series("dengue", "THA").resolution).toBe("month");
  });
});

describe("OpenDengue rules on rows written here", () => {
  const row = (iso3: string, tRes: string, start: string, end: string, cases: number): DengueRow => ({
    adm0: iso3, iso3, adm1: "NA", sRes: "Admin0", tRes, start, end, cases, uuid: "u",
  });

  it("a week goes whole to the month of its middle day; a month missing one of its weeks is left out", () => {
    // Sunday weeks: 2024-01-28 (Wed 01-31 → January), 02-04, 02-11, 02-18, 02-25 (Wed 02-28); March's first is 03-03.
    const weeks = ["2024-01-28", "2024-02-04", "2024-02-11", "2024-02-18", "2024-02-25", "2024-03-03"].map((start, i) => ({ start, cases: i + 1 }));
    // February 2024 has four Wednesdays (7, 14, 21, 28): weeks 2..5 → 2 + 3 + 4 + 5 = 14. January and March incomplete.
    expect([...weeksToMonths(weeks)].map(([m, v]) => [formatMonth(m), v])).toEqual([["2024-02", 14]]);
    expect([...weeksToMonths(weeks.filter((w) => w.start !== "2024-02-11"))]).toEqual([]);
  });

  it("monthly from months and complete weeks, yearly from years and complete months; the later-ending series with a channel is served", () => {
    const rows: DengueRow[] = [];
    // Years 2015..2020 and the months of 2016..2021 (10 cases each): the months reach 2021-12 with five earlier Decembers.
    for (let y = 2015; y <= 2020; y++) rows.push(row("AAA", "Year", `${y}-01-01`, `${y}-12-31`, 1000 + y));
    for (let y = 2016; y <= 2021; y++) for (let m = 1; m <= 12; m++) {
      const mm = String(m).padStart(2, "0");
      rows.push(row("AAA", "Month", `${y}-${mm}-01`, `${y}-${mm}-${new Date(Date.UTC(y, m, 0)).getUTCDate()}`, 10));
    }
    // BBB: months of 2023 only (no channel), years 2010..2022: the yearly series is served though it ends earlier.
    for (let y = 2010; y <= 2022; y++) rows.push(row("BBB", "Year", `${y}-01-01`, `${y}-12-31`, y));
    for (let m = 1; m <= 12; m++) rows.push(row("BBB", "Month", `2023-${String(m).padStart(2, "0")}-01`, `2023-${String(m).padStart(2, "0")}-${new Date(Date.UTC(2023, m, 0)).getUTCDate()}`, 5));
    rows.push(row("CCC", "Week", "2024-01-02", "2024-01-09", 3)); // eight days: not a week
    const n = nationalDengueSeries(rows);
    const aaa = n.series.find((s) => s.country === "AAA")!;
    expect([aaa.resolution, formatMonth(aaa.start), aaa.values.length]).toEqual(["month", "2016-01", 72]);
    expect(n.choices.AAA.year).toMatchObject({ from: "2015-01-01", to: "2021-12-31", periods: 7 }); // 2021 = 12 × 10 from months
    expect(n.choices.AAA.reason).toBe("ends with the yearly series on 2021-12-31; months resolve the seasons");
    const bbb = n.series.find((s) => s.country === "BBB")!;
    expect([bbb.resolution, bbb.start, bbb.values.length, bbb.values.at(-1)]).toEqual(["year", 2010, 14, 60]); // 2023 = 12 × 5
    expect(n.series.map((s) => s.country)).toEqual(["AAA", "BBB"]);
    expect(n.faults).toEqual(["CCC u: a week must span 7 days, 2024-01-02..2024-01-09 does not"]);
  });
});

describe("WHO and OWID series", () => {
  it("malaria: confirmed cases per year for every country (108), regional and global rows left out", () => {
    const m = series("malaria", "THA");
    expect([m.start, m.values.length, m.resolution]).toEqual([2000, 22, "year"]);
    expect(at(m, 2000)).toBe(78561);
    expect(at(m, 2021)).toBe(3279);
    const all = c.data.series.filter((s) => s.disease === "malaria");
    expect(all).toHaveLength(108);
    expect(all.every((s) => /^[A-Z]{3}$/.test(s.country) && s.level === "national")).toBe(true);
    const ng = series("malaria", "NGA");
    expect(at(ng, 2017)).toBe(13087878); // MALARIA_CONF_CASES.csv line 49
    expect(at(ng, 2010)).toBe(551187); // line 66
    expect([at(ng, 2011), at(ng, 2012), at(ng, 2013)]).toEqual([NaN, NaN, NaN]); // not in the export
  });

  it("cholera: reported cases per year for every country, WHO names mapped to ISO codes", () => {
    const ch = series("cholera", "THA");
    expect([ch.start, ch.values.length]).toEqual([1949, 68]);
    expect(at(ch, 2016)).toBe(52);
    expect(at(ch, 2010)).toBe(1974);
    expect(at(ch, 1950)).toBeNaN();
    expect(at(series("cholera", "COD"), 2016)).toBe(28093); // who_gho_cholera_1949_2016.csv line 581
    expect(at(series("cholera", "HTI"), 2011)).toBe(340311); // line 899
    expect(at(series("cholera", "IRN"), 2013)).toBe(256); // line 1017, "Iran (Islamic Republic of)"
    expect(c.data.series.filter((s) => s.disease === "cholera")).toHaveLength(160);
    expect((c.report.cholera as { leftOut: string[] }).leftOut).toEqual(["The former state union Serbia and Montenegro"]);
    expect(["Viet Nam", "Bolivia (Plurinational State of)", "UK", "USA", "Côte d'Ivoire", "Republic of Korea", "Mars"].map(choleraCountryCode)).toEqual([
      "VNM", "BOL", "GBR", "USA", "CIV", "KOR", undefined,
    ]);
  });

  it("influenza: FluNet Thailand A and Vietnam A+B, the zero-filled months masked (missing, not zero)", () => {
    const th = series("influenza", "THA");
    const vn = series("influenza", "VNM");
    expect([th.subtype, vn.subtype, th.resolution, formatMonth(th.start)]).toEqual(["influenza A", "influenza A+B", "month", "2009-01"]);
    expect(at(th, monthIndex(2021, 6))).toBeNaN(); // 0.0 in thailand_flu_A_month.csv
    expect(at(th, monthIndex(2020, 10))).toBe(0); // a single reported zero stays a zero
    expect(at(th, monthIndex(2024, 3))).toBe(102);
    expect(th.maskedPeriods?.map(formatMonth)).toEqual([
      "2020-05", "2020-06", "2020-07", "2020-08",
      ...Array.from({ length: 12 }, (_, i) => `2021-${String(i + 1).padStart(2, "0")}`),
      "2022-02", "2022-03",
    ]);
    expect(at(vn, monthIndex(2024, 3))).toBe(79); // A 46 + B 33
  });

  it("covid: daily new cases 2020-01-04..2021-07-30 with the published negative corrections", () => {
    const cv = series("covid", "THA");
    expect([cv.start, cv.values.length, cv.baseline]).toEqual([dayIndex("2020-01-04"), 574, "recent"]);
    expect(at(cv, dayIndex("2021-07-30"))).toBe(17345);
    expect(at(cv, dayIndex("2020-11-23"))).toBe(-10);
    expect(at(cv, dayIndex("2020-01-04"))).toBeNaN();
  });

  it("DON: 7,387 items about 229 countries, 87 about Thailand as of 2026-05-13, newest first, tagged by ICD-10", () => {
    expect(c.data.newsAsOf).toBe("2026-05-13");
    expect(c.data.news).toHaveLength(7387);
    expect(new Set(c.data.news.map((n) => n.iso3)).size).toBe(229);
    expect(c.data.news.filter((n) => n.iso3 === "XXK")).toEqual([]); // Kosovo is XKX, as lib/geo answers
    expect(c.data.news.filter((n) => n.iso3 === "XKX").length).toBeGreaterThan(0);
    const thai = c.data.news.filter((n) => n.iso3 === "THA");
    expect(thai).toHaveLength(87);
    expect(thai[0]).toEqual({
      id: "DON2938",
      date: "2025-12-10",
      disease: "influenza",
      diseaseName: "Influenza due to identified zoonotic or pandemic influenza virus",
      country: "Thailand",
      iso3: "THA",
      link: "https://www.who.int/emergencies/disease-outbreak-news/item/2025-DON586",
    });
    const count = (d: string) => thai.filter((n) => n.disease === d).length;
    expect([count("influenza"), count("dengue"), count("cholera"), count("malaria"), count("covid")]).toEqual([69, 3, 1, 0, 0]);
  });
});

describe("small readers", () => {
  it("CSV: quotes, doubled quotes, embedded newlines, CRLF, BOM", () => {
    const text = '\uFEFFa,b\r\n"x, y","say ""hi""\nthere"\r\n1,\n';
    expect(readCsvRecords(text, "t.csv", { multiline: true }).records).toEqual([{ a: "x, y", b: 'say "hi"\nthere' }, { a: "1", b: "" }]);
    expect(() => readCsvRecords("a,b\n1,2\n", "t.csv", { required: ["c"] })).toThrow('t.csv: missing column "c"');
    expect([parseCount("28 569"), parseCount("NA"), parseCount(""), parseCount("x")]).toEqual([28569, NaN, NaN, NaN]);
  });

  it("OpenDengue: a stray quote rejects its own row only, with file:line (issue 9)", () => {
    const header = "adm_0_name,ISO_A0,adm_1_name,S_res,T_res,calendar_start_date,calendar_end_date,dengue_total,UUID";
    const rows = Array.from({ length: 12 }, (_, i) => {
      const mm = String(i + 1).padStart(2, "0");
      return `THAILAND,THA,"BANGKOK",Admin1,Month,2010-${mm}-01,2010-${mm}-28,${(i + 1) * 100},u${i + 1}`;
    });
    rows[4] = rows[4].replace('"BANGKOK"', '"BANGKOK'); // May, line 6
    const rejected: CsvRejection[] = [];
    const r = parseOpenDengue([header, ...rows].join("\r\n") + "\r\n", "od.csv", "THAILAND", rejected);
    expect(r.map((x) => [x.adm1, x.start, x.cases])).toEqual(
      [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12].map((m) => ["BANGKOK", `2010-${String(m).padStart(2, "0")}-01`, m * 100]),
    );
    expect(rejected).toEqual([{ file: "od.csv", line: 6, reason: "unterminated quote: the quoted field runs on to line 7" }]);
  });

  it("GHO: one country's numeric values, display value as fallback; regions left out", () => {
    const csv = "SpatialDimensionValueCode,TimeDim,NumericValue,Value\nTHA,2001,,\"63 528\"\nLAO,2001,5,5\nTHA,2000,78561,78 561\n";
    expect(parseGhoIndicator(csv, "g.csv", "THA")).toEqual([[2000, 78561], [2001, 63528]]);
    const regional = "SpatialDimension,SpatialDimensionValueCode,TimeDim,NumericValue,Value\nREGION,AFR,2001,9,9\nCOUNTRY,NGA,2001,7,7\n";
    expect([parseGhoIndicator(regional, "g.csv", "AFR"), parseGhoIndicator(regional, "g.csv", "NGA")]).toEqual([[], [[2001, 7]]]);
  });

  it("DON: joins outbreak rows to dated items, splits id lists, skips undated ids", () => {
    const outbreaks = 'Country,iso3,icd103c,Disease,DONs\nThailand,THA,J09,Flu,"DON2, DON1"\nThailand,THA,U07,COVID-19,Coronavirus dashboard\nLaos,LAO,A00,Cholera,DON3\n';
    const raw = 'Date,Description,Link,ID\n2004-01-02,"text, with\nlines",http://a,DON1\n2004-02-03,x,http://b,DON2\n2004-03-04,x,http://c,DON3\n';
    expect(parseDonItems(outbreaks, raw, "THA").map((n) => `${n.id} ${n.date} ${n.disease} ${n.link}`)).toEqual([
      "DON2 2004-02-03 influenza http://b",
      "DON1 2004-01-02 influenza http://a",
    ]);
    expect([newsDisease("A97", ""), newsDisease("A90", ""), newsDisease("B54", ""), newsDisease("A00", ""), newsDisease("B04", "")]).toEqual([
      "dengue",
      "dengue",
      "malaria",
      "cholera",
      "other",
    ]);
  });
});
