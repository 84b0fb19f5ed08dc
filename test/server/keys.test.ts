import { execFile } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileKeyStore, generateKey, hashKey, KEY_PATTERN, readKeyFile, writeKeyFile } from "../../server/auth/key-store.ts";
import { pino } from "pino";
import { devBanner, printDevBanner } from "../../server/auth/dev-key.ts";
import { runKeysCli } from "../../server/keys-cli.ts";
import { get, startTestServer, type TestServer } from "./helpers.ts";

const NOW = new Date("2025-03-01T12:00:00.000Z");

function cli(args: string[], file: string, now = NOW): string[] {
  const lines: string[] = [];
  runKeysCli([...args, "--file", file], {}, (l) => lines.push(l), now);
  return lines;
}

describe("key store", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "keys-test-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("hashKey is sha256 hex; generated keys are crk_ + 43 base64url chars", () => {
    expect(hashKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const key = generateKey();
    expect(key).toMatch(KEY_PATTERN);
    expect(key.length).toBe(47);
    expect(generateKey()).not.toBe(key);
  });

  it("authenticates active keys; revoked, expired, unknown and missing fail; expiry is exact", () => {
    const file = join(dir, "a.json");
    const active = generateKey();
    const expiring = generateKey();
    writeKeyFile(file, {
      keys: [
        { id: "k1", hash: hashKey(active), plan: "standard", status: "active", createdAt: "2025-01-01T00:00:00Z" },
        { id: "k2", hash: hashKey(expiring), plan: "free", status: "active", createdAt: "2025-01-01T00:00:00Z", expiresAt: "2025-03-01T12:00:01.000Z" },
      ],
    });
    let now = NOW;
    const store = new FileKeyStore(file, { checkIntervalMs: 0, now: () => now });
    expect(store.authenticate(active)?.id).toBe("k1");
    expect(store.authenticate(active)?.plan).toBe("standard");
    expect(store.authenticate(expiring)?.id).toBe("k2");
    now = new Date("2025-03-01T12:00:01.000Z");
    expect(store.authenticate(expiring)).toBeUndefined();
    expect(store.authenticate(generateKey())).toBeUndefined();
    expect(store.authenticate(undefined)).toBeUndefined();
    expect(store.authenticate("")).toBeUndefined();
  });

  it("reloads on change, keeps the old keys when the new file is broken, treats a missing file as no keys", () => {
    const file = join(dir, "b.json");
    const k1 = generateKey();
    const k2 = generateKey();
    writeKeyFile(file, { keys: [{ id: "k1", hash: hashKey(k1), plan: "free", status: "active", createdAt: "x" }] });
    const store = new FileKeyStore(file, { checkIntervalMs: 0 });
    expect(store.authenticate(k1)?.id).toBe("k1");
    expect(store.authenticate(k2)).toBeUndefined();
    writeKeyFile(file, {
      keys: [
        { id: "k1", hash: hashKey(k1), plan: "free", status: "revoked", createdAt: "x" },
        { id: "k2", hash: hashKey(k2), plan: "free", status: "active", createdAt: "x" },
      ],
    });
    expect(store.authenticate(k1)).toBeUndefined();
    expect(store.authenticate(k2)?.id).toBe("k2");
    writeFileSync(file, '{"keys": [{"id": "k3"}]}');
    expect(store.authenticate(k2)?.id).toBe("k2"); // broken file: previous keys stay
    rmSync(file);
    expect(store.authenticate(k2)).toBeUndefined();
    expect(() => new FileKeyStore(join(dir, "missing.json"))).not.toThrow();
  });

  it("a broken key file at startup is an error naming the field", () => {
    const file = join(dir, "c.json");
    writeFileSync(file, JSON.stringify({ keys: [{ id: "k", hash: "zz", plan: "free", status: "active", createdAt: "x" }] }));
    expect(() => new FileKeyStore(file)).toThrow(`${file}: invalid key file at keys.0.hash: must be sha256 hex`);
  });
});

