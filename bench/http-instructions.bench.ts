// Instructions a GET drought costs the server (issue 38), counted by valgrind's callgrind: the same count for the
// same build and requests whatever else this machine does, where req/s moves ±5–30 % with the host's load. Each row
// runs one server (core 0) under callgrind, loads it with WARM requests (autocannon, core 1, 8 connections), zeroes
// the counters, sends MEASURED more and divides the instructions of every thread of the process (JIT code, GC, Node's
// C++) by MEASURED. The window is long enough to hold the old generation's collections of a server that promotes a
// few KB a request (a bare route as Node builds requests, and ours before the prototype change), not only its
// scavenges. Kernel time (syscalls, page faults) is not counted: the pinned bench (http-pinned.bench.ts) measures time.
// Rows: a bare Express route sending the same bytes, as Node builds requests and as our server does
// (server/http/express-messages.ts); the floor (http-load.ts floorExpress); our server.
// Run: npx tsx bench/http-instructions.bench.ts [--requests N]   (needs valgrind and published artifacts; ~10 min)
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { artifactsDir as defaultArtifactsDir, PROJECT_ROOT } from "../lib/config.ts";
import { pinSelf, startServer } from "./bench-server.ts";
import { bareExpress, floorExpress } from "./http-load.ts";

const argRequests = process.argv.indexOf("--requests");
const MEASURED = argRequests > 0 ? Number(process.argv[argRequests + 1]) : 20_000;
const WARM = 6_000;
if (!Number.isInteger(MEASURED) || MEASURED < 1) throw new Error("--requests must be a positive integer");
const ARTIFACTS = process.env.ARTIFACTS_DIR ?? defaultArtifactsDir();
const DROUGHT = "/api/risk-map/drought?lat=15.2&lng=102.1";
// valgrind names its control pipes after $HOST; the servers and callgrind_control must see the same (startServer sets
// HOST=127.0.0.1 for our server; the bare routes and callgrind_control inherit this).
process.env.HOST = "127.0.0.1";

interface Target {
  base: string;
  pid: number;
  /** The API key it accepts: our server makes its own; the floor checks the one it was given; the bare routes ignore it. */
  key?: string;
  stop(): Promise<void>;
}

/** Sends `amount` GET drought requests; any non-2xx throws. */
async function send(base: string, key: string, amount: number): Promise<void> {
  const r = await autocannon({ url: base + DROUGHT, headers: { "x-api-key": key }, connections: 8, amount });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${base}: ${r.non2xx} non-2xx, ${r.errors} errors`);
}

/** Runs callgrind_control on the process; it exits 0 even when it found no callgrind run, so its "OK." is checked. */
function control(flag: "-z" | "-d", pid: number): void {
  const said = execFileSync("callgrind_control", [flag, String(pid)], { encoding: "utf8" });
  if (!/\bOK\./.test(said)) throw new Error(`callgrind_control ${flag} ${pid}: ${said.trim()}`);
}

/** Instructions a request over MEASURED requests after WARM, from the dump callgrind writes on request. */
async function count(what: string, start: (wrap: string[]) => Promise<Target>, givenKey: string, dir: string): Promise<{ what: string; perRequest: number }> {
  const name = what.replace(/\W+/g, "-");
  const out = join(dir, name);
  process.stderr.write(`${what}: starting under callgrind…\n`);
  const t = await start(["valgrind", "-q", "--tool=callgrind", `--callgrind-out-file=${out}`]);
  try {
    const key = t.key ?? givenKey;
    await send(t.base, key, WARM);
    control("-z", t.pid);
    await send(t.base, key, MEASURED);
    control("-d", t.pid);
  } finally {
    await t.stop();
  }
  // Dumps on request are numbered out.1, out.2, …; the one the process wrote at exit is `out` itself.
  const dumps = readdirSync(dir).filter((f) => f.startsWith(`${name}.`));
  if (dumps.length !== 1) throw new Error(`${what}: expected one callgrind dump, found ${dumps.length}`);
  const summary = /^summary: (\d+)/m.exec(readFileSync(join(dir, dumps[0]), "utf8"));
  if (summary === null) throw new Error(`${what}: no summary line in the callgrind dump`);
  const perRequest = Number(summary[1]) / MEASURED;
  process.stderr.write(`${what}: ${Math.round(perRequest)} instructions a request\n`);
  return { what, perRequest };
}

async function main() {
  if (spawnSync("valgrind", ["--version"]).status !== 0) throw new Error("valgrind is not installed (Debian package valgrind)");
  const built = spawnSync("make", ["-s", "build"], { cwd: PROJECT_ROOT, stdio: "inherit" });
  if (built.status !== 0) throw new Error("make build failed");
  pinSelf("1");
  const dir = mkdtempSync(join(tmpdir(), "bench-callgrind-"));
  // The answer the bare routes send: our server's own, captured once (not under valgrind).
  const plain = await startServer(ARTIFACTS, {}, { cpu: "0" });
  const key = plain.key;
  const res = await fetch(plain.base + DROUGHT, { headers: { "x-api-key": key } });
  if (res.status !== 200) throw new Error(`GET drought: ${res.status}`);
  const body = await res.text();
  await plain.stop();
  const bodies = { "/api/risk-map/drought": { method: "get" as const, body, type: "application/json" } };
  const rows = [
    await count("a bare Express route sending the same bytes (Node's request objects)", (wrap) => bareExpress(bodies, { cpu: "0", wrap }), key, dir),
    await count("that bare route listening as our server does (server/http/express-messages.ts)", (wrap) => bareExpress(bodies, { cpu: "0", wrap, sameMessages: true }), key, dir),
    await count("the floor (that route doing the work every authenticated answer must)", (wrap) => floorExpress(DROUGHT.split("?")[0], body, key, { cpu: "0", wrap }), key, dir),
    await count("our server, GET /api/risk-map/drought", (wrap) => startServer(ARTIFACTS, {}, { cpu: "0", wrap }), key, dir),
  ];
  rmSync(dir, { recursive: true, force: true });
  const ours = rows[rows.length - 1].perRequest;
  console.log(`callgrind, ${MEASURED.toLocaleString("en")} requests after ${WARM.toLocaleString("en")} (8 connections), every thread of the server counted.

| server | instructions a request | ours against it by instructions (its ÷ ours, as a req/s ratio reads) |
|---|---|---|
${rows.map((r) => `| ${r.what} | ${Math.round(r.perRequest).toLocaleString("en")} | ${(r.perRequest / ours).toFixed(2)} |`).join("\n")}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
