// POST /api/risk-map/bulk end to end: the real server over the published regional grid. The rows are checked
// against POST /api/risk-map/batch for the same points (byte for byte in CSV, item for item in NDJSON); bad bodies
// get the envelope (415, 400, 413, 429) before anything is scored (bulk_rows_scored_total does not move); a budget
// that runs out past the read-ahead ends the stream with an error row and no chunked end; a client
// that disconnects stops the scoring; a body trickling in for longer than REQUEST_TIMEOUT_MS is still answered.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { privateArtifacts, startRealServer, writeE2eKeys, type RealServer } from "./real-server.ts";

let server: RealServer;
let poorKey: string;
let midKey: string;

beforeAll(async () => {
  const keys = writeE2eKeys([{ id: "key_poor", plan: "poor" }, { id: "key_mid", plan: "mid" }]);
  poorKey = keys.extra.key_poor;
  midKey = keys.extra.key_mid;
  server = await startRealServer(privateArtifacts(inject("artifactsDir")).dir, {
    RATE_LIMITS: JSON.stringify({ enterprise: { points: 1_000_000, duration: 60 }, poor: { points: 20, duration: 60 }, mid: { points: 70_000, duration: 60 } }),
    // A bulk body may take longer than this; the batch route's may not. (2 s: 1 s cut the other tests' batches off
    // on a loaded machine.)
    REQUEST_TIMEOUT_MS: "2000",
    HEADERS_TIMEOUT_MS: "1600",
    // One bulk request at a time and none waiting: a request that kept its slot after its client left shows as 503.
    BULK_CONCURRENCY: "1",
    BULK_QUEUE: "0",
  }, keys);
}, 60_000);

afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

/** Seeded points: inland Thailand (found), a few outside the region and at sea. */
function points(n: number, seed = 1): { id: string; lat: number; lng: number }[] {
  let s = seed;
  const r = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  return Array.from({ length: n }, (_, i) => {
    if (i % 25 === 7) return { id: `p${i}`, lat: 48.85, lng: 2.35 };
    if (i % 25 === 13) return { id: `p${i}`, lat: 10.1, lng: 95.2 };
    return { id: `p${i}`, lat: Math.round((14.6 + r() * 2.6) * 1e5) / 1e5, lng: Math.round((99.5 + r() * 3.3) * 1e5) / 1e5 };
  });
}

const csvOf = (ps: { id: string; lat: number; lng: number }[]) => "id,lat,lng\n" + ps.map((p) => `${p.id},${p.lat},${p.lng}`).join("\n") + "\n";
const ndjsonOf = (ps: { id: string; lat: number; lng: number }[]) => ps.map((p) => JSON.stringify(p)).join("\n") + "\n";

function bulk(body: string, headers: Record<string, string>, key = server.key) {
  return fetch(server.base + "/api/risk-map/bulk", { method: "POST", headers: { "x-api-key": key, ...headers }, body });
}

function batch(ps: { id: string; lat: number; lng: number }[], format: "json" | "csv") {
  return fetch(server.base + "/api/risk-map/batch", {
    method: "POST",
    headers: { "x-api-key": server.key, "content-type": "application/json" },
    body: JSON.stringify({ riskType: "drought", format, locations: ps }),
  });
}

async function scored(): Promise<number> {
  const text = await (await fetch(server.base + "/metrics")).text();
  const m = /^bulk_rows_scored_total (\d+)/m.exec(text);
  return m === null ? 0 : Number(m[1]);
}

