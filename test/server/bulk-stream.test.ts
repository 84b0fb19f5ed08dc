// The bulk route's pure parts and its work without HTTP (server/bulk/): lines across chunk boundaries, the row
// counter agreeing with the splitter, header and row reading with their reasons, and runBulk's limits — 413 and 429
// before any scoring, a budget spent mid-stream ending with an error record, an aborted signal stopping the work.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../server/errors.ts";
import { csvColumns, csvRow, LineCounter, LineSplitter, MAX_LINE_BYTES, ndjsonRow, OVERLONG } from "../../server/bulk/bulk-input.ts";
import { BULK_LIMITS, BulkCutShort, runBulk, type BulkLimits, type BulkRun } from "../../server/bulk/bulk-stream.ts";
import type { BatchItem, BatchScorer } from "../../server/services/types.ts";
import { BATCH_CSV_HEADER, batchCsvLine } from "../../server/routes/drought-csv.ts";

function split(chunks: Buffer[]): string[] {
  const s = new LineSplitter();
  const out: string[] = [];
  for (const c of chunks) s.push(c, out);
  s.end(out);
  return out;
}

function count(chunks: Buffer[]): number {
  const c = new LineCounter();
  for (const b of chunks) c.push(b);
  c.end();
  return c.lines;
}

/** `text` cut into pieces of `size` bytes. */
const pieces = (text: string, size: number) => {
  const b = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
  return out;
};

describe("LineSplitter and LineCounter", () => {
  const body = "id,lat,lng\r\nä1,13.5,100.5\n\n\r\nlast,1,2";
  it("gives the same lines whatever the chunk boundaries (CRLF, UTF-8 across chunks, no final newline)", () => {
    for (const size of [1, 2, 3, 7, 1000]) expect(split(pieces(body, size))).toEqual(["id,lat,lng", "ä1,13.5,100.5", "", "", "last,1,2"]);
  });
  it("counts the non-empty lines the splitter gives, whatever the chunks", () => {
    for (const size of [1, 2, 5, 1000]) expect(count(pieces(body, size))).toBe(3);
    expect(count(pieces("a\n\r\n\n", 1))).toBe(1);
    expect(count([Buffer.from("\r")])).toBe(0);
  });
  it("drops a line longer than the limit as it comes and reports it once", () => {
    const long = "x".repeat(MAX_LINE_BYTES * 3);
    expect(split(pieces(`a\n${long}\nb\n`, 1000))).toEqual(["a", OVERLONG, "b"]);
    expect(split(pieces(`a\n${long}`, 999))).toEqual(["a", OVERLONG]);
  });
});

