// A POSIX ustar archive written here (header fields as IEEE 1003.1-1988 lays them out), for the tests of the tar
// reader and of the sources that download one. Names up to 100 characters, regular files only.
export function ustar(files: [name: string, data: string | Uint8Array][]): Uint8Array {
  const blocks: Uint8Array[] = [];
  const put = (h: Uint8Array, at: number, s: string) => h.set(new TextEncoder().encode(s), at);
  for (const [name, content] of files) {
    const data = typeof content === "string" ? new TextEncoder().encode(content) : content;
    const h = new Uint8Array(512);
    put(h, 0, name);
    put(h, 100, "0000644\0");
    put(h, 108, "0000000\0");
    put(h, 116, "0000000\0");
    put(h, 124, data.length.toString(8).padStart(11, "0") + "\0");
    put(h, 136, "00000000000\0");
    put(h, 148, "        ");
    h[156] = 0x30;
    put(h, 257, "ustar\x0000");
    const sum = h.reduce((a, b) => a + b, 0);
    put(h, 148, sum.toString(8).padStart(6, "0") + "\0 ");
    blocks.push(h);
    const padded = new Uint8Array(Math.ceil(data.length / 512) * 512);
    padded.set(data);
    blocks.push(padded);
  }
  blocks.push(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}
