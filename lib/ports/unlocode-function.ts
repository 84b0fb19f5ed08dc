// UN/LOCODE function classifier (UNECE Recommendation 16, "Function" column): eight positions, each holding its
// digit when the location has that function ("1-3-----" = port and road terminal, "---4----" = airport).
const FUNCTION_NAMES: Record<string, string> = {
  "0": "function not known",
  "1": "port",
  "2": "rail terminal",
  "3": "road terminal",
  "4": "airport",
  "5": "postal exchange office",
  "6": "multimodal function",
  "7": "fixed transport function",
  B: "border crossing",
};

/** The functions a classifier names, e.g. "12345---" → port, rail terminal, road terminal, airport, postal exchange office. */
export function unlocodeFunctionNames(fn: string): string[] {
  const out: string[] = [];
  for (const ch of fn) {
    const name = FUNCTION_NAMES[ch];
    if (name !== undefined) out.push(name);
  }
  return out;
}
