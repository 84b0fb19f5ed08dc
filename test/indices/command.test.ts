import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { runIndicesCommand, type CommandIo } from "../../pipeline/commands/indices.ts";
import { readReference } from "./reference.ts";

const dir = mkdtempSync(join(tmpdir(), "indices-cmd-"));

function wichitaCsv(): string {
  const w = readReference("r_spei/generated/wichita_pet.csv");
  const rows = ["date,prcp,tmean"];
  for (let i = 0; i < w.year.length; i++) {
    rows.push(`${w.year[i]}-${String(w.month[i]).padStart(2, "0")},${w.PRCP[i]},${w.TMED[i]}`);
  }
  return rows.join("\n") + "\n";
}

async function run(argv: string[], files: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const written: Record<string, string> = {};
  const io: CommandIo = {
    stdout: (t) => void out.push(typeof t === "string" ? t : Buffer.from(t).toString()),
    stderr: (t) => void err.push(t),
    readFile: (p) => {
      if (!(p in files)) throw new Error("ENOENT");
      return files[p];
    },
    writeFile: (p, chunks) => void (written[p] = chunks.map((t) => (typeof t === "string" ? t : Buffer.from(t).toString())).join("")),
  };
  const code = await runIndicesCommand(argv, io);
  return { code, stdout: out.join(""), stderr: err.join(""), written };
}

function parseOutput(csv: string): { dates: string[]; values: Float64Array } {
  const lines = csv.trim().split("\n");
  expect(lines[0]).toBe("date,value");
  const rows = lines.slice(1).map((l) => l.split(","));
  const values = Float64Array.from(rows, ([, v]) => (v === "NA" ? NaN : v === "Inf" ? Infinity : v === "-Inf" ? -Infinity : Number(v)));
  return { dates: rows.map((r) => r[0]), values };
}

