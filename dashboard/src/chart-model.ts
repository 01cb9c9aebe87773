/**
 * What each traffic chart shows (issue 23, Deliver 2), apart from how it is drawn: the categories,
 * the series and the table that carries the same figures for screen readers and keyboard users.
 * dash-chart.ts renders the table and the canvas; chart-canvas.ts (loaded on demand) draws the
 * canvas from the same spec, so the picture and the table cannot disagree.
 */
import {
  type DASHBOARD_SESSION_STATUSES,
  FUNNEL_STEPS,
  type DeliveryStateName,
  type SessionTrafficResponse,
  type WebhookTrafficResponse,
} from '@ageverify/protocol';
import { formatDay, formatList, formatMilliseconds, formatNumber, formatShare } from './format';
import { i18n } from './i18n';

/**
 * How a series looks. Each style has a colour of the Okabe–Ito palette (told apart with the common
 * colour-vision deficiencies) and a fill pattern or line dash of its own, so colour is never the
 * only carrier: the legend, the table and the order of the stack say it in words too.
 */
export const SERIES_STYLES = ['positive', 'negative', 'caution', 'expired', 'pending', 'primary', 'secondary'] as const;
export type SeriesStyle = (typeof SERIES_STYLES)[number];

export interface ChartSeries {
  label: string;
  style: SeriesStyle;
  /** One per category; null where there is no value (drawn as a gap, shown as "—"). */
  values: Array<number | null>;
}

export interface ChartSpec {
  /** Bars stacked per category, bars side by side (horizontal for a funnel), or lines. */
  kind: 'stacked-bars' | 'bars' | 'lines';
  horizontal: boolean;
  title: string;
  /** One sentence with the figures that matter, part of the canvas's accessible name. */
  summary: string;
  categoryLabel: string;
  categories: string[];
  valueLabel: string;
  series: ChartSeries[];
  /** How values are written in the table and the tooltips. */
  unit: 'count' | 'milliseconds';
  /** Columns only the table shows, one text per category (e.g. a share). */
  extraColumns: Array<{ label: string; cells: string[] }>;
  /** Whether the table ends each row with the sum of the series. */
  rowTotals: boolean;
}

export interface ChartTable {
  caption: string;
  columns: string[];
  rows: Array<{ header: string; cells: string[] }>;
}

export function formatValue(value: number | null, unit: ChartSpec['unit']): string {
  if (value === null) return '—';
  return unit === 'milliseconds' ? formatMilliseconds(value) : formatNumber(value);
}

/** The table view of a chart: one row per category, one column per series. */
export function chartTable(spec: ChartSpec): ChartTable {
  const columns = [
    spec.categoryLabel,
    ...spec.series.map((series) => series.label),
    ...(spec.rowTotals ? [i18n.t('traffic.total')] : []),
    ...spec.extraColumns.map((column) => column.label),
  ];
  const rows = spec.categories.map((header, index) => {
    const values = spec.series.map((series) => series.values[index] ?? null);
    const total = values.reduce<number>((sum, value) => sum + (value ?? 0), 0);
    return {
      header,
      cells: [
        ...values.map((value) => formatValue(value, spec.unit)),
        ...(spec.rowTotals ? [formatValue(total, spec.unit)] : []),
        ...spec.extraColumns.map((column) => column.cells[index] ?? ''),
      ],
    };
  });
  return { caption: spec.title, columns, rows };
}

const STATUS_STYLE = { VERIFIED: 'positive', FAILED: 'negative', CANCELLED: 'caution', EXPIRED: 'expired', PENDING: 'pending' } as const;
/** Stacked from the bottom: the outcomes a merchant hopes for first. */
const STATUS_ORDER = ['VERIFIED', 'FAILED', 'CANCELLED', 'EXPIRED', 'PENDING'] as const satisfies readonly (typeof DASHBOARD_SESSION_STATUSES)[number][];

