import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { type ChartSpec, chartTable } from './chart-model';
import type { DrawnChart } from './chart-canvas';
import { i18n } from './i18n';
import { baseStyles } from './styles';

/**
 * One traffic chart (issue 23, Deliver 2): a figure with its title, the picture on a canvas whose
 * accessible name carries the title and the main figures, and a table with every figure.
 *
 * The table is always in the page: visually hidden while the picture shows, so screen readers
 * read it, and shown in place of the picture by the "Show as table" toggle, for keyboard users and
 * anyone who wants the numbers. Chart.js comes in on demand (chart-canvas.ts, its own chunk), so
 * the table appears before the picture and stays when the chunk cannot load.
 */
export class DashChart extends LitElement {
  static override properties = {
    spec: { attribute: false },
    tableShown: { state: true },
    drawFailed: { state: true },
  };
  static override styles = [
    baseStyles,
    css`
      figure {
        margin: 0 0 1.5rem;
      }
      figcaption {
        margin: 0 0 0.5rem;
        font-weight: 600;
      }
      .canvas-box {
        position: relative;
        height: 16rem;
      }
      .canvas-box.horizontal {
        height: 13rem;
      }
      .canvas-box[hidden] {
        display: none;
      }
      th,
      td {
        padding: 0.25rem 0.5rem;
      }
      th[scope='row'] {
        font-weight: 400;
        background: none;
        white-space: nowrap;
      }
      td {
        text-align: right;
        font-variant-numeric: tabular-nums;
      }
      /* The toggle's state shows without relying on colour alone: filled and bordered thicker. */
      button[aria-pressed='true'] {
        background: var(--dash-primary);
        color: var(--dash-on-primary);
        border-width: 2px;
      }
    `,
  ];

  spec: ChartSpec | null = null;
  tableShown = false;
  drawFailed = false;
  private drawn: DrawnChart | null = null;
  /** Counts draws, so a chunk that arrives after a newer spec draws nothing. */
  private drawing = 0;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.drawing++;
    this.drawn?.destroy();
    this.drawn = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Back in the page (a screen shown again): draw anew, as disconnecting let the chart go.
    if (this.hasUpdated && this.spec) void this.draw();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('spec')) void this.draw();
  }

  private async draw(): Promise<void> {
    const attempt = ++this.drawing;
    this.drawn?.destroy();
    this.drawn = null;
    const spec = this.spec;
    const canvas = this.renderRoot.querySelector('canvas');
    if (!spec || !canvas) return;
    try {
      const { drawChart } = await import('./chart-canvas');
      if (attempt !== this.drawing) return;
      this.drawn = drawChart(canvas, spec);
      this.drawFailed = false;
    } catch {
      if (attempt !== this.drawing) return;
      this.drawFailed = true;
    }
  }

  override render() {
    const spec = this.spec;
    if (!spec) return nothing;
    const table = chartTable(spec);
    const pictureShown = !this.tableShown && !this.drawFailed;
    return html`<figure aria-labelledby="chart-title">
      <figcaption id="chart-title">${spec.title}</figcaption>
      <div class="canvas-box ${spec.horizontal ? 'horizontal' : ''}" ?hidden=${!pictureShown}>
        <canvas role="img" aria-label=${`${spec.title}. ${spec.summary}`} data-testid="chart-canvas">${spec.summary}</canvas>
      </div>
      ${this.drawFailed ? html`<p class="muted" role="status">${i18n.t('traffic.chartFailed')}</p>` : nothing}
      ${
        this.drawFailed
          ? nothing
          : html`<div class="actions">
            <button type="button" class="secondary" aria-pressed=${this.tableShown ? 'true' : 'false'} aria-controls="chart-table" @click=${this.toggle}>
              ${i18n.t('traffic.showTable')}
            </button>
          </div>`
      }
      <div
        id="chart-table"
        class=${pictureShown ? 'visually-hidden' : 'table-wrap'}
        role=${pictureShown ? nothing : 'region'}
        aria-label=${pictureShown ? nothing : table.caption}
        tabindex=${pictureShown ? nothing : '0'}
        data-testid="chart-table"
      >
        <table>
          <caption class="visually-hidden">${table.caption}</caption>
          <thead>
            <tr>
              ${table.columns.map((column) => html`<th scope="col">${column}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${table.rows.map((row) => html`<tr><th scope="row">${row.header}</th>${row.cells.map((cell) => html`<td>${cell}</td>`)}</tr>`)}
          </tbody>
        </table>
      </div>
    </figure>`;
  }

  /** The shown table scrolls sideways on narrow screens: a focus stop lets keyboard users scroll it. */
  private toggle(): void {
    this.tableShown = !this.tableShown;
    // Shown again: the canvas was hidden (zero size) meanwhile, so Chart.js draws it at its size now.
    if (!this.tableShown) void this.updateComplete.then(() => this.draw());
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-chart': DashChart;
  }
}
