// ETags of files read from disk, made from the file as it is when answered:
// - contentEtag: the file's SHA-256 (strong, equal to the manifest's checksum while the file is intact), hashed
//   again whenever the file's identity, size, mtime or ctime changed since it was last hashed;
// - statEtag: from identity, size, mtime and ctime alone (strong, as nginx's), for files too large to hash.
// Either way a file edited in place gets a new tag (and an export whose tag is not its manifest checksum is refused
// by its route, routes/exports.ts). A change between this stat and `send`'s own is not seen:
// that answer carries the previous tag (the window is one stat call).
import { createHash } from "node:crypto";
import { createReadStream, type Stats } from "node:fs";

const MAX_CACHED = 256;
const hashed = new Map<string, { key: string; etag: string }>();

function statKey(s: Stats): string {
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
}

export function statEtag(_path: string, s: Stats): string {
  return `"${createHash("sha1").update(statKey(s)).digest("base64url").slice(0, 22)}"`;
}

export async function contentEtag(path: string, s: Stats): Promise<string> {
  const key = statKey(s);
  const hit = hashed.get(path);
  if (hit?.key === key) return hit.etag;
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  const etag = `"${hash.digest("hex")}"`;
  if (hashed.size >= MAX_CACHED) hashed.clear();
  hashed.set(path, { key, etag });
  return etag;
}
