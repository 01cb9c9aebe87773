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
