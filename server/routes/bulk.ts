// POST /api/risk-map/bulk: up to 1,000,000 points scored for drought in one streamed request. The handler checks the
// headers, takes a bulk admission slot, wires the streams (the body through its decoder, the rows out through gzip
// when asked) and ends the answer; reading rows and scoring them is server/bulk/bulk-stream.ts, their text
// bulk-input.ts and bulk-output.ts. Formats, limits, cost and errors: docs/api.md "Bulk".
import { once } from "node:events";
import { PassThrough, type Readable, type Transform } from "node:stream";
import { constants as zlib, createBrotliDecompress, createGunzip, createGzip, createInflate, type Gzip } from "node:zlib";
import type { Request, Response } from "express";
import { z } from "zod";
import { ClientAbortedError } from "../errors.ts";
import { corruptEncoding, discardRest, DISCARD_CAP_FACTOR, tooLarge, unsupportedEncoding } from "../http/body.ts";
import { untimeRequest } from "../http/long-request.ts";
import { acceptsGzip } from "../http/respond.ts";
import { errorResponses, POINT_MONTH_NOTE } from "../openapi-parts.ts";
import { BULK_INPUT_TYPES, bulkInputFormat, EXPECTED_COLUMNS, MAX_ID_LENGTH, MAX_LINE_BYTES, type BulkFormat } from "../bulk/bulk-input.ts";
import { BULK_OUTPUT_TYPES } from "../bulk/bulk-output.ts";
import { BULK_LIMITS, BulkCutShort, orAbort, runBulk, type BulkLimits, type BulkSink } from "../bulk/bulk-stream.ts";
import type { BatchScorer } from "../services/types.ts";
import { scorerOf } from "../services/batch-scorer.ts";
import { CSV_TIME_HEADERS, csvTimeHeaders, wantsCsv } from "./drought-csv.ts";
import type { Route, RouteContext } from "./route.ts";

/** A connection of a bulk request that moves no byte either way for this long is closed. */
export const BULK_IDLE_MS = 30_000;
/** Output gzip level: 1 keeps up with the scoring on one core (level 6 takes about 3× the CPU for 15 % fewer bytes). */
const GZIP_LEVEL = 1;

const DECODERS: Record<string, (() => Transform) | undefined> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** The body's decoder (identity: a pass-through) and its coding's name, or 415 for another coding. */
function decoderOf(header: string | undefined): { decoder: Transform; coding: string } {
  const coding = header?.trim().toLowerCase();
  if (coding === undefined || coding === "" || coding === "identity") return { decoder: new PassThrough(), coding: "identity" };
  const make = DECODERS[coding];
  if (make === undefined) throw unsupportedEncoding(header);
  return { decoder: make(), coding };
}

/** The decoded body's chunks; a decoder's failure is a 400, a connection lost mid-body a ClientAbortedError. */
function bodySource(req: Request, decoder: Transform, coding: string): AsyncIterator<Buffer> {
  req.on("error", () => decoder.destroy(new ClientAbortedError()));
  req.on("aborted", () => decoder.destroy(new ClientAbortedError()));
  req.pipe(decoder);
  const chunks = (decoder as Readable)[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return {
    async next() {
      try {
        return await chunks.next();
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (typeof code === "string" && code.startsWith("Z_")) {
          throw corruptEncoding(coding, (err as Error).message);
        }
        throw err;
      }
    },
  };
}

/** Resolves when `stream` drains; rejects when the response closes first (the client left). */
function drained(stream: NodeJS.WritableStream, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      stream.off("drain", onDrain);
      res.off("close", onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new ClientAbortedError());
    stream.once("drain", onDrain);
    res.once("close", onClose);
  });
}

/** Whether Node sends this answer chunked when it has no Content-Length (not to an HTTP/1.0 client without TE: chunked). */
const chunkedAnswer = (res: Response): boolean => (res as unknown as { useChunkedEncodingByDefault: boolean }).useChunkedEncodingByDefault;

/** The response as a BulkSink: headers on the first write, gzip when asked, written with backpressure. */
class ResponseSink implements BulkSink {
  private gzip: Gzip | undefined;

