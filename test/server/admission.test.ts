// Admission control of heavy requests (issue 24). Through a running server: past `concurrency` running and `queue`
// waiting, a batch is 503 SERVICE_UNAVAILABLE with Retry-After in the envelope, and /healthz still answers. In
// process: the admitted tasks run one turn of the event loop apart, so light work that arrived meanwhile (a
// /healthz) runs between heavy ones instead of after the whole queue.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Admission } from "../../server/http/admission.ts";
import type { Response } from "express";
import { get, postJson, startTestServer, type TestServer } from "./helpers.ts";

const BATCHES = 10;
/** How long an admitted batch waits at most for the burst to have arrived (a stop for a hang, not a timing). */
const HOLD_LIMIT_MS = 30_000;

let s: TestServer;
beforeAll(async () => {
  // The batch's second charge (its size) is held until every batch of the burst has passed the entry gate (its
  // 1-point charge, before admission): the admitted batch keeps its slot meanwhile, whatever the machine's load
  // does to the requests' arrival (a fixed 300 ms hold let a fourth batch in on a busy machine).
  let arrived = 0;
  let allIn = () => {};
  const allArrived = new Promise<void>((resolve) => (allIn = resolve));
  s = await startTestServer({
    admission: { concurrency: 1, queue: 2, retryAfterSeconds: 1 },
    wrapLimiter: (l) => ({
      store: l.store,
      consume: async (id, plan, points) => {
        if (points === 1 && ++arrived === BATCHES) allIn();
        if (points > 1) await Promise.race([allArrived, new Promise((r) => setTimeout(r, HOLD_LIMIT_MS))]);
        return l.consume(id, plan, points);
      },
    }),
  });
});
afterAll(() => s.close());

const batch = (n: number) => ({ riskType: "drought", locations: Array.from({ length: n }, (_, i) => ({ lat: 13 + i / 1000, lng: 100.5 })) });

describe("admission of batch requests", () => {
  it("past the running and waiting limits a batch is 503 with Retry-After in the envelope; /healthz answers meanwhile", async () => {
    const batches = Array.from({ length: BATCHES }, () =>
      postJson(s.base, "/api/risk-map/batch", batch(100), s.key).then(async (r) => ({ status: r.status, retryAfter: r.headers.get("retry-after"), type: r.headers.get("content-type"), body: await r.json() })),
    );
    await new Promise((r) => setTimeout(r, 50));
    const health = await get(s.base, "/healthz", undefined);
    expect(health.status).toBe(200);
    const answers = await Promise.all(batches);
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(3).fill(200), ...Array(BATCHES - 3).fill(503)]);
    for (const a of answers.filter((x) => x.status === 503)) {
      expect([a.retryAfter, a.type]).toEqual(["1", "application/json; charset=utf-8"]);
      expect(a.body.error).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { reason: "overloaded", retryAfterSeconds: 1, concurrency: 1, queue: 2 } });
    }
  });

  it("takes batches again once the burst is over", async () => {
    expect((await postJson(s.base, "/api/risk-map/batch", batch(1), s.key)).status).toBe(200);
  });
});

describe("Admission", () => {
  it("runs queued tasks one event-loop turn apart: a timer due meanwhile runs between them", async () => {
    const admission = new Admission("test", { concurrency: 1, queue: 10, retryAfterSeconds: 1 });
    const res = { setHeader: () => res } as unknown as Response;
    const order: string[] = [];
    const busy = (name: string) => () => {
      const until = performance.now() + 20;
      while (performance.now() < until);
      order.push(name);
    };
    const tasks = ["a", "b", "c"].map((n) => admission.run(res, busy(n)));
    setTimeout(() => order.push("light"), 0);
    await Promise.all(tasks);
    // Without the turn between tasks, all three would run in one chain of microtasks and the timer after them.
    expect(order.filter((x) => x !== "light")).toEqual(["a", "b", "c"]);
    expect(order.indexOf("light")).toBeGreaterThan(-1);
    expect(order.indexOf("light")).toBeLessThan(order.indexOf("c"));
  });
});
