// Header-level checks before routing, on what Node's parser lets through:
// - an HTTP/1.1 request without Host, or with more than one Host field → 400 BAD_REQUEST (RFC 9112 §3.2); Node
//   keeps only the first Host in req.headers, so duplicates are counted in req.rawHeaders;
// - an Expect other than 100-continue → 417 EXPECTATION_FAILED (RFC 9110 §10.1.1). Node answers those itself
//   with a bare 417 unless the server has a 'checkExpectation' listener: serve.ts hands them to the app, which
//   answers here, in the envelope and with the usual headers.
import type { IncomingMessage } from "node:http";
import { ApiError } from "../errors.ts";

function hostFields(req: IncomingMessage): number {
  let n = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].length === 4 && req.rawHeaders[i].toLowerCase() === "host") n++;
  return n;
}

/** The error for a request whose headers are refused before routing, or undefined. */
export function headerProblem(req: IncomingMessage): ApiError | undefined {
  const hosts = hostFields(req);
  if (hosts === 0 && req.httpVersion === "1.1") return new ApiError("BAD_REQUEST", "HTTP/1.1 requests need a Host header");
  if (hosts > 1) return new ApiError("BAD_REQUEST", "A request must have exactly one Host header", { hostFields: hosts });
  const expect = req.headers.expect;
  if (expect !== undefined && expect.trim().toLowerCase() !== "100-continue") {
    return new ApiError("EXPECTATION_FAILED", "Only the expectation 100-continue is supported", { received: expect, supported: ["100-continue"] });
  }
  return undefined;
}
