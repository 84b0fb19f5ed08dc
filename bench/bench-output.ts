// What `make bench` keeps of a bench's stdout: the results (a markdown table or text), without the log lines its
// services write there (pino's JSON lines), which go to stderr instead.

/** Splits a bench's stdout into its results and its log lines. */
export function splitBenchOutput(stdout: string): { results: string; logs: string[] } {
  const lines = stdout.split("\n");
  const isLog = (l: string) => /^\{"level":\d+,/.test(l);
  return { results: lines.filter((l) => !isLog(l)).join("\n").trim(), logs: lines.filter(isLog) };
}
