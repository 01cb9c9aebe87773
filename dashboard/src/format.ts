/** Dates and numbers in the page language (i18next's), for tables and details. */
import { i18n } from './i18n';

export function formatDateTime(iso: string | null | undefined, withSeconds = false): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: withSeconds ? 'medium' : 'short' }).format(date);
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat(i18n.language).format(value);
}

/** A UTC calendar day (`YYYY-MM-DD`, the traffic figures' days) as a short date: "18 May". */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(date);
}

/** A share (0.25) as a whole percentage in the page language ("25%"); "—" when there is nothing to divide. */
export function formatShare(part: number, whole: number): string {
  if (whole <= 0) return '—';
  return new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }).format(part / whole);
}

/** A duration in milliseconds ("120 ms"); "—" when unknown. */
export function formatMilliseconds(ms: number | null): string {
  if (ms === null) return '—';
  return new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'millisecond', unitDisplay: 'short' }).format(ms);
}

/** Items as a list in the page language ("a, b and c"). */
export function formatList(items: string[]): string {
  return new Intl.ListFormat(i18n.language, { style: 'long', type: 'conjunction' }).format(items);
}
