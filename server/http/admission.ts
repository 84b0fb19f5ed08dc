// Admission control for heavy requests (batch POST, export downloads, tiles rendered on request): at most
// `concurrency` run at once and at most `queue` wait; past that the answer is 503 SERVICE_UNAVAILABLE with
// Retry-After, before the body is read. A waiting request starts one turn of the event loop after a slot frees
// (setImmediate), so the light requests that arrived meanwhile (/healthz, pings) are answered between heavy ones
// instead of after the whole queue. One Admission per class of heavy work; limits per server process.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { NextFunction, Request, Response } from "express";
import pLimit, { type LimitFunction } from "p-limit";
import { intSetting } from "../../lib/config.ts";
import { ApiError } from "../errors.ts";

export interface AdmissionLimits {
  /** Heavy requests of one class running at once (ADMISSION_CONCURRENCY). */
  concurrency: number;
  /** Heavy requests of one class waiting for a slot (ADMISSION_QUEUE); past it, 503. */
  queue: number;
  /** Retry-After of the 503, seconds (ADMISSION_RETRY_AFTER_S). */
  retryAfterSeconds: number;
}

export const DEFAULT_ADMISSION: AdmissionLimits = { concurrency: 4, queue: 64, retryAfterSeconds: 1 };

export function admissionFromEnv(env: NodeJS.ProcessEnv): AdmissionLimits {
  const d = DEFAULT_ADMISSION;
  const limits = {
    concurrency: intSetting(env, "ADMISSION_CONCURRENCY", d.concurrency),
    queue: intSetting(env, "ADMISSION_QUEUE", d.queue),
    retryAfterSeconds: intSetting(env, "ADMISSION_RETRY_AFTER_S", d.retryAfterSeconds),
  };
  if (limits.concurrency < 1) throw new Error(`ADMISSION_CONCURRENCY must be at least 1, got ${limits.concurrency}`);
  if (limits.retryAfterSeconds < 1) throw new Error(`ADMISSION_RETRY_AFTER_S must be at least 1, got ${limits.retryAfterSeconds}`);
  return limits;
}

/**
 * Bulk requests (POST /api/risk-map/bulk) are a class of their own: one slot per request for its whole stream, at most
 * BULK_CONCURRENCY (2) at once and BULK_QUEUE (4) waiting per process; Retry-After as the other classes.
 */
export const DEFAULT_BULK_ADMISSION = { concurrency: 2, queue: 4 };

export function bulkAdmissionFromEnv(env: NodeJS.ProcessEnv, heavy: AdmissionLimits = admissionFromEnv(env)): AdmissionLimits {
  const limits = {
    concurrency: intSetting(env, "BULK_CONCURRENCY", DEFAULT_BULK_ADMISSION.concurrency),
    queue: intSetting(env, "BULK_QUEUE", DEFAULT_BULK_ADMISSION.queue),
    retryAfterSeconds: heavy.retryAfterSeconds,
  };
  if (limits.concurrency < 1) throw new Error(`BULK_CONCURRENCY must be at least 1, got ${limits.concurrency}`);
  return limits;
}

export class Admission {
  private readonly limit: LimitFunction;

  constructor(
    readonly name: string,
    readonly limits: AdmissionLimits = DEFAULT_ADMISSION,
  ) {
    this.limit = pLimit(limits.concurrency);
  }

  /** The 503 to answer when every slot and place in the queue is taken (Retry-After set on `res`), else undefined. */
  private refusal(res: Response): ApiError | undefined {
    const { concurrency, queue, retryAfterSeconds } = this.limits;
    if (this.limit.activeCount + this.limit.pendingCount < concurrency + queue) return undefined;
    res.setHeader("Retry-After", String(retryAfterSeconds));
    return new ApiError("SERVICE_UNAVAILABLE", `Too many ${this.name} requests at once; retry after ${retryAfterSeconds} s`, {
      reason: "overloaded",
      retryAfterSeconds,
      concurrency,
      queue,
    });
  }

  /** Runs `task` in a slot; a 503 when the slots and the queue are full. */
  run<T>(res: Response, task: () => T | Promise<T>): Promise<T> {
    const refused = this.refusal(res);
    if (refused !== undefined) return Promise.reject(refused);
    return this.limit(async () => {
      await nextTurn();
      return task();
    });
  }

  /**
   * Middleware refusing a request early (before its body is read) when it would be refused anyway; the handler
   * takes its slot with run() once the body is in, so a slow body holds no slot.
   */
  readonly gate = (_req: Request, res: Response, next: NextFunction): void => {
    const refused = this.refusal(res);
    if (refused !== undefined) throw refused;
    next();
  };

  /** Middleware holding a slot from here until the response is finished or its connection closed. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): Promise<void> =>
    this.run(res, () => {
      // The client left while it waited: nothing to answer, the slot goes to the next one.
      if (req.socket.destroyed || res.writableEnded) return;
      return new Promise<void>((resolve) => {
        res.once("close", resolve);
        next();
      });
    });
}
