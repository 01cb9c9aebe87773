import { html, nothing } from 'lit';
import type { AddDomainRequest, AddDomainResponse, DomainsResponse } from '@ageverify/protocol';
import type { DashConfirm } from './dash-confirm';
import { i18n } from './i18n';
import { DashScreen, errorMessage, formValues } from './screen-base';
import { baseStyles } from './styles';
import { SubmitController } from './submit-controller';

/**
 * Allowed return-URL domains (issue 12, item 4). The service validates each entry
 * (backend/src/modules/tenants/domain-rules.ts); its message is shown beside the field. A pasted
 * URL is stored as its host by the service (issue 23), and a note says what was stored.
 */
export class DashDomains extends DashScreen {
  static override properties = {
    domains: { state: true },
    added: { state: true },
    reduced: { state: true },
  };
  static override styles = [baseStyles];

  domains: string[] = [];
  /** Adding; a refusal moves focus back to the field its message describes. */
  private readonly submission = new SubmitController(this, {
    onError: async () => {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('#domain')?.focus();
    },
  });
  added: string | null = null;
  /** The last entry added, when the service reduced it (a URL) to its host. */
  reduced: { from: string; domain: string } | null = null;

  protected async load(): Promise<void> {
    this.domains = (await this.call<DomainsResponse>('GET', '/domains')).domains;
  }

  override render() {
    return html`<h1 tabindex="-1">${i18n.t('domains.title')}</h1>
      <p>${i18n.t('domains.intro')}</p>
      <p class="card">${i18n.t('domains.rules')}</p>
      <form class="card" @submit=${this.add} novalidate>
        <div class="field">
          <label for="domain">${i18n.t('domains.field')}</label>
          <input
            id="domain"
            name="domain"
            type="text"
            required
            autocomplete="off"
            placeholder="shop.example.com"
            aria-describedby="domain-hint ${this.submission.problem ? 'domain-error' : ''}"
            aria-invalid=${this.submission.problem ? 'true' : 'false'}
          />
          <span id="domain-hint" class="muted">${i18n.t('domains.hint')}</span>
          ${this.submission.problem ? html`<span id="domain-error" class="error" role="alert">${this.submission.problem}</span>` : nothing}
        </div>
        <button type="submit" ?disabled=${this.submission.busy}>${i18n.t('domains.add')}</button>
      </form>
      ${
        this.reduced
          ? html`<p class="success" data-testid="domain-reduced">${i18n.t('domains.reducedNote', { from: this.reduced.from, domain: this.reduced.domain })}</p>`
          : nothing
      }
      <p role="status" class="visually-hidden">${this.statusText()}</p>
      ${this.renderLoadState()}
      ${!this.loading && this.domains.length === 0 ? html`<p class="muted">${i18n.t('domains.none')}</p>` : nothing}
      <ul data-testid="domain-list">
        ${this.domains.map(
          (domain) => html`<li class="actions">
            <code>${domain}</code>
            <button type="button" class="danger" aria-label=${i18n.t('domains.removeLabel', { domain })} @click=${() => this.removeDomain(domain)}>
              ${i18n.t('domains.remove')}
            </button>
          </li>`,
        )}
      </ul>
      <dash-confirm></dash-confirm>`;
  }

  private add(event: Event): Promise<void> {
    const values = formValues(event);
    const form = event.target as HTMLFormElement;
    this.added = null;
    this.reduced = null;
    return this.submission.run(async () => {
      const body: AddDomainRequest = { domain: values.domain ?? '' };
      const answer = await this.call<AddDomainResponse>('POST', '/domains', body);
      this.domains = answer.domains;
      this.added = answer.domain;
      if (answer.reducedFrom !== null) this.reduced = { from: answer.reducedFrom, domain: answer.domain };
      form.reset();
    });
  }

  /** Read out after an add: the note itself when the entry was reduced, so it is not missed. */
  private statusText(): string {
    if (this.reduced) return i18n.t('domains.reducedNote', { from: this.reduced.from, domain: this.reduced.domain });
    return this.added ? i18n.t('domains.addedStatus', { domain: this.added }) : '';
  }

  private async removeDomain(domain: string): Promise<void> {
    const confirmed = await this.renderRoot.querySelector<DashConfirm>('dash-confirm')!.ask({
      heading: i18n.t('domains.removeTitle'),
      message: i18n.t('domains.removeConfirm', { domain }),
      confirmLabel: i18n.t('domains.remove'),
    });
    if (!confirmed) return;
    this.added = null;
    this.reduced = null;
    try {
      this.domains = (await this.call<DomainsResponse>('DELETE', `/domains/${encodeURIComponent(domain)}`)).domains;
    } catch (error) {
      this.submission.problem = errorMessage(error);
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-domains': DashDomains;
  }
}
