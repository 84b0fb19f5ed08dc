// The researchers' `indices` command: one station's monthly CSV in, SPEI or SPI out.
//   indices --input FILE.csv --index spei|spi --scale K [--lat DEG] [--ref-start YYYY-MM --ref-end YYYY-MM]
//           [--output FILE.csv]
// Input columns: date (YYYY-MM), prcp, and for SPEI one of balance, pet, or tmean (+ --lat, Thornthwaite).
// Output: date,value with NA / Inf / -Inf written literally. Input and usage errors exit with code 2.
import { readFileSync, writeFileSync } from "node:fs";
import { formatMonth, parseMonth, type MonthIndex } from "../../lib/months.ts";
import { thornthwaite } from "../indices/pet-thornthwaite.ts";
import { spei } from "../indices/spei.ts";
import { spi } from "../indices/spi.ts";

export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readFile: (path: string) => string;
  writeFile: (path: string, text: string) => void;
}

export const USAGE =
  "usage: indices --input FILE.csv --index spei|spi --scale K [--lat DEG] " +
  "[--ref-start YYYY-MM --ref-end YYYY-MM] [--output FILE.csv]";

/** An input or usage problem, reported with exit code 2. */
export class IndicesInputError extends Error {}

interface Options {
  input: string;
  index: "spei" | "spi";
  scale: number;
  lat?: number;
  refStart?: MonthIndex;
  refEnd?: MonthIndex;
  output?: string;
}

const FLAGS = new Set(["--input", "--index", "--scale", "--lat", "--ref-start", "--ref-end", "--output"]);

export function parseIndicesArgs(argv: string[]): Options {
  const raw = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    if (!FLAGS.has(flag)) throw new IndicesInputError(`unknown option "${flag}"\n${USAGE}`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith("--")) throw new IndicesInputError(`${flag} needs a value\n${USAGE}`);
    raw.set(flag, value);
  }
  const input = raw.get("--input");
  if (!input) throw new IndicesInputError(`--input is required\n${USAGE}`);
  const index = raw.get("--index");
  if (index !== "spei" && index !== "spi") throw new IndicesInputError(`--index must be spei or spi, got "${index ?? ""}"`);
  const scaleText = raw.get("--scale") ?? "";
  const scale = Number(scaleText);
  if (!/^\d+$/.test(scaleText) || scale < 1 || scale > 72) {
    throw new IndicesInputError(`--scale must be an integer from 1 to 72, got "${scaleText}"`);
  }
  const month = (flag: string): MonthIndex | undefined => {
    const text = raw.get(flag);
    if (text === undefined) return undefined;
    const m = parseMonth(text);
    if (m === undefined) throw new IndicesInputError(`${flag} must be YYYY-MM, got "${text}"`);
    return m;
  };
  const latText = raw.get("--lat");
  const lat = latText === undefined ? undefined : Number(latText);
  if (lat !== undefined && !(Math.abs(lat) <= 90 && latText!.trim() !== "")) {
    throw new IndicesInputError(`--lat must be a latitude in degrees (−90..90), got "${latText}"`);
  }
  const refStart = month("--ref-start");
  const refEnd = month("--ref-end");
  if (refStart !== undefined && refEnd !== undefined && refStart > refEnd) {
    throw new IndicesInputError("--ref-start is after --ref-end");
  }
  return { input, index, scale, lat, refStart, refEnd, output: raw.get("--output") };
}

export interface MonthlyTable {
  firstMonth: MonthIndex;
  columns: Map<string, Float64Array>;
}

