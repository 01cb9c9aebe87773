/** verifyReceipt: the verdicts a merchant branches on, with keys made here by `jose`. */
import { describe, expect, test } from 'bun:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { RECEIPT_TYPE, verifyReceipt } from './receipt';

async function signer(kid: string) {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const sign = (claims: Record<string, unknown>, typ = RECEIPT_TYPE) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ, kid }).sign(privateKey);
  return { jwk, sign };
}

const CLAIMS = { iss: 'https://verify.example.com', sub: 'ses_1', tenantId: 'ten_1', outcome: 'verified', chain: { seq: 1, prev: '' } };

describe('verifyReceipt', () => {
  test('a receipt signed by a published key verifies and returns its claims', async () => {
    const key = await signer('k1');
    const verdict = await verifyReceipt(await key.sign(CLAIMS), {
      jwks: { keys: [key.jwk] },
      issuer: 'https://verify.example.com',
      tenantId: 'ten_1',
      sessionId: 'ses_1',
    });
    expect(verdict).toMatchObject({ ok: true, claims: { sub: 'ses_1', outcome: 'verified' } });
  });

  test('each refusal has its reason', async () => {
    const key = await signer('k1');
    const stranger = await signer('k1');
    const jwks = { keys: [key.jwk] };
    const receipt = await key.sign(CLAIMS);
    const [header, , signature] = receipt.split('.');
    const changed = `${header}.${Buffer.from(JSON.stringify({ ...CLAIMS, outcome: 'failed' })).toString('base64url')}.${signature}`;
    const cases: [string, Promise<unknown>, string][] = [
      ['a changed claim', verifyReceipt(changed, { jwks }), 'invalid-signature'],
      ['another key under the same kid', verifyReceipt(await stranger.sign(CLAIMS), { jwks }), 'invalid-signature'],
      ['a kid nobody published', verifyReceipt(await (await signer('k9')).sign(CLAIMS), { jwks }), 'unknown-key'],
      ['another token type', verifyReceipt(await key.sign(CLAIMS, 'JWT'), { jwks }), 'malformed'],
      ['not a JWS', verifyReceipt('not.a.receipt', { jwks }), 'malformed'],
      ['another issuer', verifyReceipt(receipt, { jwks, issuer: 'https://evil.example' }), 'wrong-issuer'],
      ['another tenant', verifyReceipt(receipt, { jwks, tenantId: 'ten_2' }), 'wrong-tenant'],
      ['another session', verifyReceipt(receipt, { jwks, sessionId: 'ses_2' }), 'wrong-session'],
    ];
    for (const [name, verdict, reason] of cases) expect({ name, verdict: await verdict }).toMatchObject({ name, verdict: { ok: false, reason } });
  });

  test('misuse throws at once with what was expected', async () => {
    await expect(verifyReceipt('a.b.c', {})).rejects.toThrow('Expected options.jwksUrl or options.jwks, got neither.');
    await expect(verifyReceipt(42 as unknown as string, { jwks: { keys: [] } })).rejects.toThrow('Expected the receipt as a string, got type number instead.');
  });
});
