import type { VerifyCredentials } from '@ageverify/protocol';

/**
 * What the verify UI takes from its own address.
 *
 * Spec "Session creation result", verifyUrl rules: the URL always carries `sessionId` and
 * `sessionToken`; it may also carry `returnUrl`, `cancelUrl`, `merchantName`, `externalUserId`,
 * `blocked`, `portalUrl` and compatibility parameters, but "those parameters never override the
 * authenticated session configuration". So they are deliberately not read here: merchant name,
 * policy, billing block and return destination all come from the authenticated session API.
 * Only the display parameters (`lang`, `skip_intro`, `auto_return`) change how the UI behaves.
 *
 * Spec "QR handoff": the link a phone opens carries `handoffToken` instead of `sessionToken`
 * (docs/decisions-on-open-points.md "handoffToken": valid only to open the same session on a second device).
 */
export type SessionCredentials = VerifyCredentials;

export interface LaunchParams {
  /** null when the session id or both tokens are missing or empty: the link is incomplete. */
  credentials: SessionCredentials | null;
  /** Raw `lang` value; language.ts decides whether it is usable. */
  lang: string | null;
  skipIntro: boolean;
  autoReturn: boolean;
}

export function parseLaunchParams(search: string): LaunchParams {
  const query = new URLSearchParams(search);
  return {
    credentials: chooseCredentials(query),
    lang: query.get('lang'),
    // The spec names the value `true` only; anything else keeps the default behaviour.
    skipIntro: query.get('skip_intro') === 'true',
    autoReturn: query.get('auto_return') === 'true',
  };
}

/**
 * The API takes exactly one token. A link with both is the desktop's (the sessionToken is the
 * stronger credential: it may poll, cancel and get the handoff link), so sessionToken wins.
 */
function chooseCredentials(query: URLSearchParams): SessionCredentials | null {
  const sessionId = query.get('sessionId')?.trim();
  if (!sessionId) return null;
  const sessionToken = query.get('sessionToken')?.trim();
  if (sessionToken) return { sessionId, sessionToken };
  const handoffToken = query.get('handoffToken')?.trim();
  if (handoffToken) return { sessionId, handoffToken };
  return null;
}

/** True for the phone side of a QR handoff, which must never send the user to the merchant. */
export function isHandoffCredentials(credentials: SessionCredentials): credentials is { sessionId: string; handoffToken: string } {
  return 'handoffToken' in credentials;
}
