// Types of the negotiator 1.x calls used here (@types/negotiator describes 0.6, without the `preferred` option).
declare module "negotiator" {
  export default class Negotiator {
    constructor(req: { headers: Record<string, string | string[] | undefined> });
    /** `available` that the request accepts (q > 0), best first; at equal q in the order of `preferred`. */
    encodings(available?: readonly string[], options?: { preferred?: readonly string[] }): string[];
  }
}
