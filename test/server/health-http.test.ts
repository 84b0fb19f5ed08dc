// The health listener (HEALTH_PORT, server/health/) speaks HTTP as the API port does (issue 39, item 5): a malformed
// request, oversized headers, a timeout or an unknown Expect answered in the error envelope with the API's headers,
// not Node's bare 400/431/417; idle keep-alive connections and slow headers closed after the API's timeouts, not
// Node's defaults (an idle connection was held 86 s). Raw sockets: fetch() cannot send these requests.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHealthServer } from "../../server/health/health-server.ts";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { DEFAULT_HTTP_TIMEOUTS } from "../../server/serve.ts";
import { silent, startTestServer, type TestServer } from "./helpers.ts";
import { waitForLine } from "./processes.ts";
import { envelopeOf, rawExchange, type RawAnswer } from "./raw-http.ts";

const SHORT = { requestTimeoutMs: 1_000, headersTimeoutMs: 500, keepAliveTimeoutMs: 300 };
const ok = () => ({ heartbeatAgeMs: 1, serving: 1 });

let api: TestServer;
let health: Server;
let healthPort: number;
beforeAll(async () => {
  api = await startTestServer();
  health = createHealthServer(ok, 5_000, SHORT, silent);
  await new Promise<void>((resolve) => health.listen(0, "127.0.0.1", resolve));
  healthPort = (health.address() as AddressInfo).port;
});
afterAll(async () => {
  await api.close();
  health.closeAllConnections();
  await new Promise((resolve) => health.close(resolve));
});

/** The headers an error answer must carry on both ports (the envelope's; Connection: close). */
const ERROR_HEADERS = ["content-type", "x-content-type-options", "content-security-policy", "connection", "access-control-allow-origin"];
const errorHeaders = (a: RawAnswer) => Object.fromEntries(ERROR_HEADERS.map((h) => [h, a.headers[h]]));

/** Milliseconds until the server closes an idle keep-alive connection after one GET /healthz, or undefined if not within `waitMs`. */
function idleClose(port: number, waitMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answeredAt = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(undefined);
    }, waitMs);
    socket.on("connect", () => socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
    socket.on("data", () => (answeredAt ||= performance.now()));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(answeredAt ? performance.now() - answeredAt : undefined);
    });
  });
}

describe("malformed requests on the health port", () => {
  const cases: [string, string, number, string][] = [
    ["a malformed request line", "NOT AN HTTP REQUEST\r\n\r\n", 400, "BAD_REQUEST"],
    ["a header without a colon", "GET /healthz HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n", 400, "BAD_REQUEST"],
    ["headers over 16 KB", `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431, "HEADERS_TOO_LARGE"],
  ];
  for (const [what, request, status, code] of cases) {
    it(`${what}: ${status} ${code} in the envelope with the API port's headers, then the connection closes`, async () => {
      const [h, a] = await Promise.all([rawExchange(healthPort, [request], { timeoutMs: 5_000 }), rawExchange(api.running.port, [request], { timeoutMs: 5_000 })]);
      expect([h.status, envelopeOf(h)?.code, h.closedByServer]).toEqual([status, code, true]);
      expect(envelopeOf(h)).toEqual(envelopeOf(a));
      expect(errorHeaders(h)).toEqual(errorHeaders(a));
      expect(errorHeaders(h)).toMatchObject({ "content-type": "application/json; charset=utf-8", "x-content-type-options": "nosniff", connection: "close" });
      expect(h.headers["content-length"]).toBe(String(Buffer.byteLength(h.body)));
    });
  }

  it("an Expect other than 100-continue is 417 EXPECTATION_FAILED in the envelope", async () => {
    const a = await rawExchange(healthPort, ["GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n"], { timeoutMs: 5_000 });
    expect([a.status, envelopeOf(a)?.code, a.headers["x-content-type-options"]]).toEqual([417, "EXPECTATION_FAILED", "nosniff"]);
  });

  it("headers sent too slowly are 408 REQUEST_TIMEOUT in the envelope after the headers timeout", async () => {
    const t0 = performance.now();
    const a = await rawExchange(healthPort, ["GET /healthz HTTP/1.1\r\nHost: x\r\n"], { timeoutMs: 5_000 });
    expect([a.status, envelopeOf(a)?.code, a.headers["x-content-type-options"], a.closedByServer]).toEqual([408, "REQUEST_TIMEOUT", "nosniff", true]);
    expect(performance.now() - t0).toBeLessThan(2_500);
  });

  it("a normal GET /healthz answers 200 with the API's security headers (nosniff, frame-ancestors 'none') and no-store", async () => {
    const a = await rawExchange(healthPort, ["GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"], { timeoutMs: 5_000 });
    expect([a.status, JSON.parse(a.body).data.status, a.headers["x-content-type-options"], a.headers["content-security-policy"], a.headers["cache-control"]]).toEqual([
      200,
      "ok",
      "nosniff",
      "frame-ancestors 'none'",
      "no-store",
    ]);
  });
});

describe("idle connections on the health port", () => {
  it("an idle keep-alive connection is closed after the keep-alive timeout (300 ms here, + Node's 1 s buffer), as on the API port", async () => {
    const ms = await idleClose(healthPort, 3_000);
    expect(ms).toBeDefined();
    expect(ms!).toBeGreaterThan(200);
    expect(ms!).toBeLessThan(2_500);
  });

  it("by default the health listener has the API port's timeouts", () => {
    const byDefault = createHealthServer(ok, 5_000);
    expect([byDefault.keepAliveTimeout, byDefault.headersTimeout, byDefault.requestTimeout]).toEqual([
      api.running.server.keepAliveTimeout,
      api.running.server.headersTimeout,
      api.running.server.requestTimeout,
    ]);
    expect([byDefault.keepAliveTimeout, byDefault.headersTimeout, byDefault.requestTimeout]).toEqual([
      DEFAULT_HTTP_TIMEOUTS.keepAliveTimeoutMs,
      DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs,
      DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs,
    ]);
  });
});

describe("the health thread (as main.ts starts it)", () => {
  // In a child process: the thread registers tsx's loader with import.meta.resolve, which vitest does not provide.
  let child: ChildProcess;
  afterAll(() => {
    child?.kill("SIGKILL");
  });

  it("answers a malformed request in the envelope and closes idle connections after the timeouts it was given", async () => {
    const dir = mkdtempSync(join(tmpdir(), "health-http-"));
    const script = join(dir, "thread.mts");
    writeFileSync(
      script,
      `import { startHealthThread } from ${JSON.stringify(join(PROJECT_ROOT, "server", "health", "health-thread.ts"))};
const h = await startHealthThread({ port: 0, host: "127.0.0.1", stallMs: 5000, timeouts: ${JSON.stringify(SHORT)} });
console.log("PORT " + h.port);
setInterval(() => {}, 1000);
`,
    );
    child = spawn(process.execPath, ["--import", "tsx", script], { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LOG_LEVEL: "silent" } });
    const port = Number((await waitForLine(child, /PORT (\d+)/, "the health port"))[1]);
    const a = await rawExchange(port, ["NOT AN HTTP REQUEST\r\n\r\n"], { timeoutMs: 5_000 });
    expect([a.status, envelopeOf(a)?.code, a.headers["x-content-type-options"]]).toEqual([400, "BAD_REQUEST", "nosniff"]);
    const ms = await idleClose(port, 3_000);
    expect(ms).toBeDefined();
    expect(ms!).toBeLessThan(2_500);
  });
});