describe("POST /api/risk-map/bulk", () => {
  const ps = points(100);

  it("CSV in, CSV out: the batch route's CSV byte for byte", async () => {
    const [b, r] = await Promise.all([batch(ps, "csv"), bulk(csvOf(ps), { "content-type": "text/csv", accept: "text/csv" })]);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(r.headers.get("x-data-version")).toBe(b.headers.get("x-data-version"));
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    const text = await r.text();
    expect(text).toBe(await b.text());
    expect(text.split("\n").filter((l) => l.includes(",true,")).length).toBeGreaterThan(80);
    // The batch CSV's time in headers, as its JSON answer's details; the bulk CSV announces the same as trailers.
    const details = ((await (await batch(ps, "json")).json()) as { data: { details: { period: { from: string; to: string }; asOf: string; currency: { current: boolean } } } }).data.details;
    expect([b.headers.get("x-data-period"), b.headers.get("x-data-as-of"), b.headers.get("x-data-current")]).toEqual([`${details.period.from}/${details.period.to}`, details.asOf, String(details.currency.current)]);
    expect(r.headers.get("trailer")).toBe("X-Data-Period, X-Data-As-Of, X-Data-Current");
  });

  it("NDJSON in, NDJSON out: the batch items, then an end record with the counts, version and time of the batch", async () => {
    const [b, r] = await Promise.all([batch(ps, "json"), bulk(ndjsonOf(ps), { "content-type": "application/x-ndjson" })]);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    const lines = (await r.text()).trim().split("\n").map((l) => JSON.parse(l));
    const want = ((await b.json()) as { data: { results: unknown[]; details: unknown } }).data;
    expect(lines.slice(0, -1)).toEqual(want.results);
    const end = lines.at(-1).end;
    expect(end).toMatchObject({ complete: true, rows: 100, found: 92, notFound: 8, invalid: 0, dataVersion: r.headers.get("x-data-version"), details: want.details });
    expect(end).toHaveProperty("stale");
  });

  it("takes gzip in and gives gzip out when Accept-Encoding allows", async () => {
    const plain = await (await bulk(csvOf(ps), { "content-type": "text/csv", accept: "text/csv" })).text();
    const r = await new Promise<{ res: IncomingMessage; body: Buffer }>((resolve, reject) => {
      const req = httpRequest(server.base + "/api/risk-map/bulk", {
        method: "POST",
        headers: { "x-api-key": server.key, "content-type": "text/csv", "content-encoding": "gzip", accept: "text/csv", "accept-encoding": "gzip" },
      });
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ res, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end(gzipSync(csvOf(ps)));
    });
    expect(r.res.statusCode).toBe(200);
    expect(r.res.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(r.body).toString()).toBe(plain);
    // After the last row: the CSV answer's time as trailers, those of the batch CSV of the same points.
    const b = await batch(ps, "csv");
    expect(r.res.trailers).toEqual({ "x-data-period": b.headers.get("x-data-period"), "x-data-as-of": b.headers.get("x-data-as-of"), "x-data-current": b.headers.get("x-data-current") });
    expect(r.res.trailers["x-data-current"]).toMatch(/^(true|false)$/);
  });

  it("answers an HTTP/1.0 client (no chunked transfer, so no trailers) with and without gzip, and keeps serving", async () => {
    const body = csvOf(ps.slice(0, 10));
    const raw = (extra: string) =>
      new Promise<Buffer>((resolve, reject) => {
        const { hostname, port } = new URL(server.base);
        const socket = connect(Number(port), hostname, () => {
          // Written, not ended: a client that half-closes is taken for gone (Node aborts the request).
          socket.write(`POST /api/risk-map/bulk HTTP/1.0\r\nHost: ${hostname}\r\nX-API-Key: ${server.key}\r\nContent-Type: text/csv\r\nAccept: text/csv\r\n${extra}Content-Length: ${body.length}\r\n\r\n${body}`);
        });
        const chunks: Buffer[] = [];
        socket.on("data", (c: Buffer) => chunks.push(c));
        socket.on("close", () => resolve(Buffer.concat(chunks)));
        socket.on("error", reject);
      });
    const want = await (await bulk(body, { "content-type": "text/csv", accept: "text/csv" })).text();
    for (const extra of ["", "Accept-Encoding: gzip\r\n"]) {
      const answer = await raw(extra);
      const split = answer.indexOf("\r\n\r\n");
      const head = answer.subarray(0, split).toString("latin1");
      expect(head, head).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(head.toLowerCase()).not.toContain("trailer:");
      const payload = answer.subarray(split + 4);
      expect((extra === "" ? payload : gunzipSync(payload)).toString()).toBe(want);
    }
    expect((await fetch(server.base + "/healthz")).status).toBe(200);
  });

  it("answers a malformed row in its own row with its reason and scores the rest", async () => {
    const body = "id,lat,lng,name\na,15.1,101.2,x\nb,abc,101\n\nc,95,101\n\"d,1\",15.2,101.3,\"q, r\"\n";
    const r = await bulk(body, { "content-type": "text/csv", accept: "text/csv" });
    expect(r.status).toBe(200);
    const rows = (await r.text()).trim().split("\n");
    expect(rows).toHaveLength(5);
    expect(rows[1]).toMatch(/^a,15\.1,101\.2,\d{4}-\d\d,true,/);
    expect(rows[2]).toBe('b,,,,false,,,,,"line 3: lat must be a number from -90 to 90, got ""abc"""');
    expect(rows[3]).toBe('c,,,,false,,,,,"line 5: lat must be a number from -90 to 90, got ""95"""');
    expect(rows[4]).toMatch(/^"d,1",15\.2,101\.3,\d{4}-\d\d,true,/);
  });

  it("refuses a body that is neither CSV nor NDJSON (415), a header without lat/lng (400 naming them) and an empty body (400)", async () => {
    const before = await scored();
    const json = await bulk(JSON.stringify({ locations: ps }), { "content-type": "application/json" });
    expect(json.status).toBe(415);
    expect(await json.json()).toMatchObject({ success: false, error: { code: "UNSUPPORTED_MEDIA_TYPE", details: { supported: ["text/csv", "application/x-ndjson", "application/ndjson"] } } });
    const header = await bulk("id,latitude,longitude\n1,15,101\n", { "content-type": "text/csv" });
    expect(header.status).toBe(400);
    const h = (await header.json()) as { error: { message: string; details: unknown } };
    expect(h.error.message).toContain("lat and lng");
    expect(h.error.details).toMatchObject({ reason: "missing_columns", expected: ["id", "lat", "lng"], missing: ["lat", "lng"] });
    const empty = await bulk("", { "content-type": "application/x-ndjson" });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: { code: "VALIDATION_ERROR", details: { reason: "empty_body" } } });
    expect(await scored()).toBe(before);
  });

  it("answers 1,000,001 rows with 413 in the envelope before scoring any", async () => {
    const before = await scored();
    const body = "lat,lng\n" + "0,0\n".repeat(1_000_001);
    const r = await bulk(body, { "content-type": "text/csv" });
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({
      success: false,
      error: { code: "PAYLOAD_TOO_LARGE", message: "More than 1000000 rows; split the body into requests of at most 1000000 rows", details: { maxRows: 1_000_000 } },
    });
    expect(await scored()).toBe(before);
  });

  it("answers 429 when the plan's budget cannot cover the rows (1 + ceil(n/10) points), before scoring any", async () => {
    // 100 rows cost 1 + 10 points: within the 20.
    const ok = await bulk(csvOf(points(100)), { "content-type": "text/csv" }, poorKey);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("ratelimit-remaining")).toBe("9");
    await ok.text();
    const before = await scored();
    const r = await bulk(csvOf(points(100)), { "content-type": "text/csv" }, poorKey);
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await r.json()).toMatchObject({ success: false, error: { code: "RATE_LIMIT_EXCEEDED" } });
    expect(await scored()).toBe(before);
  });

  it("ends a stream whose budget runs out after the read-ahead with an error row and an unclean end", async () => {
    // 800,000 rows (21 MB) on a plan of 70,000 points: the ~620,000 rows of the 16 MiB read-ahead are affordable and
    // charged at once; past them, blocks of 1,024 rows are charged and scored until the budget is spent.
    const rows = 800_000;
    let body = "id,lat,lng\n";
    for (let i = 0; i < rows; i++) body += `p${i},${(14.6 + (i % 997) * 0.0026).toFixed(5)},${(99.5 + (i % 991) * 0.0033).toFixed(5)}\n`;
    expect(body.length).toBeGreaterThan(16 * 2 ** 20);
    const before = await scored();
    const r = await new Promise<{ res: IncomingMessage; text: string; complete: boolean }>((resolve, reject) => {
      const req = httpRequest(server.base + "/api/risk-map/bulk", { method: "POST", headers: { "x-api-key": midKey, "content-type": "text/csv", accept: "text/csv" } });
      req.on("response", (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("close", () => resolve({ res, text, complete: res.complete }));
      });
      req.on("error", reject);
      req.end(body);
    });
    expect(r.res.statusCode).toBe(200);
    expect(r.complete).toBe(false); // no chunked end: a client sees the transfer cut
    const lines = r.text.trimEnd().split("\n");
    const data = lines.slice(1, -1);
    const last = lines.at(-1)!;
    const m = /^,,,,,,,,,"?RATE_LIMIT_EXCEEDED after (\d+) rows: Request quota exceeded for the plan"?$/.exec(last);
    expect(m, last).not.toBeNull();
    const sent = Number(m![1]);
    expect(data.length).toBe(sent);
    // Whole blocks, as many as 69,999 points pay for (1 + ceil(n/10) ≤ 70,000), in input order.
    expect(sent % 1024).toBe(0);
    expect(sent).toBe(Math.floor(699_990 / 1024) * 1024);
    expect(data[0].startsWith("p0,")).toBe(true);
    expect(data.at(-1)!.startsWith(`p${sent - 1},`)).toBe(true);
    // The rows scored are those sent.
    expect((await scored()) - before).toBe(sent);
  });

  it("round-trips 50,000 rows in order", async () => {
    const many = points(50_000, 5);
    const r = await bulk(ndjsonOf(many), { "content-type": "application/x-ndjson" });
    expect(r.status).toBe(200);
    const lines = (await r.text()).trim().split("\n");
    expect(lines).toHaveLength(50_001);
    for (let i = 0; i < many.length; i += 997) expect(JSON.parse(lines[i])).toMatchObject({ id: many[i].id, lat: many[i].lat, lng: many[i].lng });
    expect(JSON.parse(lines[50_000])).toMatchObject({ end: { complete: true, rows: 50_000 } });
  });

  it("stops scoring when the client disconnects, and gives its admission slot back", async () => {
    const before = await scored();
    const row = "x,15.12345,101.12345\n";
    let sent = 0;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(server.base + "/api/risk-map/bulk", { method: "POST", headers: { "x-api-key": server.key, "content-type": "text/csv", accept: "text/csv" } });
      req.on("error", () => undefined);
      // 20 MB of rows, written as the server takes them (more than the 16 MiB read ahead).
      const write = () => {
        while (sent < 1_000_000) {
          const ok = req.write((sent === 0 ? "id,lat,lng\n" : "") + row.repeat(1000));
          sent += 1000;
          if (!ok) return void req.once("drain", write);
        }
        req.end();
      };
      write();
      req.on("response", (res) => {
        let got = 0;
        res.on("data", (c: Buffer) => {
          got += c.length;
          if (got > 1_000_000) {
            req.destroy();
            resolve();
          }
        });
        res.on("error", () => undefined);
      });
      setTimeout(() => reject(new Error("no answer in 30 s")), 30_000).unref();
    });
    await new Promise((r) => setTimeout(r, 500));
    const stopped = (await scored()) - before;
    await new Promise((r) => setTimeout(r, 1000));
    expect((await scored()) - before).toBe(stopped);
    expect(stopped).toBeGreaterThan(10_000);
    expect(stopped).toBeLessThan(1_000_000);
    // Its slot is free again.
    const next = await bulk(csvOf(points(10)), { "content-type": "text/csv" });
    expect(next.status).toBe(200);
    await next.text();
  });

  it("is not cut off by REQUEST_TIMEOUT_MS while its body trickles in (2 s here), where a batch is", async () => {
    const send = (path: string, type: string, parts: string[]) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(server.base + path, { method: "POST", headers: { "x-api-key": server.key, "content-type": type } });
        req.on("response", (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode!));
        });
        req.on("error", reject);
        let i = 0;
        const next = () => {
          if (i === parts.length) return void req.end();
          req.write(parts[i++]);
          setTimeout(next, 350);
        };
        next();
      });
    const rows = ["id,lat,lng\n", ...points(6).map((p) => `${p.id},${p.lat},${p.lng}\n`)];
    expect(await send("/api/risk-map/bulk", "text/csv", rows)).toBe(200);
    const json = JSON.stringify({ riskType: "drought", locations: points(10) });
    // 8 slices 350 ms apart: 2.8 s, past the 2 s (the bulk body above takes 2.45 s).
    const slices = Array.from({ length: 8 }, (_, i) => json.slice((i * json.length) / 8, ((i + 1) * json.length) / 8));
    expect(await send("/api/risk-map/batch", "application/json", slices)).toBe(408);
  });
});
