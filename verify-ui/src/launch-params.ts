/**
 * What the verify UI takes from its own address.
 *
 * Spec "Session creation result", verifyUrl rules: the URL always carries `sessionId` and
 * `sessionToken`; it may also carry `returnUrl`, `cancelUrl`, `merchantName`, `externalUserId`,
 * `blocked`, `portalUrl` and compatibility parameters, but "those parameters never override the
 * authenticated session configuration". So they are deliberately not read here: merchant name,
 * policy, billing block and return destination all come from the authenticated session API.
 * Only the display parameters (`lang`, `skip_intro`, `auto_return`) change how the UI behaves.
 */
export interface SessionCredentials {
  sessionId: string;
  sessionToken: string;
}

export interface LaunchParams {
  /** null when either value is missing or empty: the link is incomplete. */
  credentials: SessionCredentials | null;
  /** Raw `lang` value; language.ts decides whether it is usable. */
  lang: string | null;
  skipIntro: boolean;
  autoReturn: boolean;
}

export function parseLaunchParams(search: string): LaunchParams {
  const query = new URLSearchParams(search);
  const sessionId = query.get('sessionId')?.trim();
  const sessionToken = query.get('sessionToken')?.trim();
  return {
    credentials: sessionId && sessionToken ? { sessionId, sessionToken } : null,
    lang: query.get('lang'),
    // The spec names the value `true` only; anything else keeps the default behaviour.
    skipIntro: query.get('skip_intro') === 'true',
    autoReturn: query.get('auto_return') === 'true',
  };
}
