// A pmtiles `Source` over a local file (positioned reads) or an in-memory buffer, for the server and tests.
import { open, type FileHandle } from "node:fs/promises";
import type { RangeResponse, Source } from "pmtiles";

export class BufferSource implements Source {
  constructor(
    private readonly bytes: Uint8Array,
    private readonly key = "buffer",
  ) {}
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const slice = this.bytes.slice(offset, offset + length);
    return { data: slice.buffer };
  }
  getKey(): string {
    return this.key;
  }
}

export class LocalFileSource implements Source {
  private handle: Promise<FileHandle> | undefined;
  constructor(readonly path: string) {}
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    this.handle ??= open(this.path, "r");
    const fh = await this.handle;
    const buf = new Uint8Array(length);
    const { bytesRead } = await fh.read(buf, 0, length, offset);
    return { data: buf.buffer.slice(0, bytesRead) };
  }
  getKey(): string {
    return this.path;
  }
  async close(): Promise<void> {
    if (this.handle) await (await this.handle).close();
    this.handle = undefined;
  }
}