  constructor(
    private readonly res: Response,
    private readonly headers: Record<string, string>,
    private readonly compress: boolean,
    /** Body bytes read and dropped at most after a cut. */
    private readonly maxBytes: number,
    /** Aborted when the client leaves before the answer is finished (ClientAbortedError). */
    private readonly signal: AbortSignal,
  ) {}

  /** Trailers to send after the last row (a CSV answer's time); announced in the headers' Trailer. */
  trailers: Record<string, string> = {};

  async write(text: string): Promise<void> {
    const res = this.res;
    if (res.destroyed) throw new ClientAbortedError();
    if (!res.headersSent) this.start();
    const target = this.gzip ?? res;
    if (!target.write(text)) await drained(target, res);
  }

  private start(): void {
    const res = this.res;
    res.status(200);
    for (const [name, value] of Object.entries(this.headers)) res.setHeader(name, value);
    if (!this.compress) return;
    res.setHeader("Content-Encoding", "gzip");
    const gz = createGzip({ level: GZIP_LEVEL, chunkSize: 64 * 1024 });
    gz.on("data", (out: Buffer) => {
      // A throw here (in zlib's event) would end the process: the answer is destroyed instead.
      try {
        if (!res.write(out)) gz.pause();
      } catch (err) {
        gz.destroy();
        res.destroy(err as Error);
      }
    });
    res.on("drain", () => gz.resume());
    this.gzip = gz;
  }

  /** The clean end: the last gzip bytes and the response's end; a client that leaves first rejects it (ClientAbortedError). */
  async end(): Promise<void> {
    const res = this.res;
    if (this.gzip !== undefined) {
      const gz = this.gzip;
      const ended = once(gz, "end");
      gz.end();
      await orAbort(ended, this.signal).catch((err: unknown) => {
        gz.destroy();
        throw err;
      });
    }
    if (res.hasHeader("Trailer")) res.addTrailers(this.trailers);
    res.end();
  }

  /**
   * The end of an answer cut short: what was written reaches the client (gzip flushed), then our side of the
   * connection closes without the chunked end, so the client sees a transfer that did not complete.
   */
  async cut(req: Request): Promise<void> {
    const res = this.res;
    const gz = this.gzip;
    if (gz !== undefined) {
      // Bounded by the response: a client that leaves ends the wait, one that stops reading is closed by the idle
      // timeout (BULK_IDLE_MS, still set while this runs).
      await orAbort(new Promise<void>((resolve) => gz.flush(zlib.Z_SYNC_FLUSH, () => resolve())), this.signal).catch(() => gz.destroy());
      while ((gz.isPaused() || gz.readableLength > 0) && !res.destroyed) await drained(res, res).catch(() => undefined);
    }
    const socket = req.socket;
    socket.end(); // pending writes first, then FIN; the body still coming is read and dropped (bounded)
    let read = 0;
    const stop = () => socket.destroy();
    const timer = setTimeout(stop, 5_000);
    timer.unref();
    req.unpipe();
    req.on("data", (c: Buffer) => {
      read += c.length;
      if (read > this.maxBytes) stop();
    });
    req.once("end", stop);
    socket.once("close", () => clearTimeout(timer));
    req.resume();
  }
}

export interface BulkDeps extends Pick<RouteContext, "drought" | "charge" | "freshness" | "bulkAdmission" | "metrics" | "logger"> {
  limits?: BulkLimits;
}

