// Log lines on a terminal (lib/terminal-log.ts): elapsed time, message, fields; progress redrawn on one line.
import { describe, expect, it } from "vitest";
import { pino } from "pino";
import { formatRecord, terminalDestination } from "../../lib/terminal-log.ts";

const T0 = 1_000_000;

describe("terminal log lines", () => {
  it("elapsed seconds, message, fields as key=value, durations in ms or s, levels from warn up", () => {
    expect(formatRecord({ level: 30, time: T0 + 1234, service: "climate-risk", msg: "provinces done", stage: "provinces", ms: 64.2 }, T0, false)).toBe(
      "   1.2s  provinces done  (64 ms)",
    );
    expect(formatRecord({ level: 30, time: T0 + 21_253, msg: "published", version: "v1", removed: [], ms: 21253 }, T0, false)).toBe(
      "  21.3s  published  version=v1  removed=[]  (21.3 s)",
    );
    expect(formatRecord({ level: 50, time: T0, msg: "snapshot build failed", snapshot: "ports", err: { type: "Error", message: "no rows", stack: "…" } }, T0, false)).toBe(
      '   0.0s  ERROR snapshot build failed  snapshot=ports  err="no rows"',
    );
    expect(formatRecord({ level: 30, time: T0, msg: "request", method: "GET", path: "/api/ping", route: "/api/ping", status: 200, durationMs: 1.2, keyId: "key_1" }, T0, false)).toBe(
      "   0.0s  GET /api/ping 200 (1.2 ms)  key_1",
    );
    expect(formatRecord({ level: 30, time: T0 + 500, msg: "progress", stage: "tiles", done: 12, total: 75, label: "a.pmtiles" }, T0, false)).toBe("   0.5s  tiles 12/75  a.pmtiles");
  });

  it("progress lines overwrite each other until done; secrets stay redacted", () => {
    let out = "";
    const dest = terminalDestination({ isTTY: true, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream);
    const log = pino({ base: {}, redact: { paths: ["key"], censor: "[redacted]" } }, dest);
    log.info({ stage: "stations", done: 1, total: 2 }, "progress");
    log.info({ stage: "stations", done: 2, total: 2 }, "progress");
    log.info({ key: "crk_secret" }, "listening");
    const lines = out.replace(new RegExp(String.fromCharCode(27) + "\\[[0-9;]*m", "g"), "").replace(/ +\d+\.\ds {2}/g, "");
    expect(lines).toBe("\r\x1b[Kstations 1/2\r\x1b[Kstations 2/2\nlistening  key=[redacted]\n");
  });

  it("off a terminal (a log file) every record is a plain line: no redraw, no colour", () => {
    let out = "";
    const dest = terminalDestination({ write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream);
    const log = pino({ base: {} }, dest);
    log.info({ stage: "tiles", done: 12, total: 75, label: "a.pmtiles" }, "progress");
    log.warn("careful");
    expect(out.replace(/ +\d+\.\ds {2}/g, "")).toBe("tiles 12/75  a.pmtiles\nWARN careful\n");
  });
});
