// HTTP plumbing (issue 26 item 6): each well-kept library against the hand-written code it replaced, or would have,
// side by side in one run: Accept-Encoding (negotiator), the tile cache (lru-cache), request bodies (body-parser's
// express.raw) and the security headers (helmet, set up to send exactly our two headers). The hand-written code is
// kept in bench/http-plumbing-reference.ts.
// In process: ns per call, median of 5 rounds, the two alternating. Over loopback: a tiny Express 5 app in its own
// process (this file with --serve), autocannon with 32 connections, 2 s a run, medians of 3 alternating rounds.
// Run: npx tsx bench/http-plumbing.bench.ts   (< 60 s; prints markdown; `make bench` collects it into bench/RESULTS.md)
import { spawn } from "node:child_process";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { gzipSync } from "node:zlib";
import express, { type RequestHandler } from "express";
import { PROJECT_ROOT } from "../lib/config.ts";
import { readJsonBody } from "../server/http/body.ts";
import { chooseEncoding } from "../server/http/respond.ts";
import { securityHeaders } from "../server/http/security-headers.ts";
import { createTileCache } from "../server/routes/tiles.ts";
import { applySecurityHeaders, chooseEncodingHandWritten, LruCacheHandWritten, readJsonBodyHandWritten } from "./http-plumbing-reference.ts";
import { load, median, thaiPoints } from "./http-load.ts";
import { rng } from "./random.ts";

const LIMIT = 64 * 1024;
const ROUNDS = 5;
const LOAD_ROUNDS = 3;
const LOAD_SECONDS = 2;

/** The tiny app: one route per variant, each answering "ok" after its plumbing. */
function serve(port: number): void {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  // The server's own CPU time and answers so far: CPU per request is steadier than req/s on a shared machine.
  let answered = 0;
  app.get("/cpu", (_req, res) => {
    const { user, system } = process.cpuUsage();
    res.json({ cpuUs: user + system, answered });
  });
  app.use((_req, res, next) => {
    res.on("finish", () => answered++);
    next();
  });
  const ok: RequestHandler = (_req, res) => void res.end("ok");
  const hand: RequestHandler = (_req, res, next) => {
    applySecurityHeaders(res);
    next();
  };
  app.get("/headers/none", ok);
  app.get("/headers/hand", hand, ok);
  app.get("/headers/helmet", securityHeaders, ok);
  const body = (read: (req: express.Request) => Promise<unknown>): RequestHandler => (req, res, next) => void read(req).then(() => res.end("ok"), next);
  app.post("/body/hand", body((req) => readJsonBodyHandWritten(req, LIMIT)));
  app.post("/body/lib", body((req) => readJsonBody(req, LIMIT)));
  app.listen(port, "127.0.0.1", () => process.stdout.write("ready\n"));
}

