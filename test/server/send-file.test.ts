// sendDiskFile's ending when `send` fails (issue 39, item 3): before the status line the error goes to the error
// handler (the envelope); after it the connection is destroyed, so a client sees a failed transfer, never a short body
// that ends as if it were the whole file.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NextFunction, Request, Response } from "express";
import { describe, expect, it, vi } from "vitest";
import { sendDiskFile } from "../../server/http/send-file.ts";

function fakeExchange(headersSentWhenFailing: boolean) {
  const readError = Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" });
  const res = {
    headersSent: false,
    setHeader: vi.fn(),
    status: vi.fn(() => res),
    end: vi.fn(),
    destroy: vi.fn(),
    sendFile: vi.fn((_path: string, _opts: unknown, done: (err?: Error) => void) => {
      res.headersSent = headersSentWhenFailing;
      done(readError);
    }),
  };
  const next = vi.fn();
  return { req: { headers: {} } as unknown as Request, res, next, readError };
}

describe("sendDiskFile when the file cannot be read", () => {
  const path = join(mkdtempSync(join(tmpdir(), "send-file-")), "f.bin");
  writeFileSync(path, "bytes");
  const file = { path, contentType: "application/octet-stream", etag: () => '"x"', cacheControl: "no-cache" };

  it("after the answer began: the connection is destroyed, nothing else is written", async () => {
    const { req, res, next, readError } = fakeExchange(true);
    await sendDiskFile(req, res as unknown as Response, next as NextFunction, file);
    expect(res.destroy).toHaveBeenCalledWith(readError);
    expect(next).not.toHaveBeenCalled();
    expect(res.end).not.toHaveBeenCalled();
  });

  it("before it began: the error handler answers (500 in the envelope)", async () => {
    const { req, res, next, readError } = fakeExchange(false);
    await sendDiskFile(req, res as unknown as Response, next as NextFunction, file);
    expect(next).toHaveBeenCalledWith(readError);
    expect(res.destroy).not.toHaveBeenCalled();
  });
});
