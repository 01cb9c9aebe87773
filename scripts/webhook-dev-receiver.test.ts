/**
 * The local webhook receiver (issue 23, item 6): a delivery signed with the endpoint's secret is
 * accepted and reported, one signed with another secret is refused with 401, and the printed
 * settings are the ones the service needs to deliver to it.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceSignature } from '../backend/src/modules/webhooks/signing';
import { devCertificate, devReceiverInstructions, startDevReceiver } from './webhook-dev-receiver';

const dir = mkdtempSync(join(tmpdir(), 'dev-receiver-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('webhook dev receiver', () => {
  test('checks signatures over the raw body and reports each delivery; prints the exact settings', async () => {
    const tls = devCertificate(dir);
    const lines: string[] = [];
    const secret = 'whsec_dev_receiver_test_secret';
    const server = startDevReceiver({ port: 0, tls, secret, log: (line) => lines.push(line) });
    try {
      const body = JSON.stringify({ event: 'verification.completed', data: { sessionId: 'ses_1' } });
      const post = (signature: string) =>
        fetch(`https://127.0.0.1:${server.port}/webhooks`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'x-service-signature': signature, 'webhook-id': 'msg_1' },
          tls: { ca: tls.cert },
        } as RequestInit);
      expect((await post(serviceSignature(secret, new TextEncoder().encode(body)))).status).toBe(204);
      expect((await post(serviceSignature('whsec_another_secret', new TextEncoder().encode(body)))).status).toBe(401);
      expect(lines[0]).toBe('verification.completed for ses_1 (signature verified, webhook-id msg_1)');
      expect(lines[1]).toContain('refused (401)');
    } finally {
      server.stop(true);
    }
    const text = devReceiverInstructions('https://127.0.0.1:4443/webhooks', tls.caFile);
    expect(text).toContain(`WEBHOOK_ALLOWED_CIDRS=127.0.0.1/32 WEBHOOK_CA_FILE=${tls.caFile} bun run start`);
    expect(text).toContain('bun run cli webhooks add --tenant TENANT_ID --url https://127.0.0.1:4443/webhooks');
  });
});
