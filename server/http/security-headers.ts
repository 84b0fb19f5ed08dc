// Headers that keep browsers from misreading or framing our responses: X-Content-Type-Options: nosniff on every
// response, and a Content-Security-Policy with frame-ancestors 'none' (no clickjacking of the map page or /docs,
// no JSON rendered inside someone else's frame). Pages with their own policy (the map page, /docs) set it with
// withFrameAncestors(), which appends frame-ancestors 'none'. Set on every Express response by helmet (securityHeaders).
import helmet from "helmet";

export const NOSNIFF = "nosniff";
export const FRAME_ANCESTORS_NONE = "frame-ancestors 'none'";

/** `policy` with frame-ancestors 'none' added unless it already says something about frame-ancestors. */
export function withFrameAncestors(policy: string): string {
  return /(^|;)\s*frame-ancestors\s/i.test(policy) ? policy : `${policy}; ${FRAME_ANCESTORS_NONE}`;
}

/**
 * Every response's two headers, by helmet set up to send exactly these (every other header of helmet's off; its CSP
 * string is built once). A page with its own policy (the map page, /docs) writes it through withFrameAncestors()
 * after. helmet costs 22 ns more per response than the two setHeader calls it replaced (bench/RESULTS.md "HTTP
 * plumbing"); Node's own error answers (client-error.ts) write NOSNIFF and FRAME_ANCESTORS_NONE themselves.
 */
export const securityHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: helmet.contentSecurityPolicy.dangerouslyDisableDefaultSrc, frameAncestors: ["'none'"] } },
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  referrerPolicy: false,
  strictTransportSecurity: false,
  xContentTypeOptions: true,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: false,
  xPermittedCrossDomainPolicies: false,
  xPoweredBy: false,
  xXssProtection: false,
});
