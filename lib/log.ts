// Structured JSON logs (pino) for the pipeline and the server. Secrets are redacted by path, and no code logs
// a raw API key or a URL with a key in it.
import { pino } from "pino";

export const log = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info"),
  base: { service: "climate-risk" },
  redact: { paths: ["req.headers[\"x-api-key\"]", "headers[\"x-api-key\"]", "apiKey", "key"], censor: "[redacted]" },
});

export type Logger = typeof log;