export function bulkHandler(deps: BulkDeps) {
  const limits = deps.limits ?? BULK_LIMITS;
  return async function bulk(req: Request, res: Response): Promise<void> {
    const input = bulkInputFormat(req.headers["content-type"]);
    const { decoder, coding } = decoderOf(req.headers["content-encoding"]);
    if (Number(req.headers["content-length"] ?? NaN) > limits.maxBytes) {
      res.setHeader("Connection", "close");
      throw tooLarge(limits.maxBytes);
    }
    const output: BulkFormat = wantsCsv(req, undefined) ? "csv" : "ndjson";
    // From here on, queued or streaming: the body is bound by the idle timeout, not REQUEST_TIMEOUT_MS (a request
    // waiting for its slot must not be cut by the 408), and a client that leaves aborts the work wherever it waits.
    const untime = untimeRequest(req.socket, BULK_IDLE_MS);
    const abort = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) abort.abort(new ClientAbortedError());
    };
    res.once("close", onClose);
    try {
      await deps.bulkAdmission.run(res, () => stream(req, res, input, output, { decoder, coding }, abort.signal));
    } finally {
      res.off("close", onClose);
      untime();
    }
  };

  async function stream(req: Request, res: Response, input: BulkFormat, output: BulkFormat, { decoder, coding }: { decoder: Transform; coding: string }, signal: AbortSignal): Promise<void> {
    // The client left while it waited for a slot: nothing to answer, the slot goes to the next one.
    if (signal.aborted || req.socket.destroyed) return;
    const scorer = scorerOf(deps.drought);
    const sink = new ResponseSink(res, {
      "Content-Type": `${BULK_OUTPUT_TYPES[output]}; charset=utf-8`,
      "Vary": "Accept, Accept-Encoding",
      "Cache-Control": "no-store",
      "X-Data-Version": scorer.dataVersion,
      ...(output === "csv" ? { "Content-Disposition": 'inline; filename="bulk.csv"' } : {}),
      // A CSV answer's time comes after its rows, as trailers (docs/api.md "CSV"; NDJSON has it in its end record):
      // only in a chunked transfer, which an HTTP/1.0 client without TE: chunked does not get (Node then refuses a
      // Trailer header at the first write).
      ...(output === "csv" && chunkedAnswer(res) ? { "Trailer": CSV_TIME_HEADERS.join(", ") } : {}),
    }, acceptsGzip(req.headers["accept-encoding"]), limits.maxBytes, signal);
    try {
      await runBulk({
        source: bodySource(req, decoder, coding),
        input,
        output,
        scorer,
        charge: (points) => deps.charge(req, res, points),
        sink,
        signal,
        limits,
        onScored: (rows) => deps.metrics.bulkRows(rows),
        onScoredAll: (from, to) => {
          if (output === "csv") sink.trailers = csvTimeHeaders(from === null || to === null ? null : scorer.time(from, to));
        },
        endFields: (from, to) => endFields(scorer, from, to),
      });
      await sink.end();
    } catch (err) {
      if (err instanceof BulkCutShort) return await sink.cut(req);
      if (signal.aborted || res.headersSent) {
        // A server fault after the rows began (not the client leaving) is logged: the client sees only a cut transfer.
        if (!signal.aborted && !(err instanceof ClientAbortedError)) deps.logger.error({ err, route: "/api/risk-map/bulk" }, "bulk answer failed after its first rows; connection closed");
        res.destroy();
        return;
      }
      // Answered in the envelope (the error handler): what is left of the body is read and dropped, within bounds.
      req.unpipe(decoder);
      decoder.destroy();
      discardRest(req, Math.ceil(limits.maxBytes / DISCARD_CAP_FACTOR), 0);
      throw err;
    }
  }

  /** The end record's fields: the stream's own version and the time of its rows' months, as the rows were scored. */
  function endFields(scorer: BatchScorer, from: string | null, to: string | null): Record<string, unknown> {
    const time = from === null || to === null ? null : scorer.time(from, to);
    return {
      dataVersion: scorer.dataVersion,
      ...(time === null ? { details: null, detailsReason: "no row has drought data" } : { details: time }),
      ...deps.freshness("drought"),
    };
  }
}

