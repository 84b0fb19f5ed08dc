// The app's last handler: one error envelope for everything, never HTML, never a stack.
// ApiErrors are answered as they are. Errors of the libraries that speak http-errors (`send` inside
// res.sendFile and express.static, Express's own 400s) carry a 4xx status: those are the client's, answered in
// the envelope with the matching code (412 a failed If-Match / If-Unmodified-Since, 416 a Range outside the file,
// with send's Content-Range), not logged as errors. Anything else is 500 INTERNAL_ERROR, logged with its stack.
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../../lib/log.ts";
import { ApiError, ClientAbortedError } from "../errors.ts";
import { sendError } from "./respond.ts";

interface HttpLibraryError extends Error {
  status?: unknown;
  headers?: Record<string, string>;
}

/** The ApiError for a library's 4xx (http-errors), or undefined for anything else. */
export function libraryErrorAnswer(err: unknown): ApiError | undefined {
  if (!(err instanceof Error)) return undefined;
  const e = err as HttpLibraryError;
  switch (e.status) {
    case 400:
      // e.g. a path parameter that is not valid percent-encoding
      return new ApiError("BAD_REQUEST", "Malformed request", { reason: e.message });
    case 403:
    case 404:
      // send refuses a dotfile (403) or finds no file (404): for the client, there is nothing there
      return new ApiError("NOT_FOUND", "No such file");
    case 412:
      return new ApiError("PRECONDITION_FAILED", "A precondition of the request (If-Match or If-Unmodified-Since) does not hold for the current file");
    case 416:
      return new ApiError("RANGE_NOT_SATISFIABLE", "The requested range is outside the file", { contentRange: e.headers?.["Content-Range"] ?? null });
    default:
      return undefined;
  }
}

export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    // Express's res.sendFile reports a client that went away before the file was sent as ECONNABORTED ("Request
    // aborted"): nobody is left to answer, and it is not a fault of the server.
    if (res.headersSent || err instanceof ClientAbortedError || (err as { code?: unknown } | null)?.code === "ECONNABORTED") {
      // Nobody to answer (the app's "close" listener logs an aborted request), or an answer already under way.
      res.destroy();
      return;
    }
    if (err instanceof ApiError) return sendError(req, res, err);
    const answer = libraryErrorAnswer(err);
    if (answer !== undefined) {
      const range = (err as HttpLibraryError).headers?.["Content-Range"];
      return sendError(req, res, answer, range === undefined ? {} : { "Content-Range": range });
    }
    logger.error({ err, method: req.method, path: req.path }, "unhandled error");
    sendError(req, res, new ApiError("INTERNAL_ERROR", "Unexpected server error"));
  };
}
