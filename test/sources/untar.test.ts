// The tar reader (pipeline/sources/untar.ts): archives written by the test's ustar writer and by GNU tar (ustar
// prefix, GNU long names, pax path records), and the refusals that keep a previous copy: cut short, bad checksum,
// no end blocks, a member over the limit, not gzip.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { untarGzMembers, untarMembers } from "../../pipeline/sources/untar.ts";
import { ustar } from "./tar-fixture.ts";

const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));
const all = () => true;

describe("untar", () => {
  it("reads the members by path, a 512-byte member and an empty one too", () => {
    const block = "x".repeat(511) + "\n";
    const tar = ustar([["d/a.txt", "alpha\n"], ["d/b.txt", block], ["d/empty", ""]]);
    const m = untarMembers(tar, all, 1e6, "t.tar");
    expect([...m.keys()]).toEqual(["d/a.txt", "d/b.txt", "d/empty"]);
    expect([text(m.get("d/a.txt")), text(m.get("d/b.txt")), text(m.get("d/empty"))]).toEqual(["alpha\n", block, ""]);
    expect([...untarMembers(tar, (p) => p.endsWith("b.txt"), 1e6, "t.tar").keys()]).toEqual(["d/b.txt"]);
  });

  it("reads what GNU tar writes: a ustar prefix, a GNU long name and a pax path", () => {
    const dir = mkdtempSync(join(tmpdir(), "untar-"));
    const deep = `${"p".repeat(90)}/${"q".repeat(60)}`;
    mkdirSync(join(dir, deep), { recursive: true });
    writeFileSync(join(dir, deep, "short.dat"), "one\n");
    writeFileSync(join(dir, "n".repeat(120) + ".inv"), "two\n");
    const read = (format: string, names = [deep, "n".repeat(120) + ".inv"]) => {
      execFileSync("tar", [`--format=${format}`, "-czf", join(dir, `${format}.tgz`), "-C", dir, ...names]);
      const m = untarGzMembers(readFileSync(join(dir, `${format}.tgz`)), all, 1e6, "t.tgz");
      return Object.fromEntries([...m].map(([k, v]) => [k, text(v)]));
    };
    const expected = { [`${deep}/short.dat`]: "one\n", ["n".repeat(120) + ".inv"]: "two\n" };
    expect(read("gnu")).toEqual(expected);
    expect(read("pax")).toEqual(expected);
    // ustar proper splits a long path into prefix and name (a name over 100 characters it cannot write at all).
    expect(read("ustar", [deep])).toEqual({ [`${deep}/short.dat`]: "one\n" });
  });

  it("refuses an archive cut short, a damaged header, missing end blocks, a member too large, not gzip", () => {
    const tar = ustar([["a.dat", "z".repeat(2000)]]);
    expect(() => untarMembers(tar.subarray(0, 1500), all, 1e6, "t.tar")).toThrow("t.tar: tar member a.dat is cut short: 988 of 2000 bytes");
    expect(() => untarMembers(tar.subarray(0, 512 + 2048), all, 1e6, "t.tar")).toThrow("t.tar: tar archive without its end blocks (truncated)");
    const bad = tar.slice();
    bad[0] = 0x62;
    expect(() => untarMembers(bad, all, 1e6, "t.tar")).toThrow("t.tar: tar header at byte 0: checksum mismatch");
    expect(() => untarMembers(tar, all, 1999, "t.tar")).toThrow("t.tar: the archive's a.dat is 2000 bytes, more than the 1999 allowed");
    const gz = gzipSync(tar);
    expect(text(untarGzMembers(gz, all, 1e6, "t.tgz").get("a.dat"))).toBe("z".repeat(2000));
    expect(() => untarGzMembers(gz.subarray(0, gz.length - 10), all, 1e6, "t.tgz")).toThrow(/^t\.tgz: not a complete gzip file/);
    expect(() => untarGzMembers(tar, all, 1e6, "t.tgz")).toThrow(/^t\.tgz: not a complete gzip file/);
  });
});
