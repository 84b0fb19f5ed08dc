// The API server builds its requests and responses with Express's prototypes already in place (http/express-messages.ts,
// through serve.ts listen): Node's own listener sees them before Express does, and they still behave as Node's.
import { Agent, get, IncomingMessage, ServerResponse } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningServer } from "../../server/serve.ts";
import { expressMessageClasses } from "../../server/http/express-messages.ts";
import { silent } from "./helpers.ts";

describe("requests and responses built with the app's prototypes", () => {
  const app = express();
  app.get("/echo", (req, res) => {
    res.json({ q: req.query.q, path: req.path, ip: req.ip });
  });
  // Each response its own res.locals (Express makes it per object; nothing on the shared prototype).
  app.get("/locals", (req, res) => {
    res.locals.id = req.query.id;
    setTimeout(() => res.send(String(res.locals.id)), 20);
  });
  app.post("/count", (req, res) => {
    let bytes = 0;
    req.on("data", (chunk: Buffer) => (bytes += chunk.length));
    req.on("end", () => res.status(201).send(String(bytes)));
  });
  let running: RunningServer;
  let base: string;
  const seen: { request: boolean; response: boolean; incoming: boolean; outgoing: boolean }[] = [];
  const sockets: unknown[] = [];

  beforeAll(async () => {
    running = await listen(app, { port: 0, host: "127.0.0.1", logger: silent });
    base = `http://127.0.0.1:${running.port}`;
    // Runs before Express's handler: what Node built, before app.handle's Object.setPrototypeOf.
    running.server.prependListener("request", (req, res) => {
      sockets.push(req.socket);
      seen.push({
        request: Object.getPrototypeOf(req) === app.request,
        response: Object.getPrototypeOf(res) === app.response,
        incoming: req instanceof IncomingMessage,
        outgoing: res instanceof ServerResponse,
      });
    });
  });
  afterAll(() => running.shutdown());

  it("has Express's prototypes before Express sees it, and is still Node's IncomingMessage and ServerResponse", async () => {
    seen.length = 0;
    const res = await fetch(`${base}/echo?q=drought`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ q: "drought", path: "/echo", ip: "127.0.0.1" });
    expect(seen).toEqual([{ request: true, response: true, incoming: true, outgoing: true }]);
  });

  it("reads request bodies, answers HEAD without a body, and serves several requests on one keep-alive connection", async () => {
    seen.length = 0;
    const posted = await fetch(`${base}/count`, { method: "POST", body: "x".repeat(100_000) });
    expect(posted.status).toBe(201);
    expect(await posted.text()).toBe("100000");
    const head = await fetch(`${base}/echo?q=a`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await head.text()).toBe("");
    // Three requests through an agent of one kept-alive connection.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const getJson = (path: string) =>
      new Promise<{ q: string }>((resolve, reject) => {
        get(base + path, { agent }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve(JSON.parse(text) as { q: string }));
        }).on("error", reject);
      });
    sockets.length = 0;
    for (let i = 0; i < 3; i++) expect((await getJson(`/echo?q=${i}`)).q).toBe(String(i));
    agent.destroy();
    expect(seen).toHaveLength(5);
    expect(seen.every((s) => s.request && s.response && s.incoming && s.outgoing)).toBe(true);
    expect(sockets).toHaveLength(3);
    expect(new Set(sockets).size).toBe(1); // one kept-alive connection: each request on it was built this way
  });

  it("keeps each request's res.locals its own while requests overlap", async () => {
    const answers = await Promise.all(["a", "b", "c", "d", "e"].map(async (id) => (await fetch(`${base}/locals?id=${id}`)).text()));
    expect(answers).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("builds objects of a second app with that app's prototypes", () => {
    const other = express();
    const { IncomingMessage: Request, ServerResponse: Response } = expressMessageClasses(other);
    expect(Request.prototype).toBe(other.request);
    expect(Response.prototype).toBe(other.response);
  });

  it("refuses prototypes that do not inherit node:http's (the constructors would leave such objects half made)", () => {
    expect(() => expressMessageClasses({ request: {}, response: app.response })).toThrow("must inherit node:http's IncomingMessage and ServerResponse");
    expect(() => expressMessageClasses({ request: app.request, response: {} })).toThrow("must inherit node:http's IncomingMessage and ServerResponse");
  });
});
