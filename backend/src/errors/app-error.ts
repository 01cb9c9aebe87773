/**
 * The one error class of the service (docs/engineering-habits.md habit 6). Every refusal — an HTTP request the spec
 * rejects, a provisioning command with bad input — is an `AppError` with a stable `code`, the HTTP
 * status it answers with, and the message in the service's own words (the spec's, word for word,
 * where the spec fixes one: protocol/src/errors.ts).
 *
 * Each module declares its codes once, in its `errors.ts`, with `defineErrors` (the habit of
 * better-auth's per-module error-code registries). The layers that show an error choose the words:
 * the HTTP layer answers with the spec's error body (http/error-handling.ts), the CLI may reword a
 * code to name its flags (cli/cli-wording.ts). Nothing here knows HTTP or the CLI, so both import it.
 */

/** One message, or several (validation errors: the spec's `message` is then an array). */
export type ErrorMessage = string | string[];

export interface AppErrorOptions {
  /** The HTTP status this error answers with; 500 when absent (a failure nobody foresaw). */
  status?: number;
  /** The values the message was built from, for a layer that words the error its own way. */
  details?: Readonly<Record<string, unknown>>;
  /** Response headers that belong to the refusal (e.g. `allow` on a 405). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Whether the error body carries `code`. Only where the spec names the code
   * (SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE); every other body stays as the spec shows it.
   */
  exposeCode?: boolean;
}

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly status: number;
  readonly details: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly exposeCode: boolean;

  constructor(
    readonly code: string,
    readonly messages: ErrorMessage,
    options: AppErrorOptions = {},
  ) {
    super(Array.isArray(messages) ? messages.join('; ') : messages);
    this.status = options.status ?? 500;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
    this.exposeCode = options.exposeCode ?? false;
  }
}

/** A registry entry: the status and the message, fixed or built from parameters. */
export interface ErrorDefinition<P> {
  status: number;
  message: ErrorMessage | ((params: P) => ErrorMessage);
  /** See AppErrorOptions.exposeCode. */
  exposeCode?: boolean;
}

type ParamsOf<D> = D extends { message: (params: infer P) => ErrorMessage } ? P : undefined;

/**
 * Extra options given where the error is raised (headers known only then; a status only where a
 * library's refusal is relayed with the library's own status, e.g. better-auth's).
 */
export type RaiseOptions = Pick<AppErrorOptions, 'headers' | 'status'>;

/**
 * Makes the AppError of one registry entry. An entry whose message takes parameters needs them;
 * `code` and `status` are readable without raising anything, and `is` recognises the error.
 */
export type ErrorFactory<P> = ([P] extends [undefined] ? (options?: RaiseOptions) => AppError : (params: P, options?: RaiseOptions) => AppError) & {
  readonly code: string;
  readonly status: number;
  readonly exposeCode: boolean;
  is(error: unknown): error is AppError;
};

export type ErrorRegistry<R> = { readonly [K in keyof R]: ErrorFactory<ParamsOf<R[K]>> };

/**
 * Declares a module's error codes. The key is the code:
 *
 *   export const TENANT_ERRORS = defineErrors({
 *     TENANT_NOT_FOUND: { status: 404, message: (p: { tenantId: string }) => `no tenant with id "${p.tenantId}"` },
 *   });
 *   throw TENANT_ERRORS.TENANT_NOT_FOUND({ tenantId });
 */
export function defineErrors<const R extends Record<string, ErrorDefinition<never>>>(registry: R): ErrorRegistry<R> {
  const factories: Record<string, unknown> = {};
  for (const [code, definition] of Object.entries(registry)) {
    const { status, message, exposeCode } = definition;
    const raise = (...args: unknown[]) => {
      const parameterised = typeof message === 'function';
      const params = parameterised ? (args[0] as Record<string, unknown>) : undefined;
      const options = (parameterised ? args[1] : args[0]) as RaiseOptions | undefined;
      const words = typeof message === 'function' ? (message as (p: unknown) => ErrorMessage)(params) : message;
      return new AppError(code, words, { status: options?.status ?? status, details: params, headers: options?.headers, exposeCode });
    };
    factories[code] = Object.assign(raise, {
      code,
      status,
      exposeCode: exposeCode ?? false,
      is: (error: unknown) => error instanceof AppError && error.code === code,
    });
  }
  return factories as ErrorRegistry<R>;
}