export function sessionsPerDayChart(stats: SessionTrafficResponse): ChartSpec {
  const parts = STATUS_ORDER.map((status) => `${i18n.t(`sessions.state.${status}`)} ${formatNumber(stats.totals[status])}`);
  return {
    kind: 'stacked-bars',
    horizontal: false,
    title: i18n.t('traffic.perDayTitle'),
    summary: i18n.t('traffic.perDaySummary', {
      total: formatNumber(stats.totals.total),
      from: formatDay(stats.period.from),
      to: formatDay(stats.period.to),
      parts: formatList(parts),
    }),
    categoryLabel: i18n.t('traffic.day'),
    categories: stats.perDay.map((day) => formatDay(day.day)),
    valueLabel: i18n.t('traffic.sessions'),
    series: STATUS_ORDER.map((status) => ({
      label: i18n.t(`sessions.state.${status}`),
      style: STATUS_STYLE[status],
      values: stats.perDay.map((day) => day.counts[status]),
    })),
    unit: 'count',
    extraColumns: [],
    rowTotals: true,
  };
}

export function funnelChart(stats: SessionTrafficResponse): ChartSpec {
  const { funnel } = stats;
  const labels = FUNNEL_STEPS.map((step) => i18n.t(`traffic.steps.${step}`));
  return {
    kind: 'bars',
    horizontal: true,
    title: i18n.t('traffic.funnelTitle'),
    summary: i18n.t('traffic.funnelSummary', { parts: formatList(FUNNEL_STEPS.map((step, i) => `${labels[i]} ${formatNumber(funnel[step])}`)) }),
    categoryLabel: i18n.t('traffic.step'),
    categories: labels,
    valueLabel: i18n.t('traffic.sessions'),
    series: [{ label: i18n.t('traffic.sessions'), style: 'primary', values: FUNNEL_STEPS.map((step) => funnel[step]) }],
    unit: 'count',
    extraColumns: [{ label: i18n.t('traffic.shareOfCreated'), cells: FUNNEL_STEPS.map((step) => formatShare(funnel[step], funnel.created)) }],
    rowTotals: false,
  };
}

const DELIVERY_STYLE: Record<DeliveryStateName, SeriesStyle> = { delivered: 'positive', undelivered: 'negative', pending: 'pending' };
const DELIVERY_ORDER: readonly DeliveryStateName[] = ['delivered', 'undelivered', 'pending'];

export function deliveriesPerDayChart(stats: WebhookTrafficResponse): ChartSpec {
  const parts = DELIVERY_ORDER.map((state) => `${i18n.t(`webhooks.delivery.${state}`)} ${formatNumber(stats.totals.counts[state])}`);
  return {
    kind: 'stacked-bars',
    horizontal: false,
    title: i18n.t('traffic.deliveriesPerDayTitle'),
    summary: i18n.t('traffic.deliveriesSummary', {
      total: formatNumber(stats.totals.total),
      from: formatDay(stats.period.from),
      to: formatDay(stats.period.to),
      parts: formatList(parts),
    }),
    categoryLabel: i18n.t('traffic.day'),
    categories: stats.perDay.map((day) => formatDay(day.day)),
    valueLabel: i18n.t('traffic.deliveries'),
    series: DELIVERY_ORDER.map((state) => ({
      label: i18n.t(`webhooks.delivery.${state}`),
      style: DELIVERY_STYLE[state],
      values: stats.perDay.map((day) => day.counts[state]),
    })),
    unit: 'count',
    extraColumns: [
      { label: i18n.t('traffic.requests'), cells: stats.perDay.map((day) => formatNumber(day.attempts)) },
      { label: i18n.t('traffic.failedRequests'), cells: stats.perDay.map((day) => formatNumber(day.failedAttempts)) },
    ],
    rowTotals: true,
  };
}

export function latencyChart(stats: WebhookTrafficResponse): ChartSpec {
  return {
    kind: 'lines',
    horizontal: false,
    title: i18n.t('traffic.latencyTitle'),
    summary: i18n.t('traffic.latencySummary', {
      median: formatMilliseconds(stats.totals.latencyMedianMs),
      p95: formatMilliseconds(stats.totals.latencyP95Ms),
    }),
    categoryLabel: i18n.t('traffic.day'),
    categories: stats.perDay.map((day) => formatDay(day.day)),
    valueLabel: i18n.t('traffic.milliseconds'),
    series: [
      { label: i18n.t('traffic.median'), style: 'primary', values: stats.perDay.map((day) => day.latencyMedianMs) },
      { label: i18n.t('traffic.p95'), style: 'secondary', values: stats.perDay.map((day) => day.latencyP95Ms) },
    ],
    unit: 'milliseconds',
    extraColumns: [{ label: i18n.t('traffic.requests'), cells: stats.perDay.map((day) => formatNumber(day.attempts)) }],
    rowTotals: false,
  };
}