describe("rows", () => {
  const cols = csvColumns("id,lat,lng");
  it("reads the header: lat and lng required (lon names lng), id optional, other columns ignored", () => {
    expect(csvColumns("\uFEFFName,LAT,lon,ID")).toMatchObject({ id: 3, lat: 1, lng: 2, plain: false });
    expect(csvColumns("lat,lng")).toMatchObject({ id: -1, lat: 0, lng: 1 });
    try {
      csvColumns("id,latitude,longitude");
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(400);
      expect((err as ApiError).message).toMatch(/lat and lng/);
      expect((err as ApiError).details).toMatchObject({ reason: "missing_columns", expected: ["id", "lat", "lng"], missing: ["lat", "lng"] });
    }
  });
  it("reads CSV rows, quoted or not, and gives a reason for a row it cannot score", () => {
    expect(csvRow("a,13.5,100.25", cols, 2)).toEqual({ id: "a", lat: 13.5, lng: 100.25 });
    expect(csvRow('"x, ""y""",13.5,100', cols, 2)).toEqual({ id: 'x, "y"', lat: 13.5, lng: 100 });
    expect(csvRow(",13.5,100", cols, 2)).toEqual({ id: undefined, lat: 13.5, lng: 100 });
    expect(csvRow("b,abc,100", cols, 7)).toEqual({ id: "b", reason: 'line 7: lat must be a number from -90 to 90, got "abc"' });
    expect(csvRow("c,13,181", cols, 3)).toEqual({ id: "c", reason: 'line 3: lng must be a number from -180 to 180, got "181"' });
    expect(csvRow("d,1e2,100", cols, 3)).toMatchObject({ reason: 'line 3: lat must be a number from -90 to 90, got "1e2"' });
    expect(csvRow("e,13", cols, 4)).toMatchObject({ reason: "line 4: 2 fields, the header names lat and lng as columns 2 and 3" });
    expect(csvRow('"f,13,100', cols, 5)).toMatchObject({ reason: expect.stringMatching(/^line 5: not valid CSV/) });
    expect(csvRow(OVERLONG, cols, 6)).toEqual({ id: undefined, reason: `line 6: longer than ${MAX_LINE_BYTES} bytes` });
  });
  it("gives a CSV answer the line's own id,lat,lng only where the answer writes them so", () => {
    expect(csvRow("a,13.5,100.25", cols, 2, true)).toEqual({ id: undefined, lat: 13.5, lng: 100.25, head: "a,13.5,100.25" });
    expect(csvRow("a,13.5,100.25,extra", cols, 2, true)).toEqual({ id: undefined, lat: 13.5, lng: 100.25, head: "a,13.5,100.25" });
    expect(csvRow(",-0.5,100", cols, 2, true)).toEqual({ id: undefined, lat: -0.5, lng: 100, head: ",-0.5,100" });
    // Not in String's form, an id that needs quoting or is too long, a coordinate out of range: read as without echo.
    for (const line of ["a,13.50,100", "a,+13.5,100", "a, 13.5,100", "a,-0,100", "a,0.0000001,100", "a\rb,13.5,100", `${"i".repeat(201)},13.5,100`, "a,91,100"]) {
      expect(csvRow(line, cols, 2, true), line).toEqual(csvRow(line, cols, 2));
    }
    expect(csvRow(`${"i".repeat(200)},13.5,100`, cols, 2, true)).toMatchObject({ head: `${"i".repeat(200)},13.5,100` });
  });
  it("reads NDJSON rows: numbers lat and lng, a string id, other keys ignored", () => {
    expect(ndjsonRow('{"id":"a","lat":13.5,"lng":100.5,"value":3}', 2)).toEqual({ id: "a", lat: 13.5, lng: 100.5 });
    expect(ndjsonRow('{"lat":"13.5","lng":100}', 3)).toEqual({ id: undefined, reason: 'line 3: lat must be a number from -90 to 90, got "13.5"' });
    expect(ndjsonRow('{"id":"b","lng":100}', 3)).toEqual({ id: "b", reason: "line 3: lat is required (a number from -90 to 90)" });
    expect(ndjsonRow("{nope", 4)).toEqual({ id: undefined, reason: "line 4: not valid JSON" });
    expect(ndjsonRow("[1,2]", 5)).toEqual({ id: undefined, reason: "line 5: not a JSON object" });
    expect(ndjsonRow('{"id":7,"lat":1,"lng":2}', 6)).toEqual({ id: undefined, reason: "line 6: id must be a string, got 7" });
  });
});

/** Found inside lat 5..21: riskScore from the latitude. */
function fakeScorer(calls: { n: number }): BatchScorer {
  return {
    dataVersion: "v1",
    time: () => null,
    item(id, lat, lng): BatchItem {
      calls.n++;
      const base = id === undefined ? { lat, lng } : { id, lat, lng };
      if (lat < 5 || lat > 21) return { ...base, found: false, month: null, riskScore: null, riskLevel: null, severity: null, spei1: null, reason: "outside" };
      return { ...base, found: true, month: "2018-10", riskScore: Math.round(lat), riskLevel: "low", severity: null, spei1: 0.5, confidence: null, confidenceLabel: null };
    },
  };
}

function source(chunks: Buffer[]): AsyncIterator<Buffer> {
  let i = 0;
  return { next: async () => (i < chunks.length ? { done: false, value: chunks[i++] } : { done: true, value: undefined }) };
}

const csvBody = (rows: number, row = (i: number) => `p${i},${10 + (i % 10)},100`) => "id,lat,lng\n" + Array.from({ length: rows }, (_, i) => row(i)).join("\n") + "\n";

async function run(body: string, opts: Partial<BulkRun> & { limits?: BulkLimits; budget?: number } = {}) {
  const calls = { n: 0 };
  const written: string[] = [];
  const charged: number[] = [];
  let budget = opts.budget ?? Infinity;
  let error: unknown;
  let counts;
  try {
    counts = await runBulk({
      source: source(pieces(body, 1000)),
      input: "csv",
      output: "csv",
      scorer: fakeScorer(calls),
      charge: async (points) => {
        charged.push(points);
        budget -= points;
        if (budget < 0) throw new ApiError("RATE_LIMIT_EXCEEDED", "Request quota exceeded for the plan", { retryAfterSeconds: 42 });
      },
      sink: { write: async (t) => void written.push(t) },
      signal: new AbortController().signal,
      ...opts,
    });
  } catch (err) {
    error = err;
  }
  return { calls, written, text: written.join(""), charged, error, counts };
}

