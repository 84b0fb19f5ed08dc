// Starts the real entry point (server/main.ts) as a child process over a private copy of published artifacts,
// with a key file holding one enterprise key, and waits until /readyz answers 200. Several servers (replicas) may
// share one key file and one ARTIFACTS_DIR; publishCopy publishes a new version into it as the pipeline does.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { generateKey, hashKey, writeKeyFile } from "../../server/auth/key-store.ts";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { MANIFEST_FILE } from "../../formats/manifest.ts";
import { snapshotRoot } from "../../formats/snapshot-layout.ts";
import { freePort } from "../server/processes.ts";
import { EXIT_CANNOT_LISTEN } from "../../server/cluster.ts";

/** The server could not listen: its port was taken. */
class AddressInUse extends Error {}

export interface RealServer {
  base: string;
  key: string;
  artifactsDir: string;
  proc: ChildProcess;
  logs: string[];
  stop(): Promise<number | null>;
}

/** The private copies made here, removed when the server over them stops (each is ~100 MB; a suite makes dozens). */
const privateCopies = new Set<string>();

/** The feed snapshots test/global-setup.ts builds from the mirror into the run's artifacts. */
export type SnapshotName = "flood" | "wildfire" | "heatwave" | "storm" | "sea_level_rise" | "ports" | "outbreaks";
export const ALL_SNAPSHOTS: readonly SnapshotName[] = ["flood", "wildfire", "heatwave", "storm", "sea_level_rise", "ports", "outbreaks"];

/**
 * A private ARTIFACTS_DIR with a copy of the given published version as `current`, and copies of the named feed
 * snapshots' current versions (built once per run by the global setup, from the mirror, at the run's date).
 */
export function privateArtifacts(sourceArtifactsDir: string, snapshots: readonly SnapshotName[] = []): { dir: string; version: string } {
  const src = realpathSync(join(sourceArtifactsDir, "current"));
  const version = basename(src);
  const dir = mkdtempSync(join(tmpdir(), "e2e-artifacts-"));
  mkdirSync(join(dir, "versions"));
  cpSync(src, join(dir, "versions", version), { recursive: true });
  symlinkSync(join("versions", version), join(dir, "current"));
  copySnapshots(sourceArtifactsDir, dir, snapshots);
  privateCopies.add(dir);
  return { dir, version };
}

/** Copies of the named feed snapshots' current versions of `sourceArtifactsDir`, each published as `current` in `dir`. */
export function copySnapshots(sourceArtifactsDir: string, dir: string, snapshots: readonly SnapshotName[]): void {
  for (const name of snapshots) {
    const snapshot = realpathSync(join(snapshotRoot(sourceArtifactsDir, name), "current"));
    const root = snapshotRoot(dir, name);
    mkdirSync(join(root, "versions"), { recursive: true });
    cpSync(snapshot, join(root, "versions", basename(snapshot)), { recursive: true });
    symlinkSync(join("versions", basename(snapshot)), join(root, "current"));
  }
}

/**
 * A new directory holding only copies of the named feed snapshots the global setup built from the mirror (no drought
 * version): for the tests that serve or read feed snapshots without building their own.
 */
export function privateSnapshots(sourceArtifactsDir: string, snapshots: readonly SnapshotName[], prefix = "snapshots-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  copySnapshots(sourceArtifactsDir, dir, snapshots);
  return dir;
}

/**
 * Publishes a copy of version `from` as `to` (manifest version renamed) with the atomic `current` switch: a symlink
 * made aside, renamed over `current`. `damage` flips a byte of the grid after the checksums.
 */
export function publishCopy(dir: string, from: string, to: string, damage = false): void {
  const target = join(dir, "versions", to);
  cpSync(join(dir, "versions", from), target, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(target, MANIFEST_FILE), "utf8"));
  manifest.version = to;
  writeFileSync(join(target, MANIFEST_FILE), JSON.stringify(manifest));
  if (damage) {
    const bin = readFileSync(join(target, "drought-grid.bin"));
    bin[bin.length - 1] ^= 0xff;
    writeFileSync(join(target, "drought-grid.bin"), bin);
  }
  const tmp = join(dir, "current.tmp");
  symlinkSync(join("versions", to), tmp);
  renameSync(tmp, join(dir, "current"));
}

export interface E2eKeys {
  /** The enterprise key (plain). */
  key: string;
  file: string;
  dir: string;
}

/** A key file with one enterprise key, and `extra` keys ({id, plan}) whose plain keys come back by id. */
export function writeE2eKeys(extra: { id: string; plan: string }[] = []): E2eKeys & { extra: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), "e2e-keys-"));
  const all = [{ id: "key_e2e", plan: "enterprise" }, ...extra].map((k) => ({ ...k, plain: generateKey() }));
  writeKeyFile(join(dir, "keys.json"), {
    keys: all.map((k) => ({ id: k.id, hash: hashKey(k.plain), plan: k.plan, status: "active" as const, createdAt: "2026-01-01T00:00:00.000Z" })),
  });
  return { key: all[0].plain, file: join(dir, "keys.json"), dir, extra: Object.fromEntries(all.slice(1).map((k) => [k.id, k.plain])) };
}

/** Starts server/main.ts over artifactsDir; `keys` shared by replicas (default: a key file of its own). */
export async function startRealServer(artifactsDir: string, env: Record<string, string> = {}, keys: E2eKeys = writeE2eKeys()): Promise<RealServer> {
  const { key, dir: keyDir } = keys;
  // A port the system has just found free (a random one collided with another listener now and then: EADDRINUSE,
  // exit 78); if it is taken in the seconds the server needs to load, once more on another.
  for (let attempt = 1; ; attempt++) {
    const port = env.PORT === undefined ? await freePort() : Number(env.PORT);
    try {
      return await startOn(port);
    } catch (err) {
      if (!(err instanceof AddressInUse) || env.PORT !== undefined || attempt === 3) throw err;
    }
  }

  async function startOn(port: number): Promise<RealServer> {
    const proc = spawn(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "server", "main.ts")], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        ARTIFACTS_DIR: artifactsDir,
        API_KEYS_FILE: keys.file,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
        RATE_LIMITS: JSON.stringify({ enterprise: { points: 1_000_000, duration: 60 } }),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const logs: string[] = [];
    proc.stdout!.on("data", (d) => logs.push(String(d)));
    proc.stderr!.on("data", (d) => logs.push(String(d)));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (proc.exitCode === EXIT_CANNOT_LISTEN && logs.join("").includes("EADDRINUSE")) throw new AddressInUse(logs.join(""));
      if (proc.exitCode !== null) throw new Error(`server exited ${proc.exitCode}: ${logs.join("")}`);
      try {
        const r = await fetch(base + "/readyz");
        if (r.status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`server not ready in 30 s: ${logs.join("")}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return {
      base,
      key,
      artifactsDir,
      proc,
      logs,
      stop: () =>
        new Promise<number | null>((resolve) => {
          if (proc.exitCode !== null) return resolve(proc.exitCode);
          proc.once("exit", (code) => resolve(code));
          proc.kill("SIGTERM");
        }).then((code) => {
          rmSync(keyDir, { recursive: true, force: true });
          if (privateCopies.delete(artifactsDir)) rmSync(artifactsDir, { recursive: true, force: true });
          return code;
        }),
    };
  }
}
