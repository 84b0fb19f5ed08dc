// The main event loop's heartbeat, for a health listener that runs off that loop (health-thread.ts): the loop
// stores the time every HEARTBEAT_EVERY_MS into shared memory; the reader's "age" is how long ago it last could.
// An age past the beat period is the loop's current stall, which a probe on the loop itself could never report.

/** How often the main loop beats; a stall shorter than this cannot be seen. */
export const HEARTBEAT_EVERY_MS = 50;

/** A beat in shared memory (one 64-bit slot: Date.now() of the last beat). */
export function newHeartbeat(): SharedArrayBuffer {
  const buf = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
  beat(buf);
  return buf;
}

export function beat(buf: SharedArrayBuffer, now = Date.now()): void {
  Atomics.store(new BigInt64Array(buf), 0, BigInt(now));
}

/** Milliseconds since the last beat. */
export function heartbeatAgeMs(buf: SharedArrayBuffer, now = Date.now()): number {
  return Math.max(0, now - Number(Atomics.load(new BigInt64Array(buf), 0)));
}

/** Beats every HEARTBEAT_EVERY_MS on the calling thread's loop until stopped; the timer never keeps a process alive. */
export function startBeating(buf: SharedArrayBuffer): () => void {
  const timer = setInterval(() => beat(buf), HEARTBEAT_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
