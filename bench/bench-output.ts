// What `make bench` keeps of a bench's stdout: the results (a markdown table or text), without the log lines its
// services write there (pino's JSON lines), which go to stderr instead.

/** Splits a bench's stdout into its results and its log lines. */
export function splitBenchOutput(stdout: string): { results: string; logs: string[] } {
  const lines = stdout.split("\n");
  const isLog = (l: string) => /^\{"level":\d+,/.test(l);
  return { results: lines.filter((l) => !isLog(l)).join("\n").trim(), logs: lines.filter(isLog) };
}

/** One section of bench/RESULTS.md: its title, and its text from "## title" on. */
export interface BenchSection {
  title: string;
  text: string;
}

/**
 * bench/RESULTS.md after a partial run (`npx tsx bench/run.ts feeds geo`): the sections measured now replace their
 * earlier text, the others keep theirs (each section names the day it was measured), in the order of `order`; the
 * header, notes about the machine included, is kept as it was. (A section with a title `order` lacks was once dropped.)
 */
export function mergeResults(old: string, measured: BenchSection[], order: string[]): string {
  const parts = old.split(/\n(?=## )/);
  const byTitle = new Map(parts.slice(1).map((p) => [p.slice(3, p.indexOf("\n")), p.trimEnd()]));
  for (const s of measured) byTitle.set(s.title, s.text.trimEnd());
  // A section whose title is not in `order` (renamed by hand, or a bench since removed) stays, after the others.
  const titles = [...order.filter((t) => byTitle.has(t)), ...[...byTitle.keys()].filter((t) => !order.includes(t))];
  return `${parts[0].trimEnd()}\n\n${titles.map((t) => byTitle.get(t)!).join("\n\n")}\n`;
}