describe("indices command", () => {
  it("end to end through the CLI: SPEI-3 of a balance column equals R SPEI 1.8.1 within 1e-6", () => {
    const ref = readReference("r_spei/generated/wichita_spei.csv");
    const rows = ["date,prcp,balance"];
    for (let i = 0; i < ref.year.length; i++) rows.push(`${ref.year[i]}-${String(ref.month[i]).padStart(2, "0")},0,${ref.BAL[i]}`);
    const input = join(dir, "balance.csv");
    writeFileSync(input, rows.join("\n") + "\n");
    const res = spawnSync("npx", ["tsx", "pipeline/cli.ts", "indices", "--input", input, "--index", "spei", "--scale", "3"], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
    });
    expect(res.stderr.replace(/npm warn.*\n/g, "")).toBe("");
    expect(res.status).toBe(0);
    expect(res.stdout.split("\n").slice(0, 3)).toEqual(["date,value", "1980-01,NA", "1980-02,NA"]);
    const { dates, values } = parseOutput(res.stdout);
    expect(dates[381]).toBe("2011-10");
    for (let i = 0; i < values.length; i++) {
      if (Number.isNaN(ref.spei_03_ubpwm[i])) expect(values[i]).toBeNaN();
      else expect(Math.abs(values[i] - ref.spei_03_ubpwm[i])).toBeLessThan(1e-6);
    }
  });

  it("SPEI-6 from tmean (dated Thornthwaite) equals SPEI of PRCP − R's dated PET", async () => {
    const w = readReference("r_spei/generated/wichita_pet.csv");
    const res = await run(["--input", "w.csv", "--index", "spei", "--scale", "6", "--lat", "37.6475"], { "w.csv": wichitaCsv() });
    expect(res.code).toBe(0);
    const viaR = await run(["--input", "b.csv", "--index", "spei", "--scale", "6"], {
      "b.csv":
        "date,balance\n" +
        Array.from(w.year, (y, i) => `${y}-${String(w.month[i]).padStart(2, "0")},${w.PRCP[i] - w.pet_thornthwaite_ts[i]}`).join("\n"),
    });
    const a = parseOutput(res.stdout).values;
    const b = parseOutput(viaR.stdout).values;
    expect(Number.isNaN(a[4]) && Number.isNaN(b[4])).toBe(true);
    for (let i = 5; i < a.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThan(1e-6);
  });

  it("SPI with a reference period, Inf written literally", async () => {
    const csv = "date,prcp\n" + Array.from({ length: 72 }, (_, i) => {
      const y = 2000 + Math.floor(i / 12);
      const m = (i % 12) + 1;
      return `${y}-${String(m).padStart(2, "0")},${i === 71 ? 0 : 10 + ((i * 7) % 13)}`;
    }).join("\n");
    const res = await run(["--input", "p.csv", "--index", "spi", "--scale", "1", "--ref-start", "2000-01", "--ref-end", "2004-12"], {
      "p.csv": csv,
    });
    expect(res.code).toBe(0);
    // December 2005 = 0 mm, no zero in the reference Decembers: H(0) = 0 → −Inf
    expect(res.stdout.trim().split("\n").at(-1)).toBe("2005-12,-Inf");
  });

  it("errors name the file and line, exit code 2", async () => {
    const cases: [string, string[], string][] = [
      ["date,prcp\n2000-01,1\n2000-03,2\n", [], 'x.csv:3: month sequence broken: expected 2000-02, found 2000-03'],
      ["date,prcp\n2000-1,1\n", [], 'x.csv:2: bad date "2000-1" (want YYYY-MM)'],
      ["date,prcp\n2000-01,abc\n", [], 'x.csv:2: column "prcp": not a number: "abc"'],
      ["date,rain\n2000-01,1\n", [], 'x.csv:1: missing column "prcp" (one column per series: --layout wide)'],
      ["when,prcp\n2000-01,1\n", [], 'x.csv:1: missing column "date"'],
      ["date,prcp\n2000-01,1,2\n", [], "x.csv:2: expected 2 fields, found 3"],
      ["date,prcp,tmean\n2000-01,1,2\n", ["--index", "spei"], "--lat (or a lat column) is required to compute PET from tmean"],
      ["date,prcp\n2000-01,1\n", ["--index", "spei"], 'x.csv:1: SPEI needs a "balance", "pet" or "tmean" column'],
      ["date,prcp\n2000-01,1\n", ["--ref-start", "2010-01"], "reference period is outside the data (2000-01..2000-01)"],
    ];
    for (const [csv, extra, message] of cases) {
      const argv = ["--input", "x.csv", "--index", "spi", "--scale", "1", ...extra];
      const res = await run(argv, { "x.csv": csv });
      expect(res.code, message).toBe(2);
      expect(res.stderr).toBe(`indices: ${message}\n`);
    }
  });

  it("usage errors exit 2", async () => {
    expect((await run(["--index", "spi", "--scale", "1"], {})).stderr).toContain("--input is required");
    expect((await run(["--input", "x", "--index", "spx", "--scale", "1"], {})).stderr).toBe('indices: --index must be spei or spi, got "spx"\n');
    expect((await run(["--input", "x", "--index", "spi", "--scale", "0"], {})).code).toBe(2);
    expect((await run(["--input", "x", "--index", "spi", "--scale", "3", "--bogus", "1"], {})).stderr).toContain('unknown option "--bogus"');
    expect((await run(["--input", "missing.csv", "--index", "spi", "--scale", "3"], {})).stderr).toBe(
      "indices: missing.csv: cannot read: ENOENT\n",
    );
    expect((await run(["--input", "x", "--index", "spi", "--scale", "3", "--ref-start", "2001-13"], {})).stderr).toBe(
      'indices: --ref-start must be YYYY-MM, got "2001-13"\n',
    );
  });

  it("file output round trip on disk", async () => {
    const input = join(dir, "p.csv");
    writeFileSync(input, "date,prcp\n2000-01,1\n2000-02,2\n");
    const code = await runIndicesCommand(["--input", input, "--index", "spi", "--scale", "2", "--output", join(dir, "o.csv")]);
    expect(code).toBe(0);
    expect(readFileSync(join(dir, "o.csv"), "utf8")).toBe("date,value\n2000-01,NA\n2000-02,NA\n");
  });
});
