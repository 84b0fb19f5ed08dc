// Many series in one run: the long (series column) and wide (--layout wide) tables give each series exactly what a
// run of that series alone gives, inline and on worker threads; errors name the file line in either case.
import { describe, expect, it } from "vitest";
import { runIndicesCommand, type CommandIo } from "../../pipeline/commands/indices.ts";

async function run(argv: string[], text: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = {
    stdout: (t) => void out.push(typeof t === "string" ? t : Buffer.from(t).toString()),
    stderr: (t) => void err.push(t),
    readFile: () => text,
    writeFile: () => {},
  };
  const code = await runIndicesCommand(["--input", "in.csv", ...argv], io);
  return { code, stdout: out.join(""), stderr: err.join("") };
}

const month = (i: number) => `${1981 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}`;

/** Deterministic monthly rain and temperature with a seasonal cycle, different per series. */
function series(k: number, n: number) {
  let seed = 1000 + k;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  return Array.from({ length: n }, (_, i) => ({
    date: month(i),
    prcp: Math.round((20 + 150 * Math.max(0, Math.sin(((i % 12) - 3) / 2)) * rnd() * 2) * 10) / 10,
    tmean: Math.round((24 + 4 * Math.sin((i % 12) / 2) + rnd()) * 10) / 10,
  }));
}

function singleCsv(rows: ReturnType<typeof series>): string {
  return "date,prcp,tmean\n" + rows.map((r) => `${r.date},${r.prcp},${r.tmean}`).join("\n") + "\n";
}

async function alone(k: number, n: number, argv: string[], lat: number): Promise<string[]> {
  const res = await run([...argv, "--lat", String(lat)], singleCsv(series(k, n)));
  expect(res.code).toBe(0);
  return res.stdout.trim().split("\n").slice(1).map((l) => l.split(",")[1]);
}

