// Adapters on the real files of the data mirror (read once), plus the CSV reader on text written here.
import { beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { monthIndex } from "../../lib/months.ts";
import { parseCount, readCsvRecords } from "../../pipeline/feeds/csv.ts";
import { newsDisease, parseDonItems } from "../../pipeline/health/who-don.ts";
import { parseOpenDengue } from "../../pipeline/health/opendengue.ts";
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
    expect(c.data.series.filter((s) => s.disease === "dengue" && s.area !== "THA")).toHaveLength(77);
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

describe("WHO and OWID series", () => {
  it("malaria: confirmed cases per year 2000..2021", () => {
    const m = series("malaria", "THA");
    expect([m.start, m.values.length, m.resolution]).toEqual([2000, 22, "year"]);
    expect(at(m, 2000)).toBe(78561);
    expect(at(m, 2021)).toBe(3279);
  });

  it("cholera: reported cases per year with unreported years missing", () => {
    const ch = series("cholera", "THA");
    expect([ch.start, ch.values.length]).toEqual([1949, 68]);
    expect(at(ch, 2016)).toBe(52);
    expect(at(ch, 2010)).toBe(1974);
    expect(at(ch, 1950)).toBeNaN();
  });

  it("covid: daily new cases 2020-01-04..2021-07-30 with the published negative corrections", () => {
    const cv = series("covid", "THA");
    expect([cv.start, cv.values.length, cv.baseline]).toEqual([dayIndex("2020-01-04"), 574, "recent"]);
    expect(at(cv, dayIndex("2021-07-30"))).toBe(17345);
    expect(at(cv, dayIndex("2020-11-23"))).toBe(-10);
    expect(at(cv, dayIndex("2020-01-04"))).toBeNaN();
  });

  it("DON: 87 items about Thailand as of 2026-05-13, newest first, tagged by ICD-10", () => {
    expect(c.data.newsAsOf).toBe("2026-05-13");
    expect(c.data.news).toHaveLength(87);
    expect(c.data.news[0]).toEqual({
      id: "DON2938",
      date: "2025-12-10",
      disease: "influenza",
      diseaseName: "Influenza due to identified zoonotic or pandemic influenza virus",
      country: "Thailand",
      link: "https://www.who.int/emergencies/disease-outbreak-news/item/2025-DON586",
    });
    const count = (d: string) => c.data.news.filter((n) => n.disease === d).length;
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
    const header = "adm_0_name,adm_1_name,S_res,T_res,calendar_start_date,calendar_end_date,dengue_total,UUID";
    const rows = Array.from({ length: 12 }, (_, i) => {
      const mm = String(i + 1).padStart(2, "0");
      return `THAILAND,"BANGKOK",Admin1,Month,2010-${mm}-01,2010-${mm}-28,${(i + 1) * 100},u${i + 1}`;
    });
    rows[4] = rows[4].replace('"BANGKOK"', '"BANGKOK'); // May, line 6
    const rejected: CsvRejection[] = [];
    const r = parseOpenDengue([header, ...rows].join("\r\n") + "\r\n", "od.csv", "THAILAND", rejected);
    expect(r.map((x) => [x.adm1, x.start, x.cases])).toEqual(
      [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12].map((m) => ["BANGKOK", `2010-${String(m).padStart(2, "0")}-01`, m * 100]),
    );
    expect(rejected).toEqual([{ file: "od.csv", line: 6, reason: "unterminated quote: the quoted field runs on to line 7" }]);
  });

  it("GHO: one country's numeric values, display value as fallback", () => {
    const csv = "SpatialDimensionValueCode,TimeDim,NumericValue,Value\nTHA,2001,,\"63 528\"\nLAO,2001,5,5\nTHA,2000,78561,78 561\n";
    expect(parseGhoIndicator(csv, "g.csv", "THA")).toEqual([[2000, 78561], [2001, 63528]]);
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