const small: BulkLimits = { ...BULK_LIMITS, maxRows: 1000, readAheadBytes: 2000, blockRows: 100, outputBlockChars: 500 };

describe("runBulk", () => {
  it("scores every row in order, malformed rows with their reason, charging ceil(n/10) points", async () => {
    const r = await run("id,lat,lng\na,13.5,100\nb,x,100\n\nc,50,100\n", { output: "csv" });
    expect(r.text).toBe(
      "id,lat,lng,month,found,riskScore,riskLevel,severity,spei1,reason\n" +
        "a,13.5,100,2018-10,true,14,low,,0.5,\n" +
        'b,,,,false,,,,,"line 3: lat must be a number from -90 to 90, got ""x"""\n' +
        "c,50,100,,false,,,,,outside\n",
    );
    expect(r.counts).toEqual({ rows: 3, found: 1, notFound: 1, invalid: 1 });
    expect(r.charged).toEqual([1]);
  });

  it("writes each CSV row as its batch item, whatever the coordinates' text and the id", async () => {
    const lines = [
      ["a", "13.5", "100.25"],
      ["b", "013.50", "+100"],
      ["c", " 13.5", "100 "],
      ["", "-0", "100.0"],
      ["e", "0.0000001", "100"],
      ["f", "13.1234567890123456", "100.999999999999999"],
      ["g\rh", "13.5", "100"],
      ["i".repeat(200), "20.5", "101"],
      ["j", "21.5", "101"],
    ];
    const r = await run("id,lat,lng\n" + lines.map((l) => l.join(",")).join("\n") + "\n");
    const scorer = fakeScorer({ n: 0 });
    const want = lines.map(([id, lat, lng]) => batchCsvLine(scorer.item(id === "" ? undefined : id, Number(lat), Number(lng))) + "\n");
    expect(r.text).toBe(BATCH_CSV_HEADER + "\n" + want.join(""));
    expect(r.text).toContain("\nb,13.5,100,");
    expect(r.text).toContain('\n"g\rh",13.5,100,');
  });

  it("writes each NDJSON row as its batch item, whatever the line's spacing, order, numbers and id", async () => {
    const lines = [
      '{"id":"a","lat":13.5,"lng":100.25}',
      '{"lat":13.5,"lng":100}',
      '{"id":"b", "lat":13.5,"lng":100}',
      '{"lng":100,"lat":13.5,"id":"c"}',
      '{"id":"d","lat":13.50,"lng":1e2}',
      '{"id":"e","lat":-0,"lng":100}',
      '{"id":"f\\"g","lat":13.5,"lng":100}',
      '{"id":"Hà Nội","lat":13.5,"lng":100}',
      '{"id":"h","lat":13.5,"lng":100,"extra":[1,2]}',
      '{"id":"","lat":20.123456789012345,"lng":101.5}',
    ];
    const r = await run(lines.join("\n") + "\n", { input: "ndjson", output: "ndjson" });
    const scorer = fakeScorer({ n: 0 });
    const rows = r.text.trim().split("\n").slice(0, -1);
    expect(rows).toEqual(
      lines.map((l) => {
        const o = JSON.parse(l) as { id?: string; lat: number; lng: number };
        return JSON.stringify(scorer.item(o.id, o.lat, o.lng));
      }),
    );
  });

  it("ends NDJSON with the end record", async () => {
    const r = await run("a,1,2\n", { input: "ndjson", output: "ndjson" });
    expect(r.error).toBeUndefined();
    const r2 = await run('{"id":"a","lat":13.5,"lng":100}\n', { input: "ndjson", output: "ndjson", endFields: () => ({ dataVersion: "v1" }) });
    const lines = r2.text.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { id: "a", lat: 13.5, lng: 100, found: true, month: "2018-10", riskScore: 14, riskLevel: "low", severity: null, spei1: 0.5, confidence: null, confidenceLabel: null },
      { end: { complete: true, rows: 1, found: 1, notFound: 0, invalid: 0, dataVersion: "v1" } },
    ]);
    expect(JSON.parse(r.text.trim().split("\n")[1])).toMatchObject({ end: { rows: 1, invalid: 1 } });
  });

  it("answers 413 for one row too many, and 429 for a budget that cannot cover the rows, before scoring any", async () => {
    const over = await run(csvBody(1001), { limits: { ...small, readAheadBytes: 1e6 } });
    expect(over.error).toMatchObject({ status: 413, details: { maxRows: 1000 } });
    expect(over.calls.n).toBe(0);
    expect(over.written).toEqual([]);
    // Past the read-ahead the 1,001st row ends the answer after 1,000 rows.
    const late = await run(csvBody(1001), { limits: small });
    expect(late.error).toBeInstanceOf(BulkCutShort);
    expect(late.error).toMatchObject({ rows: 1000, error: { status: 413 } });
    expect(late.text.trim().split("\n").at(-1)).toBe(",,,,,,,,,PAYLOAD_TOO_LARGE after 1000 rows: More than 1000 rows; split the body into requests of at most 1000 rows");
    const poor = await run(csvBody(100), { budget: 9 });
    expect(poor.error).toMatchObject({ status: 429 });
    expect(poor.calls.n).toBe(0);
    expect(poor.written).toEqual([]);
    expect((await run("")).error).toMatchObject({ status: 400, details: { reason: "empty_body" } });
    expect((await run("id,lat,lng\n\n")).error).toMatchObject({ status: 400, details: { reason: "no_rows" } });
    expect((await run("id,x,y\n1,2,3\n")).error).toMatchObject({ status: 400, details: { reason: "missing_columns" } });
  });

  it("ends with an error record naming the rows sent when the budget runs out mid-stream", async () => {
    // 2,000 bytes read ahead (~150 rows) are charged at once, then a block of 100 rows at a time.
    const r = await run(csvBody(900), { limits: small, budget: 50 });
    expect(r.error).toBeInstanceOf(BulkCutShort);
    const cut = r.error as BulkCutShort;
    expect(cut.error.code).toBe("RATE_LIMIT_EXCEEDED");
    const lines = r.text.trim().split("\n");
    const last = lines.at(-1)!;
    expect(last).toBe(`,,,,,,,,,RATE_LIMIT_EXCEEDED after ${cut.rows} rows: Request quota exceeded for the plan`);
    expect(lines.length - 2).toBe(cut.rows); // header and the record
    expect(cut.rows).toBe(r.calls.n);
    expect(cut.rows).toBeGreaterThan(100);
    expect(cut.rows).toBeLessThan(900);
  });

  it("stops reading and scoring when the signal is aborted", async () => {
    const abort = new AbortController();
    const calls = { n: 0 };
    let served = 0;
    const endless: AsyncIterator<Buffer> = {
      next: async () => {
        served++;
        const text = served === 1 ? "id,lat,lng\n" : Array.from({ length: 100 }, () => "a,13,100").join("\n") + "\n";
        return { done: false, value: Buffer.from(text) };
      },
    };
    let writes = 0;
    const err = await runBulk({
      source: endless,
      input: "csv",
      output: "csv",
      scorer: fakeScorer(calls),
      charge: async () => {},
      sink: {
        write: async () => {
          if (++writes === 3) abort.abort(new Error("client gone"));
        },
      },
      signal: abort.signal,
      limits: { ...small, maxRows: 1e9, maxBytes: 1e12, readAheadBytes: 1000 },
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe("client gone");
    const after = calls.n;
    const chunks = served;
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.n).toBe(after);
    expect(served).toBe(chunks);
    expect(after).toBeLessThan(2000);
  });

  it("gives up waiting for a body that never goes on once the signal is aborted", async () => {
    const abort = new AbortController();
    let served = 0;
    const stalled: AsyncIterator<Buffer> = {
      // The header, then a chunk that never comes (a request whose client went away without an error event).
      next: () => (served++ === 0 ? Promise.resolve({ done: false, value: Buffer.from("id,lat,lng\n") }) : new Promise(() => {})),
    };
    setTimeout(() => abort.abort(new Error("client gone")), 50);
    const err = await runBulk({
      source: stalled,
      input: "csv",
      output: "csv",
      scorer: fakeScorer({ n: 0 }),
      charge: async () => {},
      sink: { write: async () => {} },
      signal: abort.signal,
      limits: { ...small, maxRows: 1e9, maxBytes: 1e12, readAheadBytes: 1000 },
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe("client gone");
  });
});
