// Answers for failures that Node's HTTP parser or its timers detect before any handler runs (the server's
// 'clientError' event): malformed request line or headers → 400 BAD_REQUEST, headers over the size limit → 431
// HEADERS_TOO_LARGE, request or headers not complete in time → 408 REQUEST_TIMEOUT. Node's own answers have empty
// bodies; ours are the error envelope. The connection is closed after the answer: the parser state is lost.
import { maxHeaderSize, STATUS_CODES, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError, errorEnvelope } from "../errors.ts";
import type { Logger } from "../../lib/log.ts";
import { isUntimed } from "./long-request.ts";
import { FRAME_ANCESTORS_NONE, NOSNIFF } from "./security-headers.ts";

const CLOSE_AFTER_MS = 2_000;

/** The error to report for a client error code, or undefined when the socket itself failed (nobody to answer). */
export function clientErrorAnswer(code: string | undefined): ApiError | undefined {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new ApiError("HEADERS_TOO_LARGE", `Request headers exceed ${maxHeaderSize} bytes`, { limitBytes: maxHeaderSize });
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError("REQUEST_TIMEOUT", "Request was not received completely in time");
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return new ApiError("PAYLOAD_TOO_LARGE", "Chunk extensions too large");
    default:
      // Parser errors are HPE_*; anything else (ECONNRESET, EPIPE, …) is a broken socket.
      return code?.startsWith("HPE_") ? new ApiError("BAD_REQUEST", "Malformed HTTP request", { reason: code }) : undefined;
  }
}

/** The raw HTTP/1.1 response carrying `err` in the envelope, with Connection: close. */
export function rawErrorResponse(err: ApiError): string {
  const body = JSON.stringify(errorEnvelope(err));
  return (
    `HTTP/1.1 ${err.status} ${STATUS_CODES[err.status]}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Connection: close\r\n" +
    "Access-Control-Allow-Origin: *\r\n" +
    `X-Content-Type-Options: ${NOSNIFF}\r\n` +
    `Content-Security-Policy: ${FRAME_ANCESTORS_NONE}\r\n` +
    "\r\n" +
    body
  );
}

/** The server's 'clientError' listener. */
export function onClientError(err: NodeJS.ErrnoException, socket: Duplex, logger: Logger): void {
  // A bulk upload is bound by inactivity, not by the request timeout (long-request.ts).
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT" && isUntimed(socket)) return;
  const answer = clientErrorAnswer(err.code);
  // A response already under way on this connection cannot be replaced by another one.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (answer === undefined || !socket.writable || inFlight?.headersSent) {
    logger.debug({ code: err.code }, "connection error");
    socket.destroy();
    return;
  }
  logger.info({ code: err.code, status: answer.status }, "client error");
  socket.end(rawErrorResponse(answer), () => socket.destroy());
  // A peer that does not read could keep the answer from ever flushing: close anyway after a short while.
  setTimeout(() => socket.destroy(), CLOSE_AFTER_MS).unref();
}
