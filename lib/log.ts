// Structured JSON logs (pino) for the pipeline and the server. Secrets are redacted by path, and no code logs
// a raw API key or a URL with a key in it. On a terminal the same records are shown as short readable lines
// (lib/terminal-log.ts); LOG_FORMAT=json or =pretty chooses explicitly.
import { pino } from "pino";
import { terminalDestination } from "./terminal-log.ts";

const options = {
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info"),
  base: { service: "climate-risk" },
  redact: { paths: ["req.headers[\"x-api-key\"]", "headers[\"x-api-key\"]", "apiKey", "key"], censor: "[redacted]" },
};
// LOG_STREAM=stderr (the pipeline's command line sets it): logs leave stdout to the command's result.
const toStderr = process.env.LOG_STREAM === "stderr";
const logStream = toStderr ? process.stderr : process.stdout;
const pretty = (process.env.LOG_FORMAT ?? (logStream.isTTY ? "pretty" : "json")) === "pretty";

export const log = pretty ? pino(options, terminalDestination(logStream)) : toStderr ? pino(options, pino.destination({ fd: 2, sync: true })) : pino(options);

export type Logger = typeof log;
