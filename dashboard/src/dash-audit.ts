import { html, nothing } from 'lit';
import { AUDIT_ACTION_GROUPS, auditActionsOf, DASHBOARD_API_BASE, type AuditActorView, type AuditEntryView, type AuditResponse } from '@ageverify/protocol';
import { tenantPath } from './api';
import { auditExportPath, auditSearch, auditValueText, NO_AUDIT_FILTERS, type AuditFilterValues } from './audit-query';
import { formatDateTime } from './format';
import { i18n } from './i18n';
import { DashScreen, formValues } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * The audit trail (issue 23, Deliver 4; docs/dashboard-api.md "Audit trail"): every change to the
 * account, newest first, with who made it, when, from which address and what changed; filters by
 * change, person and days; "Load more" pages on; the filtered entries download as CSV or JSON lines.
 * Owners and admins only (the API answers 403 to the others).
 */
export class DashAudit extends DashScreen {
  static override properties = { entries: { state: true }, nextCursor: { state: true }, filters: { state: true } };
  static override styles = [baseStyles];

  entries: AuditEntryView[] = [];
  nextCursor: string | null = null;
  /** The filters of the entries shown (and of the export links). */
  filters: AuditFilterValues = { ...NO_AUDIT_FILTERS };
  private readonly more = new SubmitController(this);

  private path(cursor?: string): string {
    const search = auditSearch(this.filters, { cursor });
    return search ? `/audit?${search}` : '/audit';
  }

  protected async load(): Promise<void> {
    if (!this.may('audit')) return;
    const page = await this.call<AuditResponse>('GET', this.path());
    this.entries = page.entries;
    this.nextCursor = page.nextCursor;
  }

  override render() {
    if (!this.may('audit')) {
      return html`<h1 tabindex="-1">${i18n.t('audit.title')}</h1>
        <p>${i18n.t('audit.notAllowed', { role: i18n.t(`roles.${this.userRole}`) })}</p>`;
    }
    return html`<h1 tabindex="-1">${i18n.t('audit.title')}</h1>
      <p>${i18n.t('audit.intro')}</p>
      ${this.renderFilters()}
      ${this.renderLoadState()}
      ${!this.loading && !this.loadError && this.entries.length === 0 ? html`<p class="muted">${i18n.t('audit.none')}</p>` : nothing}
      ${this.entries.length > 0 ? this.renderTable() : nothing}
      ${this.more.problem ? html`<p class="error" role="alert">${this.more.problem}</p>` : nothing}
      ${
        this.nextCursor
          ? html`<button type="button" class="secondary" ?disabled=${this.more.busy} @click=${this.loadMore}>${i18n.t('common.loadMore')}</button>`
          : nothing
      }
      ${this.renderExport()}`;
  }

  private renderFilters() {
    const f = this.filters;
    return html`<form class="actions" role="search" aria-label=${i18n.t('audit.filters')} @submit=${this.applyFilters}>
      <div class="field">
        <label for="audit-action">${i18n.t('audit.action')}</label>
        <select id="audit-action" name="action">
          <option value="">${i18n.t('audit.anyAction')}</option>
          ${AUDIT_ACTION_GROUPS.map(
            (group) => html`<optgroup label=${i18n.t(`audit.groups.${group}`)}>
              <option value=${group} ?selected=${f.action === group}>${i18n.t('audit.wholeGroup', { group: i18n.t(`audit.groups.${group}`) })}</option>
              ${auditActionsOf(group).map((action) => html`<option value=${action} ?selected=${f.action === action}>${i18n.t(`audit.actions.${action}`)}</option>`)}
            </optgroup>`,
          )}
        </select>
      </div>
      <div class="field">
        <label for="audit-actor">${i18n.t('audit.actor')}</label>
        <input id="audit-actor" name="actor" type="search" autocomplete="off" .value=${f.actor} aria-describedby="audit-actor-hint" />
        <span id="audit-actor-hint" class="muted">${i18n.t('audit.actorHint')}</span>
      </div>
      <div class="field">
        <label for="audit-from">${i18n.t('audit.from')}</label>
        <input id="audit-from" name="from" type="date" .value=${f.from} />
      </div>
      <div class="field">
        <label for="audit-to">${i18n.t('audit.to')}</label>
        <input id="audit-to" name="to" type="date" .value=${f.to} />
      </div>
      <button type="submit">${i18n.t('audit.apply')}</button>
    </form>`;
  }