describe("indices over many series", () => {
  it("long layout: every series equals its own run (SPEI-3 from tmean with a lat column)", async () => {
    const n = 120;
    const lats = [13.7, -33.9, 51.5];
    const text =
      "series,date,prcp,tmean,lat\n" +
      lats.map((lat, k) => series(k, n).map((r) => `st${k},${r.date},${r.prcp},${r.tmean},${lat}`).join("\n")).join("\n") + "\n";
    const res = await run(["--index", "spei", "--scale", "3", "--workers", "1"], text);
    expect(res.stderr).toBe("");
    const lines = res.stdout.trim().split("\n");
    expect(lines[0]).toBe("series,date,value");
    expect(lines).toHaveLength(1 + 3 * n);
    for (let k = 0; k < lats.length; k++) {
      const own = await alone(k, n, ["--index", "spei", "--scale", "3"], lats[k]);
      const got = lines.slice(1 + k * n, 1 + (k + 1) * n);
      expect(got.map((l) => l.split(",")[0])).toEqual(Array(n).fill(`st${k}`));
      expect(got.map((l) => l.split(",")[2])).toEqual(own);
      expect(own.filter((v) => v !== "NA").length).toBeGreaterThan(100);
    }
  });

  it("wide layout: one column per series, values as prcp (SPI)", async () => {
    const n = 96;
    const text = "date,A,B c\n" + series(0, n).map((r, i) => `${r.date},${r.prcp},${series(1, n)[i].prcp}`).join("\n") + "\n";
    const res = await run(["--index", "spi", "--scale", "1", "--layout", "wide"], text);
    const lines = res.stdout.trim().split("\n");
    expect(lines[0]).toBe("date,A,B c");
    const ownA = await alone(0, n, ["--index", "spi", "--scale", "1"], 0);
    const ownB = await alone(1, n, ["--index", "spi", "--scale", "1"], 0);
    expect(lines.slice(1).map((l) => l.split(",")[1])).toEqual(ownA);
    expect(lines.slice(1).map((l) => l.split(",")[2])).toEqual(ownB);
  });

  it("worker threads give the same bytes as one thread, in the input's order", async () => {
    const nSeries = 400;
    const n = 240;
    const long = "series,date,prcp\n" + Array.from({ length: nSeries }, (_, k) => series(k, n).map((r) => `s${k},${r.date},${r.prcp}`).join("\n")).join("\n") + "\n";
    expect(long.length).toBeGreaterThan(1 << 20); // above the inline threshold
    const one = await run(["--index", "spi", "--scale", "3", "--workers", "1"], long);
    const three = await run(["--index", "spi", "--scale", "3", "--workers", "3"], long);
    expect(three.code).toBe(0);
    expect(three.stdout).toBe(one.stdout);
    const wide = "date," + Array.from({ length: nSeries }, (_, k) => `s${k}`).join(",") + "\n" +
      Array.from({ length: n }, (_, i) => month(i) + "," + Array.from({ length: nSeries }, (_, k) => series(k, n)[i].prcp).join(",")).join("\n") + "\n";
    const w1 = await run(["--index", "spi", "--scale", "3", "--layout", "wide", "--workers", "1"], wide.repeat(1));
    const w2 = await run(["--index", "spi", "--scale", "3", "--layout", "wide", "--workers", "2"], wide);
    expect(w2.stdout).toBe(w1.stdout);
    // The wide table's column k is series k of the long one.
    const longRows = one.stdout.trim().split("\n");
    const wideRows = w1.stdout.trim().split("\n");
    expect(wideRows[100].split(",")[8]).toBe(longRows[1 + 7 * n + 99].split(",")[2]);
  });

  it("errors name the file line, inline and in a worker's slice", async () => {
    const n = 240;
    const rows = Array.from({ length: 400 }, (_, k) => series(k, n).map((r) => `s${k},${r.date},${r.prcp}`));
    rows[350][10] = `s350,${month(10)},oops`; // file line 2 + 350 * 240 + 10
    const text = "series,date,prcp\n" + rows.map((r) => r.join("\n")).join("\n") + "\n";
    const want = `indices: in.csv:${2 + 350 * n + 10}: column "prcp": not a number: "oops"\n`;
    expect((await run(["--index", "spi", "--scale", "3", "--workers", "1"], text)).stderr).toBe(want);
    expect((await run(["--index", "spi", "--scale", "3", "--workers", "2"], text)).stderr).toBe(want);
    const apart = "series,date,prcp\n" + [...rows.slice(0, 300), rows[0]].map((r) => r.join("\n")).join("\n") + "\n";
    for (const workers of ["1", "2"]) {
      const res = await run(["--index", "spi", "--scale", "3", "--workers", workers], apart);
      expect([res.code, res.stderr]).toEqual([2, expect.stringContaining('series "s0" appears again')]);
    }
    const cases: [string, string][] = [
      ["series,date,prcp\na,2000-01,1\na,2000-03,2\n", "in.csv:3: month sequence broken: expected 2000-02, found 2000-03"],
      ["series,date,prcp,lat\na,2000-01,1,10\na,2000-02,1,11\n", 'in.csv:3: series "a" changes lat from 10 to 11'],
      ["series,date,rain\na,2000-01,1\n", 'in.csv:1: unknown column "rain" (long layout: series, date, prcp, tmean, pet, balance, lat)'],
      ["series,date,prcp\n,2000-01,1\n", "in.csv:2: empty series name"],
      ["series,date,prcp\na,2000-01\n", "in.csv:2: expected 3 fields, found 2"],
      ["date,A,A\n2000-01,1,2\n", 'in.csv:1: column "A" appears twice'],
    ];
    for (const [csv, message] of cases) {
      const res = await run(["--index", "spi", "--scale", "1", ...(csv.startsWith("date") ? ["--layout", "wide"] : [])], csv);
      expect([res.code, res.stderr]).toEqual([2, `indices: ${message}\n`]);
    }
  });
});