const BULK_DESCRIPTION =
  `Scores up to ${BULK_LIMITS.maxRows.toLocaleString("en")} points for drought in one request, streamed both ways. ` +
  `Body: text/csv with a header line naming lat and lng (lon also names lng; id optional, up to ${MAX_ID_LENGTH} characters; ` +
  "other columns ignored; a quoted field may not span lines), or application/x-ndjson, one JSON object {id?, lat, lng} per line " +
  "(other keys ignored). Empty lines are skipped. Content-Encoding gzip, deflate or br. " +
  `Limits: ${BULK_LIMITS.maxRows.toLocaleString("en")} rows, ${BULK_LIMITS.maxBytes / 2 ** 20} MiB decoded, ${MAX_LINE_BYTES} bytes a line (a longer row is answered with its reason). ` +
  "Answer: one row per input row, in input order, each the batch route's item with the same numbers (found, month, riskScore, riskLevel, severity, spei1; " +
  "found=false with a reason where a point has no data); a row that cannot be read (not a number, out of range, not JSON) gets found=false, null coordinates " +
  "and a reason naming its line, and the rest are scored. Accept: text/csv answers CSV with the batch CSV's columns " +
  "(id,lat,lng,month,found,riskScore,riskLevel,severity,spei1,reason), and after the last row the trailers X-Data-Period, X-Data-As-Of and X-Data-Current " +
  "(the found rows' time, as the batch CSV's headers; announced in the Trailer header); otherwise NDJSON, one batch item per line, and a last line " +
  '{"end": {"complete": true, "rows", "found", "notFound", "invalid", "dataVersion", "details", "stale", "staleSources"}}. gzip out when Accept-Encoding allows. ' +
  `Cost: 1 + ceil(n/10) rate-limit points for n rows, as a batch; a plan needs 1 + ceil(n/10) points in its window (RATE_LIMITS). ` +
  `The body is read ahead up to ${BULK_LIMITS.readAheadBytes / 2 ** 20} MiB before any row is scored: a body that ends within it is answered 413 (too many rows) or 429 (its whole cost over the budget) in the envelope before any scoring. ` +
  "A longer body is charged a block of rows at a time as it is read; a limit crossed after the first rows were sent (budget spent, too many rows, a body that stops decoding) " +
  'ends the answer with an error record — NDJSON {"end": {"complete": false, "rows", "error": {code, message, details}}}, CSV a row with an empty found and "CODE after N rows: message" as its reason — ' +
  "and the connection closes without the chunked end. A client that disconnects stops the work. One bulk admission slot per request (BULK_CONCURRENCY, BULK_QUEUE; 503 past them). " +
  `Not bound by REQUEST_TIMEOUT_MS: the connection is closed after ${BULK_IDLE_MS / 1000} s without a byte either way. ${POINT_MONTH_NOTE}`;

const csvBody = z.string().describe(`CSV with a header line: ${EXPECTED_COLUMNS.join(",")} (id optional)`);
const ndjsonBody = z.string().describe("one JSON object {id?, lat, lng} per line");

export const bulkRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/risk-map/bulk",
    auth: true,
    doc: () => ({
      operationId: "droughtBulk",
      summary: `Drought for up to ${BULK_LIMITS.maxRows.toLocaleString("en")} points in one streamed request (CSV or NDJSON)`,
      description: BULK_DESCRIPTION,
      requestBody: {
        required: true,
        content: {
          "text/csv": { schema: { type: "string", description: csvBody.description } },
          "application/x-ndjson": { schema: { type: "string", description: ndjsonBody.description } },
        },
      },
      responses: {
        "200": {
          description: "One row per input row, streamed (chunked); NDJSON ends with an end record",
          content: {
            "application/x-ndjson": { schema: { type: "string", description: "one batch item per line, then {\"end\": {...}}" } },
            "text/csv": { schema: { type: "string", description: "header id,lat,lng,month,found,riskScore,riskLevel,severity,spei1,reason, one row per input row" } },
          },
        },
        ...errorResponses(["400", "401", "405", "408", "413", "415", "417", "429", "431", "500", "503"], {
          "408": `REQUEST_TIMEOUT: headers not received within HEADERS_TIMEOUT_MS (the body is not bound by REQUEST_TIMEOUT_MS: ${BULK_IDLE_MS / 1000} s without a byte either way closes the connection)`,
          "400": "VALIDATION_ERROR: empty body (empty_body), a header line without lat and lng (missing_columns: details.expected, details.missing), a header but no rows (no_rows), a body that does not decode (corrupt_encoding)",
          "413": `PAYLOAD_TOO_LARGE: more than ${BULK_LIMITS.maxRows} rows (details.maxRows) or more than ${BULK_LIMITS.maxBytes} bytes once decoded (details.limitBytes)`,
          "415": `UNSUPPORTED_MEDIA_TYPE: Content-Type is not one of ${BULK_INPUT_TYPES.join(", ")}, or Content-Encoding not gzip, deflate, br or identity`,
          "429": "RATE_LIMIT_EXCEEDED: the budget cannot cover the first rows (or, for a body read ahead whole, all of them); Retry-After",
          "503": "SERVICE_UNAVAILABLE: data not loaded yet, or (reason overloaded, Retry-After) too many bulk requests at once",
        }),
      },
    }),
    handlers: (ctx) => [ctx.bulkAdmission.gate, bulkHandler(ctx)],
  },
];
