/**
 * Which methods a path has, from the app's own route table, so that a known path called with the
 * wrong method is 405 with `Allow` (RFC 9110 §15.5.6) instead of 404 (issue 8, finding 6).
 * The CORS plugin's catch-all `OPTIONS /*` answers preflights for every path and says nothing
 * about which paths exist, so it is left out.
 */
export interface RouteEntry {
  method: string;
  path: string;
}

export function allowedMethodsOf(routes: readonly RouteEntry[]): (path: string) => string[] {
  const table = routes.filter((route) => !(route.method === 'OPTIONS' && (route.path === '/*' || route.path === '/')));
  return (path) => {
    const methods = new Set<string>();
    for (const route of table) if (matches(route.path, path)) methods.add(route.method);
    // A GET route answers HEAD too (Bun serves HEAD from GET handlers).
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}

function matches(pattern: string, path: string): boolean {
  if (pattern.endsWith('/*')) return path.startsWith(pattern.slice(0, -1));
  const wanted = pattern.split('/');
  const actual = path.split('/');
  return wanted.length === actual.length && wanted.every((part, i) => part === actual[i] || (part.startsWith(':') && actual[i] !== ''));
}