async function startApp(): Promise<{ base: string; stop(): Promise<void> }> {
  const port = 30000 + Math.floor(Math.random() * 20000);
  const proc = spawn(process.execPath, ["--import", "tsx", "bench/http-plumbing.bench.ts", "--serve", String(port)], { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
    proc.once("exit", (code) => reject(new Error(`bench app exited with ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => new Promise((res) => (proc.once("exit", () => res()), proc.kill("SIGTERM"))) };
}

/** ns per call of each of `fns` (n calls a round), medians of ROUNDS rounds in which they alternate. */
function perCall(n: number, fns: Record<string, (i: number) => unknown>): Record<string, number> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  let sink = 0;
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of Object.entries(fns)) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) if (fn(i) !== undefined) sink++;
      times[name].push(Number(process.hrtime.bigint() - t0) / n);
    }
  }
  if (sink < 0) throw new Error("unreachable");
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

/** The app's CPU µs per answered request under load of each variant, medians of LOAD_ROUNDS alternating rounds. */
async function cpuPerRequest(base: string, variants: Record<string, Parameters<typeof load>[1]>): Promise<Record<string, number>> {
  const got: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  const cpu = async () => (await (await fetch(base + "/cpu")).json()) as { cpuUs: number; answered: number };
  for (let r = 0; r < LOAD_ROUNDS; r++) {
    for (const [name, v] of Object.entries(variants)) {
      const before = await cpu();
      await load({ base, key: "" }, v, LOAD_SECONDS);
      const after = await cpu();
      got[name].push((after.cpuUs - before.cpuUs) / (after.answered - before.answered - 1));
    }
  }
  return Object.fromEntries(Object.entries(got).map(([k, v]) => [k, median(v)]));
}

const f1 = (x: number) => x.toFixed(1);

async function main(): Promise<void> {
  // In process.
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  const req = res.req;
  const noop = () => undefined;
  const headers = perCall(200_000, {
    hand: () => applySecurityHeaders(res),
    helmet: () => securityHeaders(req as express.Request, res as unknown as express.Response, noop),
  });
  const ACCEPTS = ["gzip, deflate, br, zstd", "gzip, deflate, br", "gzip", "br;q=1.0, gzip;q=0.8, *;q=0.1", "identity"];
  const encodings = perCall(200_000, {
    hand: (i) => chooseEncodingHandWritten(ACCEPTS[i % ACCEPTS.length]),
    negotiator: (i) => chooseEncoding(ACCEPTS[i % ACCEPTS.length]),
  });
  const keys = Array.from({ length: 8192 }, (_, i) => `20261126T000000Z/drought-spei3-2026-10/9/${400 + (i % 64)}/${230 + (i >> 6)}`);
  const tile = { bytes: Buffer.alloc(1500), etag: 'W/"x"', gzip: false };
  const hand = new LruCacheHandWritten<typeof tile>(4096, 64 * 1024 * 1024);
  const lib = createTileCache(4096, 64 * 1024 * 1024);
  for (let i = 0; i < 4096; i++) {
    hand.set(keys[i], tile, 1500 + keys[i].length + 64);
    lib.set(keys[i], tile);
  }
  const rand = rng(26);
  const hits = Array.from({ length: 65536 }, () => Math.floor(rand() * 4096));
  const mixed = Array.from({ length: 65536 }, () => Math.floor(rand() * 8192));
  const cacheHits = perCall(500_000, { hand: (i) => hand.get(keys[hits[i & 65535]]), "lru-cache": (i) => lib.get(keys[hits[i & 65535]]) });
  const cacheMixed = perCall(500_000, {
    hand: (i) => {
      const k = keys[mixed[i & 65535]];
      return hand.get(k) ?? hand.set(k, tile, 1500 + k.length + 64);
    },
    "lru-cache": (i) => {
      const k = keys[mixed[i & 65535]];
      return lib.get(k) ?? lib.set(k, tile);
    },
  });

  // Over loopback.
  const app = await startApp();
  const batch = JSON.stringify({ riskType: "drought", locations: thaiPoints(100) });
  const gz = gzipSync(batch);
  const headerRates = await cpuPerRequest(app.base, { none: { path: "/headers/none" }, hand: { path: "/headers/hand" }, helmet: { path: "/headers/helmet" } });
  const post = (path: string, body: string | Buffer, enc?: string): Parameters<typeof load>[1] => ({
    path,
    method: "POST",
    body: body as string, // autocannon sends a Buffer as it is
    headers: enc === undefined ? {} : { "content-encoding": enc },
  });
  const bodyRates = await cpuPerRequest(app.base, {
    hand: post("/body/hand", batch),
    lib: post("/body/lib", batch),
    handGzip: post("/body/hand", gz, "gzip"),
    libGzip: post("/body/lib", gz, "gzip"),
  });
  await app.stop();

  const h = headerRates;
  const b = bodyRates;
  process.stdout.write(`In process: ns per call, median of ${ROUNDS} alternating rounds. Over loopback: a tiny Express 5 app in its own process under autocannon (32 connections, ${LOAD_SECONDS} s a run) from this one, unpinned on the 2 cores; the app's own CPU time (process.cpuUsage) per answered request, medians of ${LOAD_ROUNDS} alternating rounds (steadier than req/s while other work shares the machine).

| piece | hand-written | library | library − hand-written |
|---|---|---|---|
| security headers, in process (ns per response) | ${f1(headers.hand)} | helmet ${f1(headers.helmet)} | ${f1(headers.helmet - headers.hand)} ns |
| security headers, loopback GET (app CPU µs per request; none at all: ${f1(h.none)}) | ${f1(h.hand)} | helmet ${f1(h.helmet)} | ${f1(h.helmet - h.hand)} µs |
| Accept-Encoding, in process (ns per header, 5 browser-like headers) | ${f1(encodings.hand)} | negotiator ${f1(encodings.negotiator)} | ${f1(encodings.negotiator - encodings.hand)} ns |
| tile cache hit, 4,096 tiles (ns per get) | ${f1(cacheHits.hand)} | lru-cache ${f1(cacheHits["lru-cache"])} | ${f1(cacheHits["lru-cache"] - cacheHits.hand)} ns |
| tile cache, half misses (get, set and evict; ns per op) | ${f1(cacheMixed.hand)} | lru-cache ${f1(cacheMixed["lru-cache"])} | ${f1(cacheMixed["lru-cache"] - cacheMixed.hand)} ns |
| batch-100 body (${batch.length} B) read and checked, loopback POST (app CPU µs per request) | ${f1(b.hand)} | body-parser ${f1(b.lib)} | ${f1(b.lib - b.hand)} µs |
| the same, gzip (${gz.length} B on the wire) | ${f1(b.handGzip)} | body-parser ${f1(b.libGzip)} | ${f1(b.libGzip - b.handGzip)} µs |
`);
}

if (process.argv[2] === "--serve") serve(Number(process.argv[3]));
else await main();
