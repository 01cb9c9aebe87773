/**
 * The path as the logs show it (issue 22, finding 7): identifiers that act as credentials never
 * reach a log line. The query string is never logged — the verify UI's page is opened with the
 * sessionToken or handoffToken in it (verifyUrl, handoffUrl) — and path segments that are
 * credentials are replaced by the route's parameter name: the invitation id, with which an
 * invitation is looked up and accepted. The setup token travels in the URL's fragment
 * (`/dashboard/setup#token=…`), which browsers never send. Session, tenant, key-pair and endpoint
 * ids are not credentials (each route checks the caller's key, token or cookie) and stay, so a log
 * line still says what was touched.
 */
const REDACTED: { pattern: RegExp; replacement: string }[] = [
  // GET /dashboard/api/invitations/:invitationId and POST …/:invitationId/accept
  { pattern: /^(\/dashboard\/api\/invitations\/)[^/]+/, replacement: '$1:invitationId' },
  // DELETE /dashboard/api/tenants/:tenantId/invitations/:invitationId (an admin withdrawing one)
  { pattern: /^(\/dashboard\/api\/tenants\/[^/]+\/invitations\/)[^/]+/, replacement: '$1:invitationId' },
];

export function loggedPath(url: string): string {
  let path: string;
  try {
    path = new URL(url, 'http://localhost').pathname;
  } catch {
    return '(unparsable)';
  }
  for (const { pattern, replacement } of REDACTED) path = path.replace(pattern, replacement);
  return path;
}
