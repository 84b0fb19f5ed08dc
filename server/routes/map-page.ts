// The map page at `/` and its files under /map/ (server/public/, plain ES modules served as they are; MapLibre GL JS
// from node_modules, no outside network).
import { dirname, join, resolve } from "node:path";
import { createRequire } from "node:module";
import express, { type Response, type Router } from "express";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { withFrameAncestors } from "../http/security-headers.ts";

// The page's files stay in the source tree (the compiled build in dist/ has only JavaScript).
const PUBLIC_DIR = resolve(PROJECT_ROOT, "server", "public");

/** The map page at `/` and its assets under /map/ (MapLibre GL JS from node_modules; no outside network). */
export function createMapPageRouter(): Router {
  const router = express.Router();
  const maplibreDir = dirname(createRequire(import.meta.url).resolve("maplibre-gl/dist/maplibre-gl.css"));
  const js = (res: Response, path: string) => {
    if (path.endsWith(".mjs") || path.endsWith(".js")) res.setHeader("Content-Type", "text/javascript; charset=utf-8");
  };
  router.use("/map", (_req, res, next) => {
    res.locals.route ??= "/map";
    next();
  });
  router.get("/", (_req, res) => {
    res.locals.route ??= "/";
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Cache-Control", "no-cache");
    res.setHeader("Content-Security-Policy", withFrameAncestors("default-src 'self'; img-src 'self' data: blob:; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'"));
    res.sendFile(join(PUBLIC_DIR, "index.html"));
  });
  router.use("/map/vendor/maplibre-gl", express.static(maplibreDir, { index: false, setHeaders: js, maxAge: "1d" }));
  router.use("/map", express.static(PUBLIC_DIR, { index: false, setHeaders: js }));
  return router;
}
