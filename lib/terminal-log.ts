// Log lines for a person at a terminal: pino's JSON records as one short line each — elapsed seconds since the
// process started, the message and its fields as key=value — and "progress" records ({done, total}) drawn on one
// line that is redrawn until the stage is done. Used by lib/log.ts when stdout is a terminal; pipes get JSON.
import { performance } from "node:perf_hooks";

const HIDDEN = new Set(["level", "time", "pid", "hostname", "service", "msg"]);
const LEVELS: Record<number, string> = { 40: "WARN", 50: "ERROR", 60: "FATAL" };

function value(v: unknown): string {
  if (typeof v === "string") return /\s/.test(v) ? JSON.stringify(v) : v;
  if (v !== null && typeof v === "object" && "message" in v) return JSON.stringify((v as { message: unknown }).message);
  return JSON.stringify(v);
}

/** One terminal line for a pino record (no newline). */
export function formatRecord(rec: Record<string, unknown>, startMs: number, color: boolean): string {
  const seconds = ((Number(rec.time) - startMs) / 1000).toFixed(1).padStart(6) + "s";
  const level = LEVELS[Number(rec.level)] ?? (Number(rec.level) > 60 ? "FATAL" : "");
  const tag = level ? (color ? `\x1b[${Number(rec.level) >= 50 ? 31 : 33}m${level}\x1b[0m ` : `${level} `) : "";
  let text: string;
  if (rec.msg === "progress" && typeof rec.done === "number" && typeof rec.total === "number") {
    const label = rec.label ?? rec.file;
    text = `${rec.stage ?? "progress"} ${rec.done}/${rec.total}${label ? `  ${label}` : ""}`;
  } else if (rec.msg === "request" && typeof rec.method === "string" && typeof rec.path === "string") {
    // The server's access line: "GET /api/ping 200 (1.2 ms) key_…"
    text = `${rec.method} ${rec.path} ${rec.status} (${rec.durationMs} ms)${rec.keyId ? `  ${rec.keyId}` : ""}`;
  } else {
    const fields = Object.entries(rec)
      // "provinces done  stage=provinces": the stage is already in the message.
      .filter(([k, v]) => !HIDDEN.has(k) && v !== undefined && !(k === "stage" && String(rec.msg).startsWith(String(v))))
      .map(([k, v]) => (k === "ms" && typeof v === "number" ? `(${v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`})` : `${k}=${value(v)}`));
    text = [String(rec.msg ?? ""), ...fields].join("  ");
  }
  return `${color ? "\x1b[2m" : ""}${seconds}${color ? "\x1b[0m" : ""}  ${tag}${text}`;
}

/**
 * A pino destination writing formatRecord lines to `out`; on a terminal progress lines overwrite each other and
 * carry colour, elsewhere (LOG_FORMAT=pretty into a file: make serve's background log) every record is a plain line.
 */
export function terminalDestination(out: NodeJS.WriteStream = process.stdout): { write(line: string): void } {
  const startMs = performance.timeOrigin;
  const tty = out.isTTY === true;
  const color = tty && !process.env.NO_COLOR;
  let progressOpen = false;
  return {
    write(line: string) {
      let rec: Record<string, unknown>;
      try {
        rec = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out.write(line);
        return;
      }
      const text = formatRecord(rec, startMs, color);
      const isProgress = rec.msg === "progress" && typeof rec.done === "number" && typeof rec.total === "number";
      if (tty && isProgress && rec.done !== rec.total) {
        out.write(`\r\x1b[K${text}`);
        progressOpen = true;
        return;
      }
      out.write(`${progressOpen ? "\r\x1b[K" : ""}${text}\n`);
      progressOpen = false;
    },
  };
}
