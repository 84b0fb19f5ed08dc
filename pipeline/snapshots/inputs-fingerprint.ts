// What a published snapshot was built from, kept beside it (ARTIFACTS_DIR/snapshots/<name>/inputs-fingerprint.json)
// so `make snapshots` can tell before building that nothing changed: the same code fingerprint, every input file
// with the same size and sha256, the same file names in each folder an input came from (a new file there may be
// one the builder would pick up), and no feed download configured (a remote feed may have changed any time).
import { existsSync, readdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { readManifest, sha256Bytes, type FileChecksum } from "../../formats/manifest.ts";

export const FINGERPRINT_FILE = "inputs-fingerprint.json";
/** Inputs that are files of a published artifact rather than of DATA_DIR are keyed `artifact:<file>`. */
const ARTIFACT_PREFIX = "artifact:";

export interface InputsFingerprint {
  /** The snapshot version this describes; a fingerprint of another version than `current` is ignored. */
  version: string;
  code: string;
  inputs: Record<string, FileChecksum>;
  /** sha256 of the sorted file names of each DATA_DIR folder an input came from. */
  folders: Record<string, string>;
}

export interface FingerprintContext {
  dataDir: string;
  /** Where the artifacts named by `artifact:` inputs are published (their checksums come from its manifest). */
  artifactsDir?: string;
  env: NodeJS.ProcessEnv;
}

function folderListing(dataDir: string, folder: string): string {
  const dir = join(dataDir, folder);
  if (!existsSync(dir)) return "missing";
  return createHash("sha256").update(readdirSync(dir).sort().join("\n")).digest("hex");
}

function foldersOf(dataDir: string, inputs: Record<string, FileChecksum>): Record<string, string> {
  const folders = new Set(Object.keys(inputs).filter((k) => !k.startsWith(ARTIFACT_PREFIX)).map((k) => dirname(k)));
  return Object.fromEntries([...folders].sort().map((f) => [f, folderListing(dataDir, f)]));
}

function currentChecksum(ctx: FingerprintContext, input: string): FileChecksum | undefined {
  if (input.startsWith(ARTIFACT_PREFIX)) {
    if (!ctx.artifactsDir) return undefined;
    const cur = join(ctx.artifactsDir, "current");
    if (!existsSync(cur)) return undefined;
    return readManifest(realpathSync(cur)).artifacts[input.slice(ARTIFACT_PREFIX.length)];
  }
  const path = join(ctx.dataDir, input);
  if (!existsSync(path)) return undefined;
  const bytes = readFileSync(path);
  return { bytes: bytes.length, sha256: sha256Bytes(bytes) };
}

export function writeInputsFingerprint(root: string, ctx: FingerprintContext, fp: Omit<InputsFingerprint, "folders">): void {
  const body: InputsFingerprint = { ...fp, folders: foldersOf(ctx.dataDir, fp.inputs) };
  const tmp = join(root, `${FINGERPRINT_FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify(body, null, 2) + "\n");
  renameSync(tmp, join(root, FINGERPRINT_FILE));
}

/** Why the snapshot under `root` must be built, or undefined when its current version is up to date. */
export function staleReason(root: string, ctx: FingerprintContext, code: string): string | undefined {
  const downloads = Object.keys(ctx.env).filter((k) => k.startsWith("FEED_URL_") && ctx.env[k]);
  if (downloads.length) return `feed downloads configured (${downloads.join(", ")})`;
  const cur = join(root, "current");
  const file = join(root, FINGERPRINT_FILE);
  if (!existsSync(cur) || !existsSync(file)) return "not built before";
  let fp: InputsFingerprint;
  let version: string;
  try {
    fp = JSON.parse(readFileSync(file, "utf8")) as InputsFingerprint;
    version = readManifest(realpathSync(cur)).version;
  } catch (err) {
    return `unreadable fingerprint or manifest: ${(err as Error).message}`;
  }
  if (fp.version !== version) return "the fingerprint describes another version";
  if (fp.code !== code) return "code changed";
  for (const [input, was] of Object.entries(fp.inputs ?? {})) {
    const now = currentChecksum(ctx, input);
    if (now?.sha256 !== was.sha256 || now.bytes !== was.bytes) return `${input} changed`;
  }
  const folders = foldersOf(ctx.dataDir, fp.inputs ?? {});
  for (const [folder, listing] of Object.entries(folders)) if (fp.folders?.[folder] !== listing) return `files added or removed in ${folder}`;
  return undefined;
}
