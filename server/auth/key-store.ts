// API keys. The key file holds only sha256 hashes of keys, never the keys. A presented key is hashed and
// compared with EVERY stored hash through crypto.timingSafeEqual, so the time taken does not depend on which
// stored hash (if any) matches. Missing, malformed, unknown, revoked and expired keys all fail the same way.
// The file is re-read when its mtime/size/inode changes (checked at most once per `checkIntervalMs`).
import { createHash, hash, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, chownSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { z } from "zod";
import type { Logger } from "../../lib/log.ts";

export const KEY_PREFIX = "crk_";
/** crk_ + 32 random bytes in base64url (43 characters). */
export const KEY_PATTERN = /^crk_[A-Za-z0-9_-]{43}$/;

export const apiKeyRecord = z.object({
  id: z.string().min(1),
  hash: z.string().regex(/^[0-9a-f]{64}$/, "must be sha256 hex"),
  plan: z.string().min(1),
  status: z.enum(["active", "revoked"]),
  createdAt: z.string(),
  expiresAt: z.string().optional(),
});
export type ApiKeyRecord = z.infer<typeof apiKeyRecord>;

export const keyFile = z.object({ keys: z.array(apiKeyRecord) });
export type KeyFile = z.infer<typeof keyFile>;

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString("base64url");
}

export function generateKeyId(): string {
  return "key_" + randomBytes(6).toString("hex");
}

export function readKeyFile(path: string): KeyFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { keys: [] };
    throw err;
  }
  const parsed = keyFile.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${path}: invalid key file at ${issue.path.join(".")}: ${issue.message}`);
  }
  return parsed.data;
}

/** Atomic write (temp file + rename), mode 0600. */
/**
 * Writes the key file whole (a temporary file renamed over it). A new file is 0600; a rewrite keeps the mode, owner
 * and group the file had, so that a key file an operator made readable by the service's group
 * (docs/deploy.md §1: root:climate-risk 0640) stays readable after `npm run keys -- create` adds a key.
 */
export function writeKeyFile(path: string, file: KeyFile): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const before = existsSync(path) ? statSync(path) : undefined;
  writeFileSync(tmp, JSON.stringify(file, null, 2) + "\n", { mode: 0o600 });
  if (before) {
    chmodSync(tmp, before.mode & 0o777);
    const now = statSync(tmp);
    if (before.uid !== now.uid || before.gid !== now.gid) {
      try {
        chownSync(tmp, before.uid, before.gid);
      } catch (e) {
        rmSync(tmp, { force: true });
        throw new Error(`${path}: could not keep its owner and group (${(e as Error).message}); run as root or as its owner`);
      }
    }
  }
  renameSync(tmp, path);
}

export function isUsable(record: ApiKeyRecord, now: Date): boolean {
  if (record.status !== "active") return false;
  if (record.expiresAt !== undefined) {
    const expires = Date.parse(record.expiresAt);
    if (!(expires > now.getTime())) return false; // unparseable expiry counts as expired
  }
  return true;
}

export interface KeyStoreOptions {
  logger?: Logger;
  checkIntervalMs?: number;
  now?: () => Date;
}

export interface KeyStore {
  /** The record of a usable key, or undefined for missing/unknown/revoked/expired. */
  authenticate(presented: string | undefined): ApiKeyRecord | undefined;
}

export class FileKeyStore implements KeyStore {
  private records: ApiKeyRecord[] = [];
  private hashes: Buffer[] = [];
  private signature = "";
  private lastCheck = 0;
  private readonly checkIntervalMs: number;
  private readonly now: () => Date;

  constructor(
    readonly path: string,
    private readonly opts: KeyStoreOptions = {},
  ) {
    this.checkIntervalMs = opts.checkIntervalMs ?? 1000;
    this.now = opts.now ?? (() => new Date());
    this.reloadIfChanged(true);
  }

  /** Re-reads the file when it changed. A broken file keeps the previous keys (and is logged). */
  reloadIfChanged(throwOnError = false): void {
    let signature = "missing";
    try {
      const st = statSync(this.path);
      signature = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      // missing file: no keys
    }
    if (signature === this.signature) return;
    try {
      const file = readKeyFile(this.path);
      this.records = file.keys;
      this.hashes = file.keys.map((k) => Buffer.from(k.hash, "hex"));
      this.signature = signature;
      this.opts.logger?.info({ keyFile: this.path, keys: file.keys.length }, "API keys loaded");
    } catch (err) {
      if (throwOnError) throw err;
      this.signature = signature; // do not retry a broken file on every request
      this.opts.logger?.error({ keyFile: this.path, err: (err as Error).message }, "API key file not reloaded");
    }
  }

  authenticate(presented: string | undefined): ApiKeyRecord | undefined {
    const now = this.now();
    if (now.getTime() - this.lastCheck >= this.checkIntervalMs) {
      this.lastCheck = now.getTime();
      this.reloadIfChanged();
    }
    if (presented === undefined || !KEY_PATTERN.test(presented)) return undefined;
    // One-shot hash: no Hash object per request (bench/http-pinned.bench.ts, auth's cost per request).
    const digest = hash("sha256", presented, "buffer");
    let match = -1;
    for (let i = 0; i < this.hashes.length; i++) {
      // No early exit: every stored hash is compared.
      if (timingSafeEqual(digest, this.hashes[i]) && match < 0) match = i;
    }
    if (match < 0) return undefined;
    const record = this.records[match];
    return isUsable(record, now) ? record : undefined;
  }
}
