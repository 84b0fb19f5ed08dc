// A bulk request waiting for its admission slot: a client that leaves while queued gives the slot back at once, and
// a queued request whose body is still trickling in is bound by the bulk idle timeout, not by REQUEST_TIMEOUT_MS (a
// 408 while queued closed its socket and left its task holding the slot when it ran).
import { request as httpRequest, type ClientRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { privateArtifacts, startRealServer, writeE2eKeys, type RealServer } from "./real-server.ts";

let server: RealServer;

beforeAll(async () => {
  server = await startRealServer(privateArtifacts(inject("artifactsDir")).dir, {
    REQUEST_TIMEOUT_MS: "1000",
    HEADERS_TIMEOUT_MS: "800",
    BULK_CONCURRENCY: "1",
    BULK_QUEUE: "2",
  }, writeE2eKeys([]));
}, 60_000);

afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

const ROW = "15.2,102.1\n";

/** A bulk request left open: its status and body once it is answered (status 0 if the connection failed). */
function open(): { req: ClientRequest; answer: Promise<{ status: number; body: string }> } {
  const req = httpRequest(server.base + "/api/risk-map/bulk", { method: "POST", headers: { "x-api-key": server.key, "content-type": "text/csv", accept: "text/csv" } });
  const answer = new Promise<{ status: number; body: string }>((resolve) => {
    req.on("error", () => resolve({ status: 0, body: "" }));
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
      res.on("error", () => resolve({ status: res.statusCode!, body }));
    });
  });
  req.write("lat,lng\n");
  return { req, answer };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("bulk requests waiting for a slot", () => {
  it("a queued client that leaves frees its place; a queued body trickling past REQUEST_TIMEOUT_MS is answered", async () => {
    const a = open(); // takes the one slot and keeps it while its body stays open
    a.req.write(ROW);
    await sleep(300);
    const b = open(); // queued, then gone
    b.req.write(ROW);
    await sleep(200);
    b.req.destroy();
    const c = open(); // queued; its body trickles in for 1.8 s, past REQUEST_TIMEOUT_MS
    for (let i = 0; i < 6; i++) {
      c.req.write(ROW);
      await sleep(300);
    }
    c.req.end();
    a.req.end();
    const [ra, rc] = await Promise.all([a.answer, c.answer]);
    expect(ra.status).toBe(200);
    expect(ra.body.trim().split("\n")).toHaveLength(2);
    expect(rc.status).toBe(200);
    expect(rc.body.trim().split("\n")).toHaveLength(7); // the header and six rows
    // The slot is free: a new request is answered, not kept waiting or refused.
    const d = open();
    d.req.end(ROW);
    const rd = await Promise.race([d.answer, sleep(5000).then(() => ({ status: -1, body: "" }))]);
    expect(rd.status).toBe(200);
  }, 30_000);
});
