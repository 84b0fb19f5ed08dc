// The researchers' `indices` command: monthly series in, SPEI or SPI out — one series, or many in one run.
//   indices --input FILE.csv --index spei|spi --scale K [--lat DEG] [--ref-start YYYY-MM --ref-end YYYY-MM]
//           [--layout wide] [--workers N] [--output FILE.csv]
// Input columns: date (YYYY-MM), prcp, and for SPEI one of balance, pet, or tmean (+ --lat, Thornthwaite); a
// `series` column holds many series, --layout wide reads one column per series (indices-table.ts has the layouts).
// Output in the input's layout, NA / Inf / -Inf written literally. Input and usage errors exit with code 2.
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { formatMonth, parseMonth, type MonthIndex } from "../../lib/months.ts";
import { thornthwaite } from "../indices/pet-thornthwaite.ts";
import { spei } from "../indices/spei.ts";
import { spi } from "../indices/spi.ts";
import { formatIndicesTable, IndicesInputError, parseIndicesTable } from "./indices-table.ts";

/** The command's file and terminal access (tests pass files in memory). Output comes as text or UTF-8 bytes. */
export interface CommandIo {
  stdout: (chunk: string | Uint8Array) => void;
  stderr: (text: string) => void;
  readFile: (path: string) => string | Uint8Array;
  writeFile: (path: string, chunks: (string | Uint8Array)[]) => void;
}

export const USAGE =
  "usage: indices --input FILE.csv --index spei|spi --scale K [--lat DEG] " +
  "[--ref-start YYYY-MM --ref-end YYYY-MM] [--layout wide] [--workers N] [--output FILE.csv]";

export { IndicesInputError };

export interface IndicesOptions {
  input: string;
  index: "spei" | "spi";
  scale: number;
  lat?: number;
  refStart?: MonthIndex;
  refEnd?: MonthIndex;
  output?: string;
  /** "wide": one column per series (else single, or long when there is a `series` column). */
  layout?: "wide";
  /** Worker threads for many series (default: the machine's cores, at most 8). */
  workers?: number;
}

const FLAGS = new Set(["--input", "--index", "--scale", "--lat", "--ref-start", "--ref-end", "--output", "--layout", "--workers"]);

export function parseIndicesArgs(argv: string[]): IndicesOptions {
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
  const layout = raw.get("--layout");
  if (layout !== undefined && layout !== "wide" && layout !== "auto") {
    throw new IndicesInputError(`--layout must be wide or auto, got "${layout}"`);
  }
  const workersText = raw.get("--workers");
  const workers = workersText === undefined ? undefined : Number(workersText);
  if (workers !== undefined && !(/^\d+$/.test(workersText!) && workers >= 1 && workers <= 64)) {
    throw new IndicesInputError(`--workers must be an integer from 1 to 64, got "${workersText}"`);
  }
  return { input, index, scale, lat, refStart, refEnd, output: raw.get("--output"), layout: layout === "wide" ? "wide" : undefined, workers };
}

/** One series of a table: its monthly columns (prcp, and balance, pet or tmean for SPEI) from `firstMonth`. */
export interface SeriesInput {
  name: string;
  firstMonth: MonthIndex;
  columns: Map<string, Float64Array>;
  /** Latitude for Thornthwaite PET from tmean: the series' `lat` column, else --lat. */
  lat?: number;
}

/** The requested index of one series; throws IndicesInputError on bad input. */
export function computeSeries(opts: IndicesOptions, s: SeriesInput): Float64Array {
  const where = s.name === "" ? opts.input : `${opts.input}: series "${s.name}"`;
  const { firstMonth, columns } = s;
  const need = (name: string): Float64Array => {
    const col = columns.get(name);
    if (!col) throw new IndicesInputError(`${opts.input}:1: missing column "${name}"${s.name === "" ? " (one column per series: --layout wide)" : ""}`);
    return col;
  };
  const n = columns.values().next().value?.length ?? 0;
  if ((opts.refStart ?? firstMonth) > firstMonth + n - 1 || (opts.refEnd ?? firstMonth + n - 1) < firstMonth) {
    throw new IndicesInputError(
      `${s.name === "" ? "" : `${where}: `}reference period is outside the data (${formatMonth(firstMonth)}..${formatMonth(firstMonth + n - 1)})`,
    );
  }
  const std = { scale: opts.scale, firstMonth, refStart: opts.refStart, refEnd: opts.refEnd };
  if (opts.index === "spi") return spi(need("prcp"), std);
  let balance = columns.get("balance");
  if (!balance) {
    const prcp = need("prcp");
    let pet = columns.get("pet");
    if (!pet) {
      if (!columns.has("tmean")) {
        throw new IndicesInputError(`${opts.input}:1: SPEI needs a "balance", "pet" or "tmean" column`);
      }
      const lat = s.lat ?? opts.lat;
      if (lat === undefined) throw new IndicesInputError("--lat (or a lat column) is required to compute PET from tmean");
      pet = thornthwaite(need("tmean"), lat, { firstMonth });
    }
    const p = pet;
    balance = prcp.map((x, i) => x - p[i]);
  }
  return spei(balance, std);
}

/** Computes the requested index of every series of the table, in the table's layout; throws IndicesInputError. */
export function computeIndicesCsv(opts: IndicesOptions, text: string): string {
  const table = parseIndicesTable(text, opts.input, opts.index, opts.layout === "wide");
  return formatIndicesTable(table, table.series.map((s) => computeSeries(opts, s))).join("");
}

export const processIo: CommandIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  // Bytes, not text: a long table goes to the workers as byte slices and each decodes its own.
  readFile: (path) => readFileSync(path),
  writeFile: (path, chunks) => {
    const fd = openSync(path, "w");
    try {
      for (const chunk of chunks) {
        const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
        for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
      }
    } finally {
      closeSync(fd);
    }
  },
};

/** Runs the command; returns the exit code (0 ok, 2 input or usage error). Many series use worker threads. */
export async function runIndicesCommand(argv: string[], io: CommandIo = processIo): Promise<number> {
  try {
    const opts = parseIndicesArgs(argv);
    let text: string | Uint8Array;
    try {
      text = io.readFile(opts.input);
    } catch (err) {
      throw new IndicesInputError(`${opts.input}: cannot read: ${(err as Error).message}`);
    }
    const { computeIndicesChunks, defaultWorkers } = await import("./indices-parallel.ts");
    const chunks = await computeIndicesChunks(opts, text, opts.workers ?? defaultWorkers());
    if (opts.output) io.writeFile(opts.output, chunks);
    else for (const chunk of chunks) io.stdout(chunk);
    return 0;
  } catch (err) {
    if (err instanceof IndicesInputError) {
      io.stderr(`indices: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
