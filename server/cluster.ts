// The process side of `WORKERS > 1` (node:cluster) and of start-up failures, used by server/main.ts.
// - A worker that cannot listen (address in use, no permission) exits with EXIT_CANNOT_LISTEN after one clear
//   line; the primary then stops the other workers and exits with the same status: respawning would only fail
//   again. A supervisor can treat that status as "do not restart" (systemd: RestartPreventExitStatus=78).
// - Any other worker death is respawned after a delay that doubles with each crash in a row (0.5 s … 30 s);
//   a worker that ran STABLE_MS before dying starts the count again.
import cluster, { type Worker } from "node:cluster";
import type { Logger } from "../lib/log.ts";

/** sysexits.h EX_CONFIG: the configured address cannot be used. */
export const EXIT_CANNOT_LISTEN = 78;
export const RESPAWN_BASE_MS = 500;
export const RESPAWN_CAP_MS = 30_000;
/** A worker that lived this long before dying counts as a first crash again. */
export const STABLE_MS = 60_000;
/** Workers still running this long after a stop was asked for are killed. */
const STOP_GRACE_MS = 15_000;

const LISTEN_ERRORS: Record<string, string> = {
  EADDRINUSE: "the address is already in use",
  EACCES: "permission denied (ports below 1024 need privileges)",
  EADDRNOTAVAIL: "the address is not available on this host",
};

/** Delay before respawning after the n-th crash in a row (n ≥ 1). */
export function respawnDelayMs(crashesInARow: number): number {
  return Math.min(RESPAWN_CAP_MS, RESPAWN_BASE_MS * 2 ** Math.max(0, Math.min(crashesInARow - 1, 20)));
}

export interface ListenAddress {
  host: string;
  port: number;
}

function cannotListen(address: ListenAddress, code: string | undefined): string {
  const why = code === undefined ? "" : `: ${LISTEN_ERRORS[code] ?? code} (${code})`;
  return `cannot listen on ${address.host}:${address.port}${why}`;
}

/**
 * Ends the process after a failed start: one fatal line, and exit status EXIT_CANNOT_LISTEN when the address
 * could not be bound (a worker first tells the primary why), 1 otherwise.
 */
export function exitOnStartFailure(err: unknown, address: ListenAddress, logger: Logger): void {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === undefined || !(code in LISTEN_ERRORS)) {
    logger.fatal({ err }, "server failed to start");
    process.exit(1);
  }
  logger.fatal({ ...address, code }, cannotListen(address, code));
  if (cluster.isWorker && process.send) process.send({ listenError: code }, () => process.exit(EXIT_CANNOT_LISTEN));
  else process.exit(EXIT_CANNOT_LISTEN);
}

/** Runs the primary: forks `count` workers, respawns crashed ones with backoff, stops on SIGTERM/SIGINT. */
export function superviseWorkers(count: number, address: ListenAddress, logger: Logger): void {
  logger.info({ workers: count }, "starting workers");
  const startedAt = new Map<number, number>();
  const listenErrors = new Map<number, string>();
  const timers = new Set<NodeJS.Timeout>();
  let crashesInARow = 0;
  let stopping = false;

  const fork = () => startedAt.set(cluster.fork().id, Date.now());

  const stop = (status: number) => {
    if (stopping) return;
    stopping = true;
    for (const t of timers) clearTimeout(t);
    const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
    const finish = () => {
      if (alive().length === 0) process.exit(status);
    };
    cluster.on("exit", finish);
    for (const w of alive()) w.process.kill("SIGTERM");
    setTimeout(() => {
      for (const w of alive()) w.process.kill("SIGKILL");
      process.exit(status);
    }, STOP_GRACE_MS).unref();
    finish();
  };

  cluster.on("message", (worker, message: { listenError?: unknown }) => {
    if (typeof message?.listenError === "string") listenErrors.set(worker.id, message.listenError);
  });

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? Date.now());
    startedAt.delete(worker.id);
    if (stopping) return;
    if (code === EXIT_CANNOT_LISTEN) {
      // Every worker would fail the same way: stop instead of respawning.
      logger.fatal({ ...address, pid: worker.process.pid }, `${cannotListen(address, listenErrors.get(worker.id))}; stopping`);
      stop(EXIT_CANNOT_LISTEN);
      return;
    }
    crashesInARow = lived >= STABLE_MS ? 1 : crashesInARow + 1;
    const delayMs = respawnDelayMs(crashesInARow);
    logger.error({ pid: worker.process.pid, code, signal, crashesInARow, delayMs }, "worker died, starting another after a delay");
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopping) fork();
    }, delayMs);
    timers.add(timer);
  });

  for (let i = 0; i < count; i++) fork();
  process.once("SIGTERM", () => stop(0));
  process.once("SIGINT", () => stop(0));
}