describe("keys CLI", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "keys-cli-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("create prints the key once and stores only its hash; list; revoke", () => {
    const file = join(dir, "keys.json");
    const out = cli(["create", "--plan", "standard", "--expires", "2026-01-01"], file);
    expect(out).toHaveLength(4);
    const id = out[0].replace("id:   ", "");
    const key = out[2].replace("key:  ", "");
    expect(id).toMatch(/^key_[0-9a-f]{12}$/);
    expect(out[1]).toBe("plan: standard");
    expect(key).toMatch(KEY_PATTERN);
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(key);
    expect(readKeyFile(file)).toEqual({
      keys: [{ id, hash: hashKey(key), plan: "standard", status: "active", createdAt: "2025-03-01T12:00:00.000Z", expiresAt: "2026-01-01T00:00:00.000Z" }],
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = cli(["create", "--plan", "free"], file)[0].replace("id:   ", "");
    expect(cli(["list"], file)).toEqual([
      "id\tplan\tstatus\tcreatedAt\texpiresAt",
      `${id}\tstandard\tactive\t2025-03-01T12:00:00.000Z\t2026-01-01T00:00:00.000Z`,
      `${second}\tfree\tactive\t2025-03-01T12:00:00.000Z\t-`,
    ]);
    expect(cli(["list"], file, new Date("2027-01-01T00:00:00Z"))[1]).toBe(`${id}\tstandard\texpired\t2025-03-01T12:00:00.000Z\t2026-01-01T00:00:00.000Z`);
    expect(cli(["revoke", id], file)).toEqual([`revoked ${id}`]);
    expect(cli(["list"], file, new Date("2027-01-01T00:00:00Z"))[1]).toBe(`${id}\tstandard\trevoked\t2025-03-01T12:00:00.000Z\t2026-01-01T00:00:00.000Z`);
  });

  it("a key file made readable by the service's group (root:climate-risk 0640, docs/deploy.md §1) stays so when a key is added or revoked", () => {
    const file = join(dir, "group-keys.json");
    cli(["create", "--plan", "standard"], file);
    // The guide's chgrp and chmod; another group than the file's own (as root any, else one the user is in).
    const group = process.getuid?.() === 0 ? 1 : statSync(file).gid;
    chownSync(file, statSync(file).uid, group);
    chmodSync(file, 0o640);
    const id = cli(["create", "--plan", "free"], file)[0].replace("id:   ", "");
    expect([statSync(file).mode & 0o777, statSync(file).gid]).toEqual([0o640, group]);
    cli(["revoke", id], file);
    expect([statSync(file).mode & 0o777, statSync(file).gid]).toEqual([0o640, group]);
    expect(readKeyFile(file).keys).toHaveLength(2);
  });

  it("dev keeps the development key in .dev-key (mode 0600) and reuses it while it is usable", () => {
    const file = join(dir, "dev-keys.json");
    const devFile = join(dir, ".dev-key");
    const dev = (now = NOW) => cli(["dev", "--dev-key-file", devFile], file, now);
    const first = dev();
    const key = readFileSync(devFile, "utf8").trim();
    expect(key).toMatch(KEY_PATTERN);
    expect(statSync(devFile).mode & 0o777).toBe(0o600);
    const [record] = readKeyFile(file).keys;
    expect(readKeyFile(file).keys).toEqual([
      { id: record.id, hash: hashKey(key), plan: "enterprise", status: "active", createdAt: "2025-03-01T12:00:00.000Z", expiresAt: "2025-03-08T12:00:00.000Z" },
    ]);
    expect(first).toEqual([`development key ${record.id} (enterprise, expires 2025-03-08T12:00:00.000Z): new, saved in ${devFile} (mode 0600)`]);
    expect(first.join("\n")).not.toContain(key);

    // The next make serve: same key, no new record.
    expect(dev(new Date("2025-03-05T00:00:00Z"))).toEqual([`development key ${record.id} (enterprise, expires 2025-03-08T12:00:00.000Z): reusing the one in ${devFile}`]);
    expect(readFileSync(devFile, "utf8").trim()).toBe(key);
    expect(readKeyFile(file).keys).toHaveLength(1);

    // Expired: replaced, and the expired development key leaves the key file.
    dev(new Date("2025-03-09T00:00:00Z"));
    const second = readFileSync(devFile, "utf8").trim();
    expect(second).not.toBe(key);
    expect(readKeyFile(file).keys.map((k) => k.hash)).toEqual([hashKey(second)]);

    // Revoked: replaced, the revoked record stays.
    cli(["revoke", readKeyFile(file).keys[0].id], file);
    dev();
    const third = readFileSync(devFile, "utf8").trim();
    expect(readKeyFile(file).keys.map((k) => [k.hash, k.status])).toEqual([
      [hashKey(second), "revoked"],
      [hashKey(third), "active"],
    ]);

    // A key file without the saved key's hash (deleted, another file): a new key.
    rmSync(file);
    dev();
    expect(readFileSync(devFile, "utf8").trim()).not.toBe(third);
    expect(readKeyFile(file).keys).toHaveLength(1);
  });

  it("the make serve banner: where the server is, the key, and requests to try with the key file", () => {
    const devFile = join(process.cwd(), ".dev-key");
    const key = generateKey();
    expect(devBanner({ key, devFile, host: "0.0.0.0", port: 8080 })).toEqual({
      ready: "Ready: http://localhost:8080/ (map page), http://localhost:8080/docs (API reference)",
      keyLines: ["API key (development, kept in .dev-key and reused by the next make serve):", `  ${key}`],
      tryLines: [
        "Try:",
        "  KEY=$(cat .dev-key)",
        '  curl -s -H "X-API-Key: $KEY" "http://localhost:8080/api/risk-map/drought?lat=18.79&lng=98.98"',
        '  curl -s -H "X-API-Key: $KEY" "http://localhost:8080/api/risk-map/drought/province?name=Buriram"',
        `  curl -s -H "X-API-Key: $KEY" -H 'content-type: application/json' -d '{"lat":13.75,"lng":100.5,"riskType":"flood","timeframe":"1y"}' http://localhost:8080/api/risk-map/score`,
        "Stop with Ctrl-C.",
      ],
    });
    const other = devBanner({ key: undefined, devFile: "/elsewhere/dev-key", host: "127.0.0.1", port: 9000 });
    expect(other.ready).toBe("Ready: http://127.0.0.1:9000/ (map page), http://127.0.0.1:9000/docs (API reference)");
    expect(other.keyLines).toEqual(["No development key in /elsewhere/dev-key: create one with `npm run keys -- dev`."]);
    expect(other.tryLines[1]).toBe("  KEY=$(cat /elsewhere/dev-key)");
  });

  it("printDevBanner off a terminal logs where the key is and what to try, never the key; without DEV_KEY_FILE nothing", () => {
    const devFile = join(dir, "banner-dev-key");
    const key = generateKey();
    writeFileSync(devFile, key + "\n");
    const records: Record<string, unknown>[] = [];
    const logger = pino({ base: {} }, { write: (line: string) => records.push(JSON.parse(line)) });
    printDevBanner({}, 8080, logger);
    expect(records).toEqual([]);
    printDevBanner({ DEV_KEY_FILE: devFile }, 8080, logger);
    expect(records).toHaveLength(1);
    expect(records[0].msg).toBe("Ready: http://localhost:8080/ (map page), http://localhost:8080/docs (API reference)");
    expect(records[0].devKeyFile).toBe(devFile);
    expect((records[0].try as string[])[0]).toBe(`KEY=$(cat ${devFile})`);
    expect(JSON.stringify(records)).not.toContain(key);
  });

  it("usage errors", () => {
    const file = join(dir, "u.json");
    expect(() => cli(["create"], file)).toThrow("create needs --plan NAME");
    expect(() => cli(["create", "--plan", "free", "--expires", "soon"], file)).toThrow("--expires: not an ISO date: soon");
    expect(() => cli(["create", "--plan", "free", "--expires", "2020-01-01"], file)).toThrow("--expires: 2020-01-01 is in the past");
    expect(() => cli(["revoke", "key_nope"], file)).toThrow(`no key with id key_nope in ${file}`);
    expect(() => cli(["frobnicate"], file)).toThrow("unknown command: frobnicate");
  });

  it("runs as `npm run keys` entry (tsx server/keys-cli.ts), exit codes", async () => {
    const file = join(dir, "entry.json");
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ["--import", "tsx", "server/keys-cli.ts", "create", "--plan", "free"], {
      env: { ...process.env, API_KEYS_FILE: file },
    });
    expect(stdout).toMatch(/^id: {3}key_[0-9a-f]{12}\nplan: free\nkey: {2}crk_[A-Za-z0-9_-]{43}\n/);
    expect(readKeyFile(file).keys).toHaveLength(1);
    const failed = await run(process.execPath, ["--import", "tsx", "server/keys-cli.ts", "revoke"], { env: { ...process.env, API_KEYS_FILE: file } }).catch((e) => e);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("keys: revoke needs a key id");
  });
});

describe("keys CLI against a running server", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it("a created key works at once; after revoke it is 401", async () => {
    const out = cli(["create", "--plan", "free"], s.keyFile, new Date());
    const id = out[0].replace("id:   ", "");
    const key = out[2].replace("key:  ", "");
    expect((await get(s.base, "/api/ping", key)).status).toBe(200);
    cli(["revoke", id], s.keyFile, new Date());
    const res = await get(s.base, "/api/ping", key);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("INVALID_API_KEY");
    expect((await get(s.base, "/api/ping", s.key)).status).toBe(200);
  });
});
