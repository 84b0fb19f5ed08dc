// Node's request and response classes built with Express's prototypes already in place (issue 38).
// Express's app.handle sets every request's and response's prototype to app.request and app.response
// (Object.setPrototypeOf). On objects built as plain IncomingMessage and ServerResponse that moves each of them to a
// new hidden class, and the property caches of Node's, Express's and our code on req and res stop hitting: a perf
// profile of GET drought (bench/RESULTS.md, 2026-11-29) put ~80 µs of ~250 µs a request in V8's property lookups.
// Built from these classes, req and res already have the prototype Express sets, so its setPrototypeOf changes nothing.
import { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** What Express gives: the app's request and response prototypes (app.request, app.response). */
export interface ExpressPrototypes {
  request: object;
  response: object;
}

/** The node:http server options (IncomingMessage, ServerResponse) whose objects have the app's prototypes. */
export function expressMessageClasses(app: ExpressPrototypes): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  // Express's prototypes inherit Node's; were they not to, Readable's constructor would answer a new object of its own
  // for `this` (not an instance) and the request built here would be left half made.
  if (!(app.request instanceof IncomingMessage) || !(app.response instanceof ServerResponse)) {
    throw new Error("the app's request and response prototypes must inherit node:http's IncomingMessage and ServerResponse");
  }
  // Old-style constructors: a class's prototype cannot be replaced. Node's IncomingMessage and ServerResponse are
  // plain functions that initialise any `this` inheriting their prototypes (they call Readable and OutgoingMessage).
  // Their parameters as Node 20 and 22 call them (_http_common.js, _http_server.js), named: no rest array a request.
  const incoming = IncomingMessage as unknown as (this: object, socket: Socket) => void;
  const outgoing = ServerResponse as unknown as (this: object, req: IncomingMessage, options?: object) => void;
  function Request(this: object, socket: Socket) {
    incoming.call(this, socket);
  }
  Request.prototype = app.request;
  function Response(this: object, req: IncomingMessage, options?: object) {
    outgoing.call(this, req, options);
  }
  Response.prototype = app.response;
  return { IncomingMessage: Request as unknown as typeof IncomingMessage, ServerResponse: Response as unknown as typeof ServerResponse };
}
