// The error handler's last resort: what is a fault of the server (logged, 500 in the envelope) and what is not.
import type { NextFunction, Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { errorHandler } from "../../server/http/error-handler.ts";
import type { Logger } from "../../lib/log.ts";

function harness() {
  const logged: unknown[] = [];
  const logger = { error: (...a: unknown[]) => logged.push(a), warn: () => {}, info: () => {}, debug: () => {} } as unknown as Logger;
  const state = { destroyed: false, status: 0, body: "" };
  const res = {
    headersSent: false,
    destroy: () => void (state.destroyed = true),
    setHeader: () => res,
    getHeader: () => undefined,
    status: (n: number) => ((state.status = n), res),
    end: (b?: string) => void (state.body = b ?? ""),
    send: (b?: string) => void (state.body = b ?? ""),
  } as unknown as Response;
  const req = { method: "GET", path: "/api/risk-map/drought/exports/drought-cells.csv.gz", headers: {}, get: () => undefined } as unknown as Request;
  return { handle: (err: unknown) => errorHandler(logger)(err, req, res, (() => {}) as NextFunction), logged, state };
}

describe("errorHandler", () => {
  it("a download the client aborted (Express's ECONNABORTED 'Request aborted'): no error log, no answer, the socket closed", () => {
    const h = harness();
    const err = Object.assign(new Error("Request aborted"), { code: "ECONNABORTED" });
    h.handle(err);
    expect(h.logged).toEqual([]);
    expect(h.state).toMatchObject({ destroyed: true, status: 0 });
  });
});
