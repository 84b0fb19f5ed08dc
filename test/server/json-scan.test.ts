// scanJson (server/http/json-scan.ts) on its own: the repeated key and its path at every nesting, escapes, objects
// past the byte-compare size (Set mode), and no false duplicate across siblings, values or closed objects.
import { describe, expect, it } from "vitest";
import { scanJson } from "../../server/http/json-scan.ts";

const scan = (text: string, depth = 32) => scanJson(Buffer.from(text, "utf8"), depth);
const dup = (path: string) => ({ reason: "duplicate_key", path });

describe("scanJson", () => {
  it("finds a repeated key and names its path", () => {
    expect(scan('{"a":1,"a":2}')).toEqual(dup("a"));
    expect(scan('{"x":[{"b":1},{"c":{"d":1,"e":2,"d":3}}]}')).toEqual(dup("x[1].c.d"));
    expect(scan('{"é":{"ü":1,"ü":1}}')).toEqual(dup("é.ü"));
  });

  it("reads escapes as JSON.parse does", () => {
    expect(scan('{"lat":1,"l\\u0061t":2}')).toEqual(dup("lat"));
    expect(scan('{"\\u00e9":1,"é":2}')).toEqual(dup("é"));
    expect(scan('{"a\\"b":1,"a\\"b":2}')).toEqual(dup('a"b'));
    expect(scan('{"a\\\\":1,"a\\\\":2}')).toEqual(dup("a\\"));
  });

  it("ignores brackets, braces, commas and escaped quotes inside strings, and counts array items past them", () => {
    expect(scan('{"a":"},{[,]\\"x","a":1}')).toEqual(dup("a"));
    expect(scan('{"a":"\\\\","b":{"a":1}}')).toBeUndefined();
    expect(scan('{"l":["],[", "x,y", {"k":1,"k":2}]}')).toEqual(dup("l[2].k"));
    expect(scan('{"é,}":1,"é,}":2}')).toEqual(dup("é,}"));
  });

  it("finds the repeat in an object of many keys, escaped or not", () => {
    const keys = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`);
    expect(scan(`{${keys.join(",")}}`)).toBeUndefined();
    expect(scan(`{${keys.join(",")},"k3":0}`)).toEqual(dup("k3"));
    expect(scan(`{${keys.join(",")},"k\\u0033":0}`)).toEqual(dup("k3"));
    expect(scan(`{"o":{${keys.join(",")}},"n":{"k39":1,"k39":2}}`)).toEqual(dup("n.k39"));
  });

  it("no duplicate across sibling or closed objects, array items or string values", () => {
    expect(scan('{"a":{"b":1},"c":{"b":2},"b":3}')).toBeUndefined();
    expect(scan('[{"lat":1},{"lat":2}]')).toBeUndefined();
    expect(scan('{"a":"a","b":["a","a"]}')).toBeUndefined();
    expect(scan('{"a":{"a":{"a":1}}}')).toBeUndefined();
  });

  it("refuses nesting past the limit, and leaves malformed text to JSON.parse", () => {
    expect(scan("[[[1]]]", 3)).toBeUndefined();
    expect(scan("[[[[1]]]]", 3)).toEqual({ reason: "too_deep" });
    expect(scan('{"a":1}}}]]')).toBeUndefined();
    expect(scan('{"\\u12":1,"\\u12":2}')).toBeUndefined();
  });
});
