/**
 * Routes of the signed-in app live in the hash (`#/webhooks/whe_…`), so reloading or sharing a
 * link keeps the screen and the server needs no route table. The two pages reached from links
 * sent outside the app use paths: `/dashboard/setup#token=…` (logged at boot) and
 * `/dashboard/invite#secret=…` (invitation emails).
 */
export const SCREENS = ['overview', 'keys', 'domains', 'webhooks', 'sessions', 'team', 'emails', 'account', 'audit'] as const;
export type ScreenName = (typeof SCREENS)[number];

export interface Route {
  screen: ScreenName;
  /** The second segment, e.g. an endpointId or a sessionId. */
  id: string | null;
}

export function parseRoute(hash: string): Route {
  const [first, second] = hash.replace(/^#\/?/, '').split('/');
  const screen = (SCREENS as readonly string[]).includes(first ?? '') ? (first as ScreenName) : 'overview';
  return { screen, id: second ? decodedOrNull(second) : null };
}

/** A hash is typed or pasted by hand: a malformed escape (`%`, `%E0%A4%A`) names no item, so no id. */
function decodedOrNull(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function routeHref(screen: ScreenName, id?: string): string {
  return id ? `#/${screen}/${encodeURIComponent(id)}` : `#/${screen}`;
}

export type EntryPage = 'setup' | 'invite' | 'confirm' | 'app';

/** Which page a path under /dashboard/ opens. */
export function entryPage(pathname: string): EntryPage {
  const rest = pathname.replace(/^\/dashboard\/?/, '').replace(/\/$/, '');
  if (rest === 'setup') return 'setup';
  if (rest === 'invite') return 'invite';
  if (rest === 'confirm') return 'confirm';
  return 'app';
}

/** A value from the fragment, e.g. `token` in `#token=…` (never sent to the server, never in logs). */
export function fragmentParam(hash: string, name: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get(name);
}
