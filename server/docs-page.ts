// /docs: the OpenAPI document rendered by Redoc (a maintained renderer; its standalone bundle is served from
// node_modules at REDOC_BUNDLE_PATH, no CDN), with a plain HTML rendering of every operation inside <noscript> for
// clients without JavaScript (curl, text browsers, screen readers that skip scripts).
import { createRequire } from "node:module";

/** Where the page loads Redoc from, and the file served there. */
export const REDOC_BUNDLE_PATH = "/docs/redoc.standalone.js";
export const REDOC_BUNDLE_FILE = createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");

/** The page's Content-Security-Policy: Redoc's script and its inline styles, the document fetched from here. */
export const DOCS_CSP = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; worker-src blob:";
interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}
interface Operation {
  summary?: string;
  description?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: unknown }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function schemaBlock(schema: unknown): string {
  return `<details><summary>schema</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`;
}

function operationHtml(path: string, method: string, op: Operation): string {
  const parts = [`<h2 id="${escapeHtml(method + path)}"><code>${method.toUpperCase()} ${escapeHtml(path)}</code></h2>`];
  if (op.summary) parts.push(`<p><strong>${escapeHtml(op.summary)}</strong></p>`);
  if (op.description) parts.push(`<p>${escapeHtml(op.description)}</p>`);
  if (op.parameters?.length) {
    parts.push("<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Schema</th><th>Description</th></tr>");
    for (const p of op.parameters) {
      parts.push(
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? "yes" : "no"}</td>` +
          `<td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td><td>${escapeHtml(p.description ?? "")}</td></tr>`,
      );
    }
    parts.push("</table>");
  }
  if (op.requestBody) {
    for (const [type, { schema }] of Object.entries(op.requestBody.content)) {
      parts.push(`<h3>Request body (${escapeHtml(type)})</h3>${schemaBlock(schema)}`);
    }
  }
  parts.push("<h3>Responses</h3><ul>");
  for (const [status, r] of Object.entries(op.responses)) {
    parts.push(`<li><code>${escapeHtml(status)}</code> ${escapeHtml(r.description)}`);
    for (const [type, { schema }] of Object.entries(r.content ?? {})) parts.push(`<div>${escapeHtml(type)} ${schemaBlock(schema)}</div>`);
    parts.push("</li>");
  }
  parts.push("</ul>");
  return parts.join("\n");
}

export function renderDocsPage(doc: OpenApiDoc): string {
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
  const toc = ops
    .map(({ path, method }) => `<li><a href="#${escapeHtml(method + path)}"><code>${method.toUpperCase()} ${escapeHtml(path)}</code></a></li>`)
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)}</title><link rel="icon" href="data:,">
<style>
body{margin:0}noscript{display:block;font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f5f5f5;padding:.5rem;overflow:auto}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left;vertical-align:top}
h2{border-top:1px solid #ddd;padding-top:1rem}
</style></head><body>
<redoc spec-url="/openapi.json" hide-download-button="false" expand-responses="200" path-in-middle-panel="true"></redoc>
<noscript>
<h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>
<p>${escapeHtml(doc.info.description ?? "")}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<ul>${toc}</ul>
${ops.map(({ path, method, op }) => operationHtml(path, method, op)).join("\n")}
</noscript>
<script src="${REDOC_BUNDLE_PATH}"></script>
</body></html>
`;
}
