import type { i18n as I18n } from 'i18next';
import type { UiLanguage } from '@ageverify/protocol';

export interface LazyTranslationsOptions<T extends object> {
  /** One dynamic import per language: rollup makes each its own chunk. */
  loaders: Record<UiLanguage, () => Promise<T>>;
  /** Also load English, the fallback for a key a language lacks. */
  withEnglish: boolean;
  /** The language the page shows, or is about to show (a change in progress). */
  language(): UiLanguage;
  /** Strings were added, or could not be loaded: what the page shows may change. */
  onChange(): void;
}

/**
 * Strings that only some pages need (the live check's, the explanations of API refusals), loaded
 * per language on demand and merged into i18next's one key tree. Once a page asked for them
 * (`request`), a language change loads the new language's too before it switches (`follow`).
 */
export class LazyTranslations<T extends object> {
  private requested = false;
  private readonly loading = new Map<UiLanguage, Promise<void>>();
  private readonly failed = new Set<UiLanguage>();

  constructor(
    private readonly i18n: I18n,
    private readonly options: LazyTranslationsOptions<T>,
  ) {}

  /** i18next was initialised again (a new store): nothing of ours is in it any more. */
  reset(): void {
    this.requested = false;
    this.loading.clear();
    this.failed.clear();
  }

  /** Loads the strings of the page language (and English, when asked for); rejects when an import fails. */
  async request(): Promise<void> {
    this.requested = true;
    const language = this.options.language();
    const languages = new Set<UiLanguage>([language, ...(this.options.withEnglish ? (['en'] as const) : [])]);
    await Promise.all([...languages].map((code) => this.load(code)));
    // The language changed while these loaded: its strings too.
    const now = this.options.language();
    if (now !== language) await this.load(now);
  }

  /** Before a language change: the new language's strings, if the page has asked for them. Never rejects. */
  async follow(language: UiLanguage): Promise<void> {
    if (this.requested) await this.load(language).catch(() => undefined);
  }

  /** The last attempt to load this language's strings failed (the page shows what it can without them). */
  hasFailed(language: UiLanguage): boolean {
    return this.failed.has(language);
  }

  private load(language: UiLanguage): Promise<void> {
    let loading = this.loading.get(language);
    if (!loading) {
      this.failed.delete(language);
      loading = this.options.loaders[language]().then(
        (bundle) => {
          this.i18n.addResourceBundle(language, 'translation', bundle, true, false);
          this.options.onChange();
        },
        (error: unknown) => {
          // A later request tries again (the capture chunk's "Try again", the next error).
          this.loading.delete(language);
          this.failed.add(language);
          this.options.onChange();
          throw error;
        },
      );
      this.loading.set(language, loading);
    }
    return loading;
  }
}
