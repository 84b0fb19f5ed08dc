// Per-plan rate limits with rate-limiter-flexible: one fixed window budget per API key id. In memory by
// default (one budget per process); with a Redis client every process shares one budget per key. If Redis
// fails, an in-memory insurance limiter keeps enforcing per-process limits instead of failing requests (the
// fail-open budget of docs/api.md "Rate limits"). Redis going down and coming back is logged once per change
// and shown by the rate_limit_store_up gauge (server/metrics.ts).
import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { z } from "zod";
import { log, type Logger } from "../../lib/log.ts";

export interface PlanLimit {
  /** Points per window. */
  points: number;
  /** Window length in seconds. */
  duration: number;
}

export const DEFAULT_PLAN_LIMITS: Record<string, PlanLimit> = {
  free: { points: 60, duration: 60 },
  standard: { points: 600, duration: 60 },
  enterprise: { points: 6000, duration: 60 },
};
/** Plan used for a key whose plan is not in the table. */
export const FALLBACK_PLAN = "free";

const planTable = z.record(
  z.string(),
  z.strictObject({ points: z.int().positive(), duration: z.int().positive() }),
);

/** DEFAULT_PLAN_LIMITS overridden/extended by the RATE_LIMITS env setting (JSON: {"plan": {points, duration}}). */
export function planLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): Record<string, PlanLimit> {
  if (env.RATE_LIMITS === undefined || env.RATE_LIMITS === "") return { ...DEFAULT_PLAN_LIMITS };
  const parsed = planTable.safeParse(JSON.parse(env.RATE_LIMITS));
  if (!parsed.success) throw new Error(`RATE_LIMITS: ${parsed.error.issues[0].message} at ${parsed.error.issues[0].path.join(".")}`);
  return { ...DEFAULT_PLAN_LIMITS, ...parsed.data };
}

/** Points a batch request of n locations costs in total: 1 + ceil(n / 10) (100 locations = 11 points). */
export function batchCost(locations: number): number {
  return 1 + Math.ceil(locations / 10);
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (ceil). */
  resetSeconds: number;
}

export interface RateLimiter {
  consume(keyId: string, plan: string, points: number): Promise<RateDecision>;
  /** Where the budgets are counted and whether that store is reachable now. */
  readonly store: RateLimitStore;
}

export interface RateLimitStore {
  kind: "memory" | "redis";
  up(): boolean;
}

const MEMORY_STORE: RateLimitStore = { kind: "memory", up: () => true };
let processStore: RateLimitStore = MEMORY_STORE;

/** The store of the rate limiter this process created last (a server process creates one): for /metrics. */
export function rateLimitStore(): RateLimitStore {
  return processStore;
}

export interface RateLimiterOptions {
  plans?: Record<string, PlanLimit>;
  redis?: Redis;
  keyPrefix?: string;
  /** Where Redis state changes are logged (default: the service log). */
  logger?: Logger;
}

/**
 * Follows a Redis client's connection: logs "connected" once, then one line per change (down, back up) instead
 * of ioredis's raw "Unhandled error event" lines on every reconnect attempt; the address is logged, never the URL
 * (it may hold a password).
 */
export function watchRedisStore(redis: Redis, logger: Logger): RateLimitStore {
  let state: "starting" | "up" | "down" = "starting";
  let everUp = false;
  const where = { store: "redis", host: redis.options.host, port: redis.options.port };
  const down = (reason: string) => {
    if (state === "down") return;
    state = "down";
    logger.warn({ ...where, err: reason }, "rate-limit store down: each process enforces the plans in memory until it is back");
  };
  const ready = () => {
    if (state === "up") return;
    logger.info(where, everUp ? "rate-limit store back up: budgets are shared again" : "rate-limit store connected");
    state = "up";
    everUp = true;
  };
  if (redis.status === "ready") ready();
  redis.on("ready", ready);
  redis.on("error", (err: Error) => down(err.message || (err as NodeJS.ErrnoException).code || String(err)));
  redis.on("close", () => down("connection closed"));
  return { kind: "redis", up: () => state === "up" };
}

export function createRateLimiter(opts: RateLimiterOptions = {}): RateLimiter {
  const plans = opts.plans ?? DEFAULT_PLAN_LIMITS;
  const prefix = opts.keyPrefix ?? "crk-rl";
  const limiters = new Map<string, { limit: number; limiter: RateLimiterAbstract }>();
  for (const [plan, { points, duration }] of Object.entries(plans)) {
    const keyPrefix = `${prefix}:${plan}`;
    const limiter = opts.redis
      ? new RateLimiterRedis({
          storeClient: opts.redis,
          keyPrefix,
          points,
          duration,
          insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
        })
      : new RateLimiterMemory({ keyPrefix, points, duration });
    limiters.set(plan, { limit: points, limiter });
  }
  if (!limiters.has(FALLBACK_PLAN)) throw new Error(`rate limits: the plan table needs a "${FALLBACK_PLAN}" entry`);
  const store = opts.redis ? watchRedisStore(opts.redis, opts.logger ?? log) : MEMORY_STORE;
  processStore = store;

  return {
    store,
    async consume(keyId, plan, points) {
      const entry = limiters.get(plan) ?? limiters.get(FALLBACK_PLAN)!;
      try {
        const res = await entry.limiter.consume(keyId, points);
        return decision(true, entry.limit, res);
      } catch (err) {
        if (err instanceof RateLimiterRes) return decision(false, entry.limit, err);
        throw err;
      }
    },
  };
}

function decision(allowed: boolean, limit: number, res: RateLimiterRes): RateDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(0, Math.ceil(res.msBeforeNext / 1000)),
  };
}
