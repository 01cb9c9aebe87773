import { beforeAll, describe, expect, test } from 'bun:test';
import type { SessionTrafficResponse, WebhookTrafficResponse } from '@ageverify/protocol';
import { chartTable, deliveriesPerDayChart, funnelChart, latencyChart, SERIES_STYLES, sessionsPerDayChart } from './chart-model';
import { initI18n, type LanguagePage } from './i18n';

const zero = { PENDING: 0, VERIFIED: 0, FAILED: 0, CANCELLED: 0, EXPIRED: 0 };
const sessions: SessionTrafficResponse = {
  period: { days: 2, from: '2026-05-19', to: '2026-05-20' },
  sandbox: null,
  perDay: [
    { day: '2026-05-19', counts: { ...zero, VERIFIED: 1200, EXPIRED: 1 }, total: 1201 },
    { day: '2026-05-20', counts: { ...zero, FAILED: 2, CANCELLED: 1, PENDING: 3 }, total: 6 },
  ],
  totals: { ...zero, VERIFIED: 1200, FAILED: 2, CANCELLED: 1, EXPIRED: 1, PENDING: 3, total: 1207 },
  funnel: { created: 1207, opened: 800, captured: 600, decided: 1202, validated: 0 },
  stepUp: { l1Sessions: 10, estimated: 8, steppedUp: 4, finished: 3, verified: 2 },
};
const webhooks: WebhookTrafficResponse = {
  period: { days: 2, from: '2026-05-19', to: '2026-05-20' },
  endpointId: null,
  retentionDays: 30,
  perDay: [
    {
      day: '2026-05-19',
      counts: { delivered: 3, undelivered: 1, pending: 0 },
      total: 4,
      attempts: 7,
      failedAttempts: 2,
      latencyMedianMs: 35,
      latencyP95Ms: 400,
    },
    {
      day: '2026-05-20',
      counts: { delivered: 0, undelivered: 0, pending: 0 },
      total: 0,
      attempts: 0,
      failedAttempts: 0,
      latencyMedianMs: null,
      latencyP95Ms: null,
    },
  ],
  totals: { counts: { delivered: 3, undelivered: 1, pending: 0 }, total: 4, attempts: 7, failedAttempts: 2, latencyMedianMs: 35, latencyP95Ms: 400 },
};

// An English browser with nothing stored: initI18n reads a LanguagePage (i18n.ts), not a bare Document.
const ENGLISH_PAGE: LanguagePage = {
  document: { title: '', documentElement: { lang: '' } },
  navigator: { languages: ['en'] },
  localStorage: { getItem: () => null, setItem: () => {} },
};

beforeAll(() => initI18n(ENGLISH_PAGE));

describe('the table view carries every figure of the chart', () => {
  test('sessions per day: a row per day, a column per status, the day’s total last', () => {
    const table = chartTable(sessionsPerDayChart(sessions));
    expect(table.caption).toBe('Sessions per day by status');
    expect(table.columns).toEqual(['Day', 'Verified', 'Failed', 'Cancelled', 'Expired', 'Pending', 'Total']);
    expect(table.rows).toEqual([
      { header: 'May 19', cells: ['1,200', '0', '0', '1', '0', '1,201'] },
      { header: 'May 20', cells: ['0', '2', '1', '0', '3', '6'] },
    ]);
  });

  test('the funnel: each step with its share of the created sessions', () => {
    const spec = funnelChart(sessions);
    expect(spec.horizontal).toBe(true);
    expect(chartTable(spec).rows).toEqual([
      { header: 'Created', cells: ['1,207', '100%'] },
      { header: 'Opened by the user', cells: ['800', '66%'] },
      { header: 'Picture taken', cells: ['600', '50%'] },
      { header: 'Decided (verified or failed)', cells: ['1,202', '100%'] },
      { header: 'Validated by your server', cells: ['0', '0%'] },
    ]);
    expect(chartTable(funnelChart({ ...sessions, funnel: { created: 0, opened: 0, captured: 0, decided: 0, validated: 0 } })).rows[1]!.cells).toEqual([
      '0',
      '—',
    ]);
  });

  test('deliveries and latency: a day without requests has no latency, shown as a dash, not 0 ms', () => {
    expect(chartTable(deliveriesPerDayChart(webhooks)).rows[0]).toEqual({ header: 'May 19', cells: ['3', '1', '0', '4', '7', '2'] });
    const latency = latencyChart(webhooks);
    expect(latency.series.map((series) => series.values)).toEqual([
      [35, null],
      [400, null],
    ]);
    expect(chartTable(latency).rows).toEqual([
      { header: 'May 19', cells: ['35 ms', '400 ms', '7'] },
      { header: 'May 20', cells: ['—', '—', '0'] },
    ]);
  });
});

test('the canvas’s accessible name states the main figures, so the picture is not the only carrier', () => {
  expect(sessionsPerDayChart(sessions).summary).toBe('1,207 sessions from May 19 to May 20: Verified 1,200, Failed 2, Cancelled 1, Expired 1, and Pending 3.');
  expect(latencyChart(webhooks).summary).toBe('Over the period: median 35 ms, 95th percentile 400 ms.');
});

test('series of one chart never share a style (colour and pattern)', () => {
  for (const spec of [sessionsPerDayChart(sessions), deliveriesPerDayChart(webhooks), latencyChart(webhooks)]) {
    const styles = spec.series.map((series) => series.style);
    expect(new Set(styles).size).toBe(styles.length);
    for (const style of styles) expect(SERIES_STYLES).toContain(style);
  }
});
