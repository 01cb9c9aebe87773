/**
 * Draws a ChartSpec (chart-model.ts) on a canvas with Chart.js (decision 0058). Loaded on demand by
 * dash-chart.ts, so Chart.js is a chunk of its own and the dashboard's first load does not carry it.
 * Only the parts used are registered (bar and line charts, two scales, legend, tooltip): Chart.js
 * tree-shakes the rest away.
 *
 * The dashboard's CSP allows no inline styles: Chart.js 4 injects no <style> element and sizes the
 * canvas through CSSOM properties (element.style.height = …), which `style-src` does not govern.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartDataset,
  type ChartOptions,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { type ChartSpec, formatValue, type SeriesStyle } from './chart-model';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Okabe–Ito colours (chart-model.ts SERIES_STYLES); each style also has its own pattern or dash. */
const COLOURS: Record<SeriesStyle, string> = {
  positive: '#009E73',
  negative: '#D55E00',
  caution: '#E69F00',
  expired: '#56B4E9',
  pending: '#CC79A7',
  primary: '#0072B2',
  secondary: '#D55E00',
};
const TEXT = '#374151';
const GRID = '#e5e7eb';

/** A repeating tile: the style's colour with white marks of its own, so bars differ without colour too. */
function fillOf(style: SeriesStyle): string | CanvasPattern {
  const colour = COLOURS[style];
  const tile = document.createElement('canvas');
  tile.width = 8;
  tile.height = 8;
  const ctx = tile.getContext('2d');
  if (!ctx) return colour;
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, 8, 8);
  ctx.strokeStyle = '#ffffff';
  ctx.fillStyle = '#ffffff';
  ctx.lineWidth = 1.5;
  switch (style) {
    case 'negative': // diagonal stripes
      ctx.beginPath();
      ctx.moveTo(0, 8);
      ctx.lineTo(8, 0);
      ctx.moveTo(-2, 2);
      ctx.lineTo(2, -2);
      ctx.moveTo(6, 10);
      ctx.lineTo(10, 6);
      ctx.stroke();
      break;
    case 'caution': // dots
      ctx.beginPath();
      ctx.arc(4, 4, 1.5, 0, Math.PI * 2);
      ctx.fill();
      break;
    case 'expired': // cross-hatch
      ctx.beginPath();
      ctx.moveTo(0, 4);
      ctx.lineTo(8, 4);
      ctx.moveTo(4, 0);
      ctx.lineTo(4, 8);
      ctx.stroke();
      break;
    case 'pending': // horizontal lines
      ctx.beginPath();
      ctx.moveTo(0, 2);
      ctx.lineTo(8, 2);
      ctx.moveTo(0, 6);
      ctx.lineTo(8, 6);
      ctx.stroke();
      break;
    default: // solid
      return colour;
  }
  return ctx.createPattern(tile, 'repeat') ?? colour;
}

function datasetOf(spec: ChartSpec, index: number): ChartDataset<'bar' | 'line', Array<number | null>> {
  const series = spec.series[index]!;
  const colour = COLOURS[series.style];
  if (spec.kind === 'lines') {
    const second = index % 2 === 1;
    return {
      type: 'line',
      label: series.label,
      data: series.values,
      borderColor: colour,
      backgroundColor: colour,
      borderWidth: 2,
      borderDash: second ? [6, 4] : [],
      pointStyle: second ? 'triangle' : 'circle',
      pointRadius: 3,
      spanGaps: false,
    };
  }
  return { type: 'bar', label: series.label, data: series.values, backgroundColor: fillOf(series.style), borderColor: colour, borderWidth: 1 };
}

export interface DrawnChart {
  destroy(): void;
}

export function drawChart(canvas: HTMLCanvasElement, spec: ChartSpec): DrawnChart {
  const stacked = spec.kind === 'stacked-bars';
  const font = { family: getComputedStyle(canvas).fontFamily || 'system-ui, sans-serif', size: 12 };
  const valueAxis = {
    type: 'linear' as const,
    stacked,
    beginAtZero: true,
    title: { display: true, text: spec.valueLabel, color: TEXT, font },
    ticks: { color: TEXT, font, ...(spec.unit === 'count' ? { precision: 0 } : {}) },
    grid: { color: GRID },
  };
  const categoryAxis = {
    type: 'category' as const,
    stacked,
    ticks: { color: TEXT, font, autoSkip: true, maxRotation: 0 },
    grid: { display: false },
  };
  const options: ChartOptions<'bar' | 'line'> = {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    indexAxis: spec.horizontal ? 'y' : 'x',
    scales: spec.horizontal ? { x: valueAxis, y: categoryAxis } : { x: categoryAxis, y: valueAxis },
    plugins: {
      legend: { display: spec.series.length > 1, labels: { color: TEXT, font, usePointStyle: spec.kind === 'lines' } },
      tooltip: {
        callbacks: {
          label: (item) => `${item.dataset.label ?? ''}: ${formatValue(typeof item.raw === 'number' ? item.raw : null, spec.unit)}`,
        },
      },
    },
  };
  const chart = new Chart<'bar' | 'line', Array<number | null>, string>(canvas, {
    type: spec.kind === 'lines' ? 'line' : 'bar',
    data: { labels: spec.categories, datasets: spec.series.map((_, index) => datasetOf(spec, index)) },
    options,
  });
  return { destroy: () => chart.destroy() };
}
