// The common start of the project's binary formats (event index, footprint index): a u32 magic, a u32 format
// version, a u32 header length and the header as JSON, padded to 8 bytes so the typed arrays after it are aligned.

export const pad8 = (n: number) => (n + 7) & ~7;

/** A buffer of the header plus `bodyBytes`, the header written; `off` is where the body starts. */
export function jsonHeaded(magic: number, version: number, header: unknown, bodyBytes: number): { out: Uint8Array; off: number } {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const off = pad8(12 + json.length);
  const out = new Uint8Array(off + bodyBytes);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, magic, true);
  dv.setUint32(4, version, true);
  dv.setUint32(8, json.length, true);
  out.set(json, 12);
  return { out, off };
}
