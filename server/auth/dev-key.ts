// The development key of `make serve`. keys.json keeps only hashes, so the plaintext is kept in a git-ignored
// file of its own (DEV_KEY_FILE, default ./.dev-key, mode 0600) and reused while its hash is in the key file and
// the key is usable; otherwise a new one replaces it (plan enterprise, 7 days). The server prints it, with a few
// requests to try, once it is listening (printDevBanner), so it is the last thing a newcomer sees.
import cluster from "node:cluster";
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { Logger } from "../../lib/log.ts";
import { generateKey, generateKeyId, hashKey, isUsable, KEY_PATTERN, readKeyFile, writeKeyFile, type ApiKeyRecord } from "./key-store.ts";

export const DEV_KEY_FILE = ".dev-key";
const DEV_PLAN = "enterprise";
const DEV_DAYS = 7;

export function devKeyPath(env: NodeJS.ProcessEnv): string {
  return resolve(env.DEV_KEY_FILE || DEV_KEY_FILE);
}

/** The key saved in the dev key file, or undefined when there is none or it is not a key. */
export function readDevKey(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const key = readFileSync(path, "utf8").trim();
  return KEY_PATTERN.test(key) ? key : undefined;
}

/** The usable development key: the saved one, or a new one written to both files. */
export function ensureDevKey(keyFile: string, devFile: string, now: Date): { key: string; record: ApiKeyRecord; reused: boolean } {
  const keys = readKeyFile(keyFile);
  const saved = readDevKey(devFile);
  if (saved !== undefined) {
    const i = keys.keys.findIndex((k) => k.hash === hashKey(saved));
    if (i >= 0 && isUsable(keys.keys[i], now)) {
      chmodSync(devFile, 0o600);
      return { key: saved, record: keys.keys[i], reused: true };
    }
    // Our own expired key goes; a revoked one stays on record.
    if (i >= 0 && keys.keys[i].status === "active") keys.keys.splice(i, 1);
  }
  const key = generateKey();
  const record: ApiKeyRecord = {
    id: generateKeyId(),
    hash: hashKey(key),
    plan: DEV_PLAN,
    status: "active",
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + DEV_DAYS * 24 * 3600 * 1000).toISOString(),
  };
  const tmp = `${devFile}.${process.pid}.tmp`;
  writeFileSync(tmp, key + "\n", { mode: 0o600 });
  renameSync(tmp, devFile);
  keys.keys.push(record);
  writeKeyFile(keyFile, keys);
  return { key, record, reused: false };
}

/** What `make serve` shows once the server listens: where it is, the key, and requests to try with it. */
export function devBanner(opts: { key: string | undefined; devFile: string; host: string; port: number }): { ready: string; keyLines: string[]; tryLines: string[] } {
  const host = opts.host === "0.0.0.0" || opts.host === "::" || opts.host === "" ? "localhost" : opts.host;
  const base = `http://${host.includes(":") ? `[${host}]` : host}:${opts.port}`;
  const rel = relative(process.cwd(), opts.devFile);
  const file = rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : opts.devFile;
  return {
    ready: `Ready: ${base}/ (map page), ${base}/docs (API reference)`,
    keyLines:
      opts.key === undefined
        ? [`No development key in ${file}: create one with \`npm run keys -- dev\`.`]
        : [`API key (development, kept in ${file} and reused by the next make serve):`, `  ${opts.key}`],
    tryLines: [
      `Try:`,
      `  KEY=$(cat ${file})`,
      `  curl -s -H "X-API-Key: $KEY" "${base}/api/risk-map/drought?lat=18.79&lng=98.98"`,
      `  curl -s -H "X-API-Key: $KEY" "${base}/api/risk-map/drought/province?name=Buriram"`,
      `  curl -s -H "X-API-Key: $KEY" -H 'content-type: application/json' -d '{"lat":13.75,"lng":100.5,"riskType":"flood","timeframe":"1y"}' ${base}/api/risk-map/score`,
      `Stop with Ctrl-C.`,
    ],
  };
}

/**
 * Called by the server once listening; does something only when DEV_KEY_FILE is set (make serve), in one
 * process. On a terminal it prints the banner with the key; otherwise it logs where to find the key and the
 * requests to try (never the key), as a log record so that it stays in order with the others. `pending`: lines on
 * what is not served yet (data still being built by make serve in the background), shown before the requests.
 */
export function printDevBanner(env: NodeJS.ProcessEnv, port: number, logger: Logger, pending: string[] = []): void {
  if (!env.DEV_KEY_FILE || (cluster.isWorker && cluster.worker?.id !== 1)) return;
  const devFile = devKeyPath(env);
  const b = devBanner({ key: readDevKey(devFile), devFile, host: env.HOST || "0.0.0.0", port });
  if (process.stdout.isTTY) process.stdout.write(["", b.ready, ...b.keyLines, ...pending, ...b.tryLines].join("\n") + "\n");
  else logger.info({ devKeyFile: devFile, try: b.tryLines.slice(1, -1).map((l) => l.trim()), ...(pending.length ? { pending } : {}) }, b.ready);
}
