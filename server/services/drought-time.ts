// The months of a drought answer: the month asked for or the default, a range clamped to the record, a span's period, asOf and currency.
import { NotFoundError } from "../errors.ts";
import { formatMonth, parseMonth, type MonthIndex } from "../../lib/months.ts";
import { currencyOf, monthsPeriod, type Currency, type Period } from "../../lib/currency.ts";
import { DAY_MS } from "../../lib/days.ts";
import type { DroughtArtifacts } from "../../formats/drought-version.ts";

/** The time fields of a drought answer (lib/currency.ts): the months it describes, as days. */
export interface DroughtTime {
  period: Period;
  asOf: string;
  currency: Currency;
}

/**
 * A cache of answer parts that carry their currency: emptied when the version served or the day changes (an answer's
 * `current` turns false at a day's start), and when it holds `max` entries.
 */
export class VersionDayCache<V> {
  private version = "";
  private day = -1;
  private readonly entries = new Map<number, V>();

  constructor(
    private readonly now: () => number,
    private readonly max: number,
  ) {}

  /** Entries kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** The entry of `key` for version `version` today, made by `make` when there is none. */
  get(version: string, key: number, make: (now: number) => V): V {
    const now = this.now();
    const day = Math.floor(now / DAY_MS);
    if (this.version !== version || this.day !== day) {
      this.version = version;
      this.day = day;
      this.entries.clear();
    }
    let v = this.entries.get(key);
    if (v === undefined) {
      // Full: start again (a hit never empties it).
      if (this.entries.size >= this.max) this.entries.clear();
      this.entries.set(key, (v = make(now)));
    }
    return v;
  }
}

/** Time fields per month span, for one version and one day (a drought answer's period is a few fields, not a lookup). */
export class DroughtTimes {
  private readonly bySpan: VersionDayCache<DroughtTime>;

  constructor(now: () => number) {
    this.bySpan = new VersionDayCache(now, 10_000);
  }

  /** The period of the months lo..hi, its last day as asOf and whether it is current (a monthly series). */
  of(a: DroughtArtifacts, lo: number, hi: number): DroughtTime {
    return this.bySpan.get(a.version, lo * 65_536 + hi, (now) => {
      const period = monthsPeriod(formatMonth(lo), formatMonth(hi));
      return { period, asOf: period.to, currency: currencyOf(period.to, "monthly", now) };
    });
  }
}

/** Month of a province or choropleth request: the given YYYY-MM (already validated) or the latest valid month. */
export function requestedMonth(a: DroughtArtifacts, month: string | undefined): MonthIndex {
  return month === undefined ? a.defaultMonth : (parseMonth(month) as MonthIndex);
}

/** The months [from, to] clamped to the record, or a 404 naming the record's span. */
export function monthRange(first: MonthIndex, last: MonthIndex, from: string | undefined, to: string | undefined): [MonthIndex, MonthIndex] {
  const lo = Math.max(first, from === undefined ? first : (parseMonth(from) as MonthIndex));
  const hi = Math.min(last, to === undefined ? last : (parseMonth(to) as MonthIndex));
  if (lo > hi) {
    throw new NotFoundError(`no drought data from ${from ?? formatMonth(first)} to ${to ?? formatMonth(last)}: the record covers ${formatMonth(first)} to ${formatMonth(last)}`, {
      from: from ?? null,
      to: to ?? null,
      coverage: { from: formatMonth(first), to: formatMonth(last) },
    });
  }
  return [lo, hi];
}
