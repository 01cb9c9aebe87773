import { html, nothing } from 'lit';
import {
  DASHBOARD_API_BASE,
  DASHBOARD_SESSION_STATUSES,
  type KeyPairsResponse,
  type SessionSummary,
  type SessionsResponse,
  type TryItResponse,
} from '@ageverify/protocol';
import { tenantPath } from './api';
import { formatDateTime } from './format';
import { i18n } from './i18n';
import { routeHref } from './router';
import { DashScreen, errorMessage } from './screen-base';
import { baseStyles } from './styles';

/**
 * Recent sessions with filters and search (issue 12, item 6), and "Try it": a sandbox session
 * opened in the verify UI, which returns here to the session's page when done.
 */
export class DashSessions extends DashScreen {
  static override properties = {
    sessions: { state: true },
    nextCursor: { state: true },
    problem: { state: true },
    trying: { state: true },
    tryBlocked: { state: true },
  };
  static override styles = [baseStyles];

  sessions: SessionSummary[] = [];
  nextCursor: string | null = null;
  problem: string | null = null;
  trying = false;
  /** A role that may not make keys, in a tenant without an active sandbox pair: "Try it" would be refused. */
  tryBlocked = false;
  private filters = { status: '', sandbox: '', q: '' };

  private query(cursor?: string): string {
    const params = new URLSearchParams();
    if (this.filters.status) params.set('status', this.filters.status);
    if (this.filters.sandbox) params.set('sandbox', this.filters.sandbox);
    if (this.filters.q) params.set('q', this.filters.q);
    if (cursor) params.set('cursor', cursor);
    const text = params.toString();
    return text ? `/sessions?${text}` : '/sessions';
  }

  protected async load(): Promise<void> {
    const [result, keys] = await Promise.all([
      this.call<SessionsResponse>('GET', this.query()),
      // "Try it" makes the sandbox pair on first use only for roles that manage keys (the API refuses the others).
      this.may('keys') ? null : this.call<KeyPairsResponse>('GET', '/keys'),
    ]);
    this.sessions = result.sessions;
    this.nextCursor = result.nextCursor;
    this.tryBlocked = keys !== null && !keys.pairs.some((pair) => pair.sandbox && pair.revokedAt === null && pair.publishableRevokedAt === null);
  }

