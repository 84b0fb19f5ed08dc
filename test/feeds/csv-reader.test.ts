// The shared CSV reader (pipeline/feeds/csv.ts): a malformed record is rejected with file:line and reason and
// never takes its neighbours with it. Inputs are written here, plus the real DFO archive with one line broken
// in memory (the incident of issue 9: an unterminated quote on line 51 swallowed 74 rows).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { readCsv, readCsvRecords } from "../../pipeline/feeds/csv.ts";
import { parseDfoArchive } from "../../pipeline/feeds/dfo.ts";
import { lineRanges } from "../../pipeline/feeds/records.ts";

/** A header and rows id,name,value for ids 1..n; `edit` may replace single rows (line = id + 1). */
function table(n: number, edit: Record<number, string> = {}): string {
  const lines = ["id,name,value"];
  for (let id = 1; id <= n; id++) lines.push(edit[id] ?? `${id},"place ${id}, somewhere",${id * 10}`);
  return lines.join("\n") + "\n";
}
const ids = (rows: { fields: string[] }[]) => rows.map((r) => Number(r.fields[0]));
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

describe("readCsv", () => {
  it("an unterminated quote in the middle rejects that record only; every other row survives", () => {
    // Row 50 (line 51) opens a quote it never closes; the next quote is row 51's own.
    const t = readCsv(table(120, { 50: '50,"Viet Nam,500' }), "flood.csv");
    expect(ids(t.rows)).toEqual([...range(1, 49), ...range(51, 120)]);
    expect(t.rows[49]).toEqual({ line: 52, fields: ["51", "place 51, somewhere", "510"] });
    expect(t.rejected).toEqual([{ file: "flood.csv", line: 51, reason: "unterminated quote: the quoted field runs on to line 52" }]);
  });

  it("a stray quote with no closing quote later in the file: that record only", () => {
    const text = ["a,b", "1,x", '2,"y', "3,z", "4,w"].join("\n");
    const t = readCsv(text, "t.csv");
    expect(ids(t.rows)).toEqual([1, 3, 4]);
    expect(t.rejected).toEqual([{ file: "t.csv", line: 3, reason: "unterminated quote: no closing quote before the end of the file" }]);
  });

  it("a stray quote that pairs up into a record spanning lines is refused where fields cannot span lines", () => {
    // Line 3 opens a quote in the last field, line 5 closes it at the end of its last field: valid CSV with a
    // three-line field, but a format without free text has none, so line 3 is rejected and 4, 5 are read again
    // (5 then fails on its own stray quote).
    const text = ["a,b", "1,x", '2,"y', "3,z", '4,w"', "5,v"].join("\n");
    const strict = readCsv(text, "t.csv");
    expect(strict.rows.map((r) => r.fields)).toEqual([["1", "x"], ["3", "z"], ["5", "v"]]);
    expect(strict.rejected.map((r) => [r.line, r.reason])).toEqual([
      [3, "quoted field runs from line 3 to line 5 (unterminated quote)"],
      [5, "quote inside an unquoted field"],
    ]);
    const free = readCsv(text, "t.csv", { multiline: true });
    expect(free.rows.map((r) => r.fields)).toEqual([["1", "x"], ["2", "y\n3,z\n4,w"], ["5", "v"]]);
    expect(free.rejected).toEqual([]);
  });

  it("wrong field counts, misplaced quotes: one line each, with file:line and reason", () => {
    const t = readCsv(table(6, { 2: "2,only two", 3: '3,"x"y,30', 4: '4,a"b,40', 5: "5,x,50,extra" }), "t.csv");
    expect(ids(t.rows)).toEqual([1, 6]);
    expect(t.rejected).toEqual([
      { file: "t.csv", line: 3, reason: "expected 3 fields, found 2" },
      { file: "t.csv", line: 4, reason: "quoted field not followed by a delimiter (misplaced quote)" },
      { file: "t.csv", line: 5, reason: "quote inside an unquoted field" },
      { file: "t.csv", line: 6, reason: "expected 3 fields, found 4" },
    ]);
    expect(readCsv(table(2, { 1: "1,x" }), "t.csv", { fieldCount: "any" }).rows.map((r) => r.fields.length)).toEqual([2, 3]);
  });

  it("BOM, CRLF, bare CR and mixed line ends, blank lines; line numbers as in an editor", () => {
    const t = readCsv('\uFEFFa,b\r\n1,"x\r\ny"\r\n\n2,z\r3,w\n', "t.csv", { multiline: true });
    expect(t.header).toEqual(["a", "b"]);
    expect(t.rows).toEqual([{ line: 2, fields: ["1", "x\r\ny"] }, { line: 5, fields: ["2", "z"] }, { line: 6, fields: ["3", "w"] }]);
  });

  it("a format without quoting (PSMSL) and without a header", () => {
    const t = readCsv('  1; 48.38; BREST "A"\n\n  2; 53.9; X\n', "filelist.txt", { header: false, delimiter: ";", quote: false });
    expect(t.rows).toEqual([{ line: 1, fields: ["  1", " 48.38", ' BREST "A"'] }, { line: 3, fields: ["  2", " 53.9", " X"] }]);
  });

  it("an unreadable header or an empty file throws, naming the file", () => {
    expect(() => readCsv('a,"b\n1,2\n', "t.csv")).toThrow("t.csv:1: unreadable header: unterminated quote");
    expect(() => readCsv("\n\n", "t.csv")).toThrow("t.csv: empty file (no header)");
    expect(() => readCsvRecords("a,b\n1,2\n", "t.csv", { required: ["c"] })).toThrow('t.csv: missing column "c"');
  });

  it("records keyed by header, trimmed on request, with their lines", () => {
    const r = readCsvRecords(" a , b \n 1 , x \n\n2,y\n", "t.csv", { trim: true });
    expect(r.records).toEqual([{ a: "1", b: "x" }, { a: "2", b: "y" }]);
    expect(r.lines).toEqual([2, 4]);
  });

  it("line lists are written as ranges", () => {
    expect(lineRanges([9, 3, 4, 5, 12, 11])).toBe("3-5,9,11-12");
  });
});

describe("the DFO archive with line 51 broken (issue 9)", () => {
  const real = readFileSync(join(dataDir(), "feeds", "dfo", "FloodArchive.csv"), "utf8");

  it("rejects line 51 alone: 4,797 rows looked at, 4,668 kept (4,669 from the intact file)", () => {
    const lines = real.split("\n");
    expect(lines[50]).toBe("50,0,USA,0,-83.8824,43.242,3235.32,9/6/1985,9/9/1985,News,0,160,Torrential rain,2");
    lines[50] = lines[50].replace(",USA,", ',"USA,');
    const intact = parseDfoArchive(real);
    const broken = parseDfoArchive(lines.join("\n"));
    expect([intact.rows, intact.records.length]).toEqual([4797, 4669]);
    // Before: the quote ran on to the next quote (line 125), 74 rows became one and the feed published with
    // 4,723 rows and a single "bad coordinates" rejection.
    expect([broken.rows, broken.records.length, broken.rejected]).toEqual([4797, 4668, 129]);
    expect(broken.reasons["unterminated quote: the quoted field runs on to line 125"]).toBe(1);
    expect(broken.rejectedAt["unterminated quote: the quoted field runs on to line 125"]).toEqual(["FloodArchive.csv:51"]);
    expect(broken.records.map((r) => r.id)).toEqual(intact.records.map((r) => r.id).filter((id) => id !== "DFO-50"));
  });
});
