// Shared by the HTTP benches (api.bench.ts, http-pinned.bench.ts): the load generator (autocannon), inland Thai
// points, a bare Express baseline in its own process, and a published 1,000,000-cell synthetic version.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { PROJECT_ROOT } from "../lib/config.ts";
import { writeDroughtGrid } from "../formats/drought-grid.ts";
import { createStaging, publishStaging } from "../pipeline/publish/publish.ts";
import { readManifest } from "../formats/manifest.ts";
import { copyVersionExtras } from "./synthetic-grid.ts";
import { rng } from "./random.ts";
import { nodeCommand, type NodeCommand, type Started } from "./bench-server.ts";

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export /** Random points in the Khorat plateau and central plains (inland Thailand, so they all have data). */
function thaiPoints(n: number, seed = 1): { lat: number; lng: number }[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => ({ lat: 14.6 + r() * 2.6, lng: 99.5 + r() * 3.3 }));
}

export interface LoadRequest {
  path: string;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
}

/** Requests per second (autocannon's average) of `opts` for `seconds`, 32 connections; any non-2xx throws. */
export async function load(s: Pick<Started, "base" | "key">, opts: LoadRequest, seconds: number): Promise<number> {
  const r = await autocannon({
    url: s.base + opts.path,
    method: opts.method ?? "GET",
    body: opts.body,
    headers: { "x-api-key": s.key, "content-type": "application/json", ...opts.headers },
    connections: 32,
    pipelining: 1,
    duration: seconds,
  });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${opts.path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.average;
}

export /**
 * A bare Express 5 app in its own process that answers with fixed bytes (the service's own answers, captured), the
 * baseline of goal 1: our route against Express doing nothing but sending the same body. `sameMessages`: its server
 * builds requests and responses as ours does (server/http/express-messages.ts) instead of Node's own, so that Express's
 * per-request prototype change costs it nothing either: the baseline for what our route's own work costs.
 */
async function bareExpress(bodies: Record<string, { method: "get" | "post"; body: string; type: string }>, opts: NodeCommand & { sameMessages?: boolean } = {}): Promise<ExpressProcess> {
  const routes = Object.entries(bodies)
    .map(([path, b]) => `app.${b.method}(${JSON.stringify(path)}, (req, res) => { if (req.method === "POST") req.resume(); res.type(${JSON.stringify(b.type)}).send(${JSON.stringify(b.body)}); });`)
    .join("\n");
  const script = `import express from "express"; const app = express(); app.disable("x-powered-by"); app.set("etag", false);\n${routes}\n`;
  return expressProcess(script, "/", opts);
}

export interface ExpressProcess {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

/** The server's request and response classes (dist/, compiled by the benches' `make build`). */
const EXPRESS_MESSAGES = pathToFileURL(join(PROJECT_ROOT, "dist/server/http/express-messages.js")).href;

/**
 * Runs an Express app's module text (`app` defined, not listening) on a free port in its own process; ready once `probe`
 * answers. `sameMessages`: listens as our server does, with its request and response classes (bareExpress).
 */
async function expressProcess(script: string, probe: string, opts: NodeCommand & { sameMessages?: boolean }): Promise<ExpressProcess> {
  const port = 30000 + Math.floor(Math.random() * 20000);
  const listen = opts.sameMessages
    ? `const { createServer } = await import("node:http"); const { expressMessageClasses } = await import(${JSON.stringify(EXPRESS_MESSAGES)});\ncreateServer(expressMessageClasses(app), app).listen(${port}, "127.0.0.1");`
    : `app.listen(${port}, "127.0.0.1");`;
  const argv = ["--input-type=module", "-e", `${script}\n${listen}`];
  const [program, args] = nodeCommand(argv, opts);
  const proc = spawn(program, args, { cwd: PROJECT_ROOT, stdio: ["ignore", "inherit", "inherit"] });
  const base = `http://127.0.0.1:${port}`;
  let exited: number | null | undefined;
  proc.once("exit", (code) => (exited = code));
  const t0 = performance.now();
  for (;;) {
    if (exited !== undefined) throw new Error(`the Express process exited (code ${exited}) before it answered`);
    // Under valgrind the start takes minutes.
    if (performance.now() - t0 > (opts.wrap ? 900_000 : 60_000)) throw new Error("the Express process did not answer");
    try {
      await fetch(base + probe);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return { base, pid: proc.pid!, stop: () => new Promise((res) => (exited !== undefined ? res() : (proc.once("exit", () => res()), proc.kill("SIGTERM")))) };
}

export /**
 * The floor of an authenticated JSON answer: the bare Express route of bareExpress doing only the per-request work
 * every answer of ours must do (spec and issues 13, 24, 25), each the cheapest way — the API key's sha256 compared
 * with a stored hash in constant time, helmet's two security headers, the CORS, X-Data-Version and RateLimit-*
 * headers, a weak ETag (sha1 of the body) with Cache-Control and Vary, and a prom-client counter and histogram
 * observed on finish (labelled children looked up once). No routing table, rate limiter, validation, lookup or
 * serialisation. It listens as our server does (bareExpress's sameMessages); its rate against bareExpress's with
 * sameMessages is the most any route of ours could reach.
 */
async function floorExpress(path: string, body: string, key: string, opts: NodeCommand = {}): Promise<ExpressProcess> {
  const keyHash = createHash("sha256").update(key).digest("hex");
  // The server's own helmet middleware (dist/, compiled by the benches' `make build`): the same two headers, built once.
  const securityHeaders = pathToFileURL(join(PROJECT_ROOT, "dist/server/http/security-headers.js")).href;
  const script = `import express from "express"; import { securityHeaders } from ${JSON.stringify(securityHeaders)}; import { hash, timingSafeEqual } from "node:crypto"; import { Counter, Histogram, Registry } from "prom-client";
const body = ${JSON.stringify(body)}; const stored = Buffer.from(${JSON.stringify(keyHash)}, "hex");
const registry = new Registry();
const requests = new Counter({ name: "requests_total", help: "r", labelNames: ["method", "route", "status"], registers: [registry] }).labels("GET", ${JSON.stringify(path)}, "200");
const latency = new Histogram({ name: "latency_seconds", help: "l", labelNames: ["method", "route", "status"], registers: [registry] }).labels("GET", ${JSON.stringify(path)}, "200");
const app = express(); app.disable("x-powered-by"); app.set("etag", false);
app.use(securityHeaders);
app.get(${JSON.stringify(path)}, (req, res) => {
  const started = process.hrtime.bigint();
  const presented = req.headers["x-api-key"];
  if (typeof presented !== "string" || !timingSafeEqual(hash("sha256", presented, "buffer"), stored)) { res.status(401).end(); return; }
  res.setHeader("X-Data-Version", "v"); res.setHeader("Access-Control-Allow-Origin", "*"); res.setHeader("Access-Control-Expose-Headers", "X-Data-Version, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, ETag, X-Data-Period, X-Data-As-Of, X-Data-Current");
  res.setHeader("RateLimit-Limit", "1000000000"); res.setHeader("RateLimit-Remaining", "999999999"); res.setHeader("RateLimit-Reset", "60");
  res.on("finish", () => { requests.inc(); latency.observe(Number(process.hrtime.bigint() - started) / 1e9); });
  res.setHeader("Content-Type", "application/json; charset=utf-8"); res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("ETag", \`W/"\${hash("sha1", body, "base64url")}"\`); res.setHeader("Cache-Control", "no-cache");
  res.setHeader("Content-Length", String(Buffer.byteLength(body))); res.end(body);
});
`;
  return expressProcess(script, path, { ...opts, sameMessages: true });
}

export /** A published version whose grid has 1,000,000 cells (1000 × 1000 at 0.01°) and 24 months of 8 indices. */
async function syntheticMillion(artifacts: string): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), "bench-1m-"));
  const src = realpathSync(join(artifacts, "current"));
  const n = 1000;
  const nCells = n * n;
  const nMonths = 24;
  const names = ["spei1", "spei3", "spei6", "spei12", "spei24", "spi1", "spi3", "mcdi"];
  const lats = new Float64Array(nCells);
  const lngs = new Float64Array(nCells);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      lats[r * n + c] = 6 + (r + 0.5) * 0.01;
      lngs[r * n + c] = 97.5 + (c + 0.5) * 0.01;
    }
  }
  const values = new Float32Array(nCells * nMonths * names.length);
  const rand = rng(3);
  for (let i = 0; i < values.length; i++) values[i] = rand() * 4 - 2;
  const m = readManifest(src);
  const staging = createStaging(root, "synthetic-1m");
  const report = copyVersionExtras(src, staging.dir);
  writeFileSync(
    join(staging.dir, "drought-grid.bin"),
    writeDroughtGrid({
      firstMonth: 2018 * 12, nMonths, indexNames: names, baselineStart: 1961 * 12, baselineEnd: 1990 * 12 + 11, resolutionDeg: 0.01,
      cellIds: Uint32Array.from({ length: nCells }, (_, i) => i), cellLats: lats, cellLngs: lngs, countries: ["THA"],
      cellCountry: new Uint8Array(nCells), values,
    }),
  );
  const { manifestFormat: _f, version: _v, artifacts: _a, ...body } = m;
  // Not a stations grid: no confidence.bin of its cells (formats/version-files.ts asks one only of a stations grid).
  await publishStaging(staging, { ...body, report, qc: { ...m.qc, gridSource: "synthetic" }, latestValidMonth: "2019-12", monthRange: { first: "2018-01", last: "2019-12" } });
  return root;
}