  override render() {
    return html`<h1 tabindex="-1">${i18n.t('sessions.title')}</h1>
      <section class="card" aria-labelledby="try-heading">
        <h2 id="try-heading">${i18n.t('sessions.tryTitle')}</h2>
        <p>${i18n.t('sessions.tryIntro')}</p>
        ${
          this.tryBlocked
            ? html`<p class="muted" data-testid="try-needs-keys">${i18n.t('sessions.tryNeedsKeys', { role: i18n.t(`roles.${this.userRole}`) })}</p>`
            : html`<button type="button" ?disabled=${this.trying} @click=${this.tryIt}>${i18n.t('sessions.tryIt')}</button>`
        }
      </section>
      ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
      <form class="actions" role="search" aria-label=${i18n.t('sessions.filters')} @submit=${this.applyFilters}>
        <div class="field">
          <label for="status">${i18n.t('sessions.status')}</label>
          <select id="status" name="status">
            <option value="">${i18n.t('sessions.any')}</option>
            ${DASHBOARD_SESSION_STATUSES.map((state) => html`<option value=${state} ?selected=${this.filters.status === state}>${i18n.t(`sessions.state.${state}`)}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="sandbox">${i18n.t('sessions.mode')}</label>
          <select id="sandbox" name="sandbox">
            <option value="">${i18n.t('sessions.any')}</option>
            <option value="true" ?selected=${this.filters.sandbox === 'true'}>${i18n.t('keys.sandbox')}</option>
            <option value="false" ?selected=${this.filters.sandbox === 'false'}>${i18n.t('keys.live')}</option>
          </select>
        </div>
        <div class="field">
          <label for="q">${i18n.t('sessions.search')}</label>
          <input id="q" name="q" type="search" .value=${this.filters.q} aria-describedby="q-hint" />
          <span id="q-hint" class="muted">${i18n.t('sessions.searchHint')}</span>
        </div>
        <button type="submit">${i18n.t('sessions.apply')}</button>
      </form>
      ${this.renderLoadState()}
      ${!this.loading && this.sessions.length === 0 ? html`<p class="muted">${i18n.t('sessions.none')}</p>` : nothing}
      ${
        this.sessions.length > 0
          ? html`<div class="table-wrap">
            <table>
              <caption class="visually-hidden">${i18n.t('sessions.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">${i18n.t('sessions.sessionId')}</th>
                  <th scope="col">${i18n.t('sessions.status')}</th>
                  <th scope="col">${i18n.t('sessions.verificationMode')}</th>
                  <th scope="col">${i18n.t('sessions.challengeAge')}</th>
                  <th scope="col">${i18n.t('sessions.externalUserId')}</th>
                  <th scope="col">${i18n.t('sessions.mode')}</th>
                  <th scope="col">${i18n.t('sessions.failureReason')}</th>
                  <th scope="col">${i18n.t('sessions.created')}</th>
                </tr>
              </thead>
              <tbody>
                ${this.sessions.map(
                  (session) => html`<tr>
                    <td><a href=${routeHref('sessions', session.sessionId)}><code>${session.sessionId}</code></a></td>
                    <td>${i18n.t(`sessions.state.${session.status}`)}</td>
                    <td>${session.verificationMode}</td>
                    <td>${session.challengeAge}</td>
                    <td>${session.externalUserId ?? '—'}</td>
                    <td>${session.sandbox ? i18n.t('keys.sandbox') : i18n.t('keys.live')}</td>
                    <td>${session.failureReason ?? '—'}</td>
                    <td>${formatDateTime(session.createdAt)}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`
          : nothing
      }
      ${this.nextCursor ? html`<button type="button" class="secondary" @click=${this.loadMore}>${i18n.t('common.loadMore')}</button>` : nothing}
      <section class="card" aria-labelledby="export-heading">
        <h2 id="export-heading">${i18n.t('sessions.exportTitle')}</h2>
        <p class="muted">${i18n.t('sessions.exportHint')}</p>
        <form class="actions" @submit=${this.exportCsv}>
          <div class="field">
            <label for="export-from">${i18n.t('sessions.exportFrom')}</label>
            <input id="export-from" name="from" type="date" required .value=${this.exportFrom} />
          </div>
          <div class="field">
            <label for="export-to">${i18n.t('sessions.exportTo')}</label>
            <input id="export-to" name="to" type="date" required .value=${this.exportTo} />
          </div>
          <button type="submit">${i18n.t('sessions.export')}</button>
        </form>
      </section>`;
  }

  /** The first of this month to today (UTC), the range a merchant usually reconciles. */
  private exportFrom = `${new Date().toISOString().slice(0, 8)}01`;
  private exportTo = new Date().toISOString().slice(0, 10);

  /** A plain navigation to the export: the browser downloads the CSV with the session cookie. */
  private exportCsv(event: Event): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    this.exportFrom = String(data.get('from') ?? '');
    this.exportTo = String(data.get('to') ?? '');
    const query = new URLSearchParams({ from: this.exportFrom, to: this.exportTo });
    window.location.assign(`${DASHBOARD_API_BASE}${tenantPath(this.tenantId, `/sessions/export.csv?${query}`)}`);
  }

  private applyFilters(event: Event): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    this.filters = { status: String(data.get('status') ?? ''), sandbox: String(data.get('sandbox') ?? ''), q: String(data.get('q') ?? '').trim() };
    void this.reload();
  }

  private async loadMore(): Promise<void> {
    if (!this.nextCursor) return;
    try {
      const result = await this.call<SessionsResponse>('GET', this.query(this.nextCursor));
      this.sessions = [...this.sessions, ...result.sessions];
      this.nextCursor = result.nextCursor;
    } catch (error) {
      this.problem = errorMessage(error);
    }
  }

  private async tryIt(): Promise<void> {
    this.trying = true;
    this.problem = null;
    try {
      const result = await this.call<TryItResponse>('POST', '/try-it');
      // Same tab: the verify UI returns to this session's page when the user is done.
      window.location.assign(result.verifyUrl);
    } catch (error) {
      this.problem = errorMessage(error);
      this.trying = false;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-sessions': DashSessions;
  }
}
