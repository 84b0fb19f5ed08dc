// A gzip download of which only some lines are wanted (NOAA's GHCN-Daily by_year files: every station and element of
// a year, ~1 GB unpacked, of which the heatwave network needs the TMAX rows of a few thousand stations). The bytes are
// unpacked as a stream and split into lines as they come; only the kept lines are ever held as text.
import { createGunzip } from "node:zlib";

export async function gunzipKeptLines(bytes: Uint8Array, header: string, keep: (line: string) => boolean): Promise<Uint8Array> {
  const out: string[] = [header];
  const decoder = new TextDecoder("utf-8");
  const gunzip = createGunzip();
  gunzip.end(bytes);
  let rest = "";
  for await (const chunk of gunzip as AsyncIterable<Buffer>) {
    const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
    rest = lines.pop()!;
    for (const raw of lines) {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (keep(line)) out.push(line);
    }
  }
  rest += decoder.decode();
  if (rest !== "" && keep(rest)) out.push(rest);
  return new TextEncoder().encode(out.join("\n") + "\n");
}
