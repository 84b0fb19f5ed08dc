// Headers that keep browsers from misreading or framing our responses: X-Content-Type-Options: nosniff on every
// response, and a Content-Security-Policy with frame-ancestors 'none' (no clickjacking of the map page or /docs,
// no JSON rendered inside someone else's frame). Pages with their own policy (the map page, /docs) keep it:
// frame-ancestors 'none' is appended to whatever policy a later handler sets.
import type { ServerResponse } from "node:http";

export const NOSNIFF = "nosniff";
export const FRAME_ANCESTORS_NONE = "frame-ancestors 'none'";

/** `policy` with frame-ancestors 'none' added unless it already says something about frame-ancestors. */
export function withFrameAncestors(policy: string): string {
  return /(^|;)\s*frame-ancestors\s/i.test(policy) ? policy : `${policy}; ${FRAME_ANCESTORS_NONE}`;
}

export function applySecurityHeaders(res: ServerResponse): void {
  res.setHeader("X-Content-Type-Options", NOSNIFF);
  res.setHeader("Content-Security-Policy", FRAME_ANCESTORS_NONE);
  // Routers we do not own (the map page) set their own policy after this: keep framing forbidden in it.
  const setHeader = res.setHeader;
  res.setHeader = function (this: ServerResponse, name: string, value: number | string | readonly string[]) {
    const csp = name.toLowerCase() === "content-security-policy" && typeof value === "string";
    return setHeader.call(this, name, csp ? withFrameAncestors(value) : value);
  };
}
