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
  // Old-style constructors: a class's prototype cannot be replaced, and Node's own constructors are functions that
  // run on any `this` (IncomingMessage calls Readable, ServerResponse calls OutgoingMessage).
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
