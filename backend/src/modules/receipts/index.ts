/**
 * `GET /.well-known/jwks.json`: the public keys of verification receipts (issue 24), active and
 * retired, so every receipt ever issued can be checked with any JOSE library. Cached briefly: a
 * new key is published as soon as it signs, and verifiers refetch on an unknown `kid`.
 */
import { Elysia, t } from 'elysia';
import type { Db } from '../../db/database';
import { publicJwks } from './signing-keys';

export const JWKS_PATH = '/.well-known/jwks.json';
/** Five minutes: long enough to spare the database, short enough that a rotation reaches verifiers quickly. */
export const JWKS_MAX_AGE_SECONDS = 300;

const jwk = t.Object(
  {
    kty: t.String({ description: 'EC' }),
    crv: t.String({ description: 'P-256' }),
    x: t.String({ description: 'The public point, x coordinate (base64url).' }),
    y: t.String({ description: 'The public point, y coordinate (base64url).' }),
    kid: t.String({ description: 'The JWK thumbprint (RFC 7638); a receipt header names the key that signed it.' }),
    alg: t.String({ description: 'ES256' }),
    use: t.String({ description: 'sig' }),
  },
  { additionalProperties: true },
);

export function receiptRoutes(deps: { db: Db }) {
  return new Elysia({ name: 'receipts' }).get(
    JWKS_PATH,
    async ({ set }) => {
      set.headers['cache-control'] = `public, max-age=${JWKS_MAX_AGE_SECONDS}`;
      // Merchants' verifiers may run in browsers too: the keys are public.
      set.headers['access-control-allow-origin'] = '*';
      return (await publicJwks(deps.db)) as { keys: (typeof jwk.static)[] };
    },
    {
      response: {
        200: t.Object(
          { keys: t.Array(jwk, { description: 'Every receipt signing key, active and retired, oldest first.' }) },
          { description: 'A JSON Web Key Set (RFC 7517).' },
        ),
      },
      detail: {
        summary: 'Public keys of verification receipts (JWKS)',
        description:
          'The ES256 public keys that sign the `receipt` of validation results, including retired ones, so every receipt ever issued ' +
          'keeps verifying after a key rotation. Cached for 5 minutes; a verifier that meets an unknown `kid` should fetch again.',
        tags: ['Receipts'],
        // Public: no key, no session token.
        security: [],
      },
    },
  );
}