  private renderTable() {
    // Wide entries scroll sideways inside the wrapper: it takes focus so keyboards can scroll it too.
    return html`<div class="table-wrap" tabindex="0" role="region" aria-label=${i18n.t('audit.title')}>
      <table data-testid="audit-entries">
        <caption class="visually-hidden">${i18n.t('audit.title')}</caption>
        <thead>
          <tr>
            <th scope="col">${i18n.t('audit.when')}</th>
            <th scope="col">${i18n.t('audit.who')}</th>
            <th scope="col">${i18n.t('audit.address')}</th>
            <th scope="col">${i18n.t('audit.what')}</th>
            <th scope="col">${i18n.t('audit.target')}</th>
            <th scope="col">${i18n.t('audit.changes')}</th>
          </tr>
        </thead>
        <tbody>
          ${this.entries.map(
            (entry) => html`<tr>
              <td>${formatDateTime(entry.occurredAt, true)}</td>
              <td>${actorText(entry.actor)}</td>
              <td>${entry.ip ?? '—'}</td>
              <td>${i18n.t(`audit.actions.${entry.action}`)}<br /><code>${entry.action}</code></td>
              <td>${entry.targetLabel ?? ''}${entry.targetLabel && entry.targetId ? html`<br />` : nothing}${entry.targetId ? html`<code>${entry.targetId}</code>` : nothing}</td>
              <td>${renderChanges(entry)}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  private renderExport() {
    if (this.loadError) return nothing;
    const href = (format: 'csv' | 'jsonl') => `${DASHBOARD_API_BASE}${tenantPath(this.tenantId, auditExportPath(this.filters, format))}`;
    return html`<section class="card" aria-labelledby="audit-export-heading">
      <h2 id="audit-export-heading">${i18n.t('audit.exportTitle')}</h2>
      <p class="muted">${i18n.t('audit.exportHint')}</p>
      <p class="actions">
        <a class="button secondary" href=${href('csv')} download>${i18n.t('audit.exportCsv')}</a>
        <a class="button secondary" href=${href('jsonl')} download>${i18n.t('audit.exportJsonl')}</a>
      </p>
    </section>`;
  }

  private applyFilters(event: Event): void {
    const values = formValues(event);
    this.filters = { action: values.action ?? '', actor: (values.actor ?? '').trim(), from: values.from ?? '', to: values.to ?? '' };
    void this.reload();
  }

  private loadMore(): Promise<void> {
    return this.more.run(async () => {
      if (!this.nextCursor) return;
      const page = await this.call<AuditResponse>('GET', this.path(this.nextCursor));
      this.entries = [...this.entries, ...page.entries];
      this.nextCursor = page.nextCursor;
    });
  }
}

function actorText(actor: AuditActorView): string {
  if (actor.type === 'cli') return i18n.t('audit.cli');
  if (actor.type === 'system') return i18n.t('audit.system');
  return actor.email ?? actor.userId ?? '—';
}

function renderChanges(entry: AuditEntryView) {
  const fields = Object.entries(entry.changes);
  if (fields.length === 0) return i18n.t('audit.noDetails');
  return html`<ul class="plain">
    ${fields.map(([field, change]) => html`<li><code>${field}</code>: ${auditValueText(change.from)} → ${auditValueText(change.to)}</li>`)}
  </ul>`;
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-audit': DashAudit;
  }
}