/** Parses the monthly CSV: consecutive months, numeric cells, NA or empty = missing. */
export function parseMonthlyCsv(text: string, file: string): MonthlyTable {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1].trim() === "") lines.pop();
  if (lines.length < 2) throw new IndicesInputError(`${file}: no data rows`);
  const header = lines[0].split(",").map((h) => h.trim().toLowerCase());
  const dateCol = header.indexOf("date");
  if (dateCol < 0) throw new IndicesInputError(`${file}:1: missing column "date"`);
  const n = lines.length - 1;
  const columns = new Map<string, Float64Array>();
  for (const h of header) if (h !== "date") columns.set(h, new Float64Array(n));
  let firstMonth = 0;
  for (let r = 0; r < n; r++) {
    const lineNo = r + 2;
    const cells = lines[r + 1].split(",");
    if (cells.length !== header.length) {
      throw new IndicesInputError(`${file}:${lineNo}: expected ${header.length} fields, found ${cells.length}`);
    }
    const month = parseMonth(cells[dateCol].trim());
    if (month === undefined) throw new IndicesInputError(`${file}:${lineNo}: bad date "${cells[dateCol]}" (want YYYY-MM)`);
    if (r === 0) firstMonth = month;
    else if (month !== firstMonth + r) {
      throw new IndicesInputError(
        `${file}:${lineNo}: month sequence broken: expected ${formatMonth(firstMonth + r)}, found ${formatMonth(month)}`,
      );
    }
    header.forEach((h, c) => {
      if (c === dateCol) return;
      const s = cells[c].trim();
      let v: number;
      if (s === "" || s === "NA" || s === "NaN") v = NaN;
      else {
        v = Number(s);
        if (!Number.isFinite(v)) throw new IndicesInputError(`${file}:${lineNo}: column "${h}": not a number: "${s}"`);
      }
      columns.get(h)![r] = v;
    });
  }
  return { firstMonth, columns };
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return "NA";
  if (v === Infinity) return "Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}

/** Computes the requested index; throws IndicesInputError on bad input. */
export function computeIndicesCsv(opts: Options, text: string): string {
  const { firstMonth, columns } = parseMonthlyCsv(text, opts.input);
  const need = (name: string): Float64Array => {
    const col = columns.get(name);
    if (!col) throw new IndicesInputError(`${opts.input}:1: missing column "${name}"`);
    return col;
  };
  const n = columns.values().next().value?.length ?? 0;
  if ((opts.refStart ?? firstMonth) > firstMonth + n - 1 || (opts.refEnd ?? firstMonth + n - 1) < firstMonth) {
    throw new IndicesInputError(
      `reference period is outside the data (${formatMonth(firstMonth)}..${formatMonth(firstMonth + n - 1)})`,
    );
  }
  const std = { scale: opts.scale, firstMonth, refStart: opts.refStart, refEnd: opts.refEnd };
  let values: Float64Array;
  if (opts.index === "spi") {
    values = spi(need("prcp"), std);
  } else {
    let balance = columns.get("balance");
    if (!balance) {
      const prcp = need("prcp");
      let pet = columns.get("pet");
      if (!pet) {
        if (!columns.has("tmean")) {
          throw new IndicesInputError(`${opts.input}:1: SPEI needs a "balance", "pet" or "tmean" column`);
        }
        if (opts.lat === undefined) throw new IndicesInputError("--lat is required to compute PET from tmean");
        pet = thornthwaite(need("tmean"), opts.lat, { firstMonth });
      }
      const p = pet;
      balance = prcp.map((x, i) => x - p[i]);
    }
    values = spei(balance, std);
  }
  const out = ["date,value"];
  for (let i = 0; i < values.length; i++) out.push(`${formatMonth(firstMonth + i)},${formatValue(values[i])}`);
  return out.join("\n") + "\n";
}

export const processIo: CommandIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  readFile: (path) => readFileSync(path, "utf8"),
  writeFile: (path, text) => writeFileSync(path, text),
};

/** Runs the command; returns the exit code (0 ok, 2 input or usage error). */
export function runIndicesCommand(argv: string[], io: CommandIo = processIo): number {
  try {
    const opts = parseIndicesArgs(argv);
    let text: string;
    try {
      text = io.readFile(opts.input);
    } catch (err) {
      throw new IndicesInputError(`${opts.input}: cannot read: ${(err as Error).message}`);
    }
    const csv = computeIndicesCsv(opts, text);
    if (opts.output) io.writeFile(opts.output, csv);
    else io.stdout(csv);
    return 0;
  } catch (err) {
    if (err instanceof IndicesInputError) {
      io.stderr(`indices: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
