// Headers that keep browsers from misreading or framing our responses: X-Content-Type-Options: nosniff on every
// response, and a Content-Security-Policy with frame-ancestors 'none' (no clickjacking of the map page or /docs,
// no JSON rendered inside someone else's frame). Pages with their own policy (the map page, /docs) set it with
// withFrameAncestors(), which appends frame-ancestors 'none'.
import type { ServerResponse } from "node:http";

export const NOSNIFF = "nosniff";
export const FRAME_ANCESTORS_NONE = "frame-ancestors 'none'";

/** `policy` with frame-ancestors 'none' added unless it already says something about frame-ancestors. */
export function withFrameAncestors(policy: string): string {
  return /(^|;)\s*frame-ancestors\s/i.test(policy) ? policy : `${policy}; ${FRAME_ANCESTORS_NONE}`;
}

/**
 * Every response's two headers, set as they are: a page with its own policy (the map page, /docs) writes its policy
 * through withFrameAncestors() itself. No per-request wrapper: this runs on every request (bench/http-pinned.bench.ts).
 */
export function applySecurityHeaders(res: ServerResponse): void {
  res.setHeader("X-Content-Type-Options", NOSNIFF);
  res.setHeader("Content-Security-Policy", FRAME_ANCESTORS_NONE);
}
