/**
 * Rotating an endpoint's signing secret (decision 0036), on every database target: the new secret
 * replaces the old one at once, for queued retries too; the legacy webhook and another tenant's
 * endpoint are refused and keep their secret.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { webhookEndpoints } from '../../../db/schema';
import { AppError } from '../../../errors/app-error';
import { TARGETS } from '../../../testing/test-databases';
import { newId } from '../../../ids';
import { createTenant } from '../../tenants/service';
import { serviceSignature } from '../signing';
import { createTestbed, type Testbed } from '../testing/testbed';
import { rotateSecret } from './endpoint-config';
import { TEST_AUDIT } from '../../audit/testing/audit-kit';

async function refusal(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, status: error.status, message: error.message };
    throw error;
  }
  throw new Error('the call was not refused');
}

for (const target of TARGETS) {
  describe(`rotate an endpoint's secret [${target}]`, () => {
    let bed: Testbed;
    beforeAll(async () => {
      bed = await createTestbed(target);
    });
    afterAll(() => bed.close());

    let pathCounter = 0;
    const fresh = (name: string) => `/${name}-${++pathCounter}`;
    const isolate = async () => {
      await bed.database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.tenantId, bed.tenantId));
    };

    test('a new secret, stored at once: the retry of an event queued before the rotation is signed with it only', async () => {
      await isolate();
      const path = fresh('rotate');
      const created = await bed.endpoint(path, ['verification.completed']);
      bed.receiver.script(path, [{ status: 500 }, { status: 200 }]);
      await bed.complete((await bed.session()).sessionId);
      await bed.run();

      const { secret } = await rotateSecret(bed.database.db, bed.tenantId, created.endpointId, TEST_AUDIT);
      expect(secret).toStartWith('whsec_');
      expect(secret).not.toBe(created.secret);
      expect((await bed.endpointRow(created.endpointId)).secret).toBe(secret);

      await bed.step();
      const [failed, retried] = bed.receiver.requests(path);
      expect(retried!.eventId).toBe(failed!.eventId);
      const signature = retried!.headers.get('x-service-signature');
      expect(signature).toBe(serviceSignature(secret, retried!.rawBody));
      expect(signature).not.toBe(serviceSignature(created.secret, retried!.rawBody));
    });

    test('refused, secret unchanged: the legacy webhook, an endpoint of another tenant, one that does not exist', async () => {
      await isolate();
      const legacyId = 'whe_legacy_rotate';
      await bed.database.db.insert(webhookEndpoints).values({
        id: legacyId,
        tenantId: bed.tenantId,
        url: bed.receiver.url('/legacy'),
        secret: 'legacy-secret',
        events: ['verification.completed'],
        pairId: null,
        enabled: true,
        legacy: true,
        createdAt: bed.clock.now(),
      });
      expect(await refusal(rotateSecret(bed.database.db, bed.tenantId, legacyId, TEST_AUDIT))).toEqual({
        code: 'LEGACY_ENDPOINT_NOT_EDITABLE',
        status: 409,
        message: 'the legacy webhook is migrated by creating the first endpoint; edit it after that',
      });
      expect((await bed.endpointRow(legacyId)).secret).toBe('legacy-secret');

      const { endpointId, secret } = await bed.endpoint(fresh('rotate-mine'), ['session.started']);
      const other = await createTenant(bed.database.db, bed.clock, {
        name: 'Other Shop',
        domains: ['other.example.com'],
        sandbox: false,
        owner: { email: `owner-${newId('user')}@other.example.com`, password: 'correct horse battery' },
      });
      expect(await refusal(rotateSecret(bed.database.db, other.tenantId, endpointId, TEST_AUDIT))).toEqual({
        code: 'ENDPOINT_NOT_FOUND',
        status: 404,
        message: `tenant ${other.tenantId} has no webhook endpoint "${endpointId}"`,
      });
      expect(await refusal(rotateSecret(bed.database.db, bed.tenantId, 'whe_nope', TEST_AUDIT))).toEqual({
        code: 'ENDPOINT_NOT_FOUND',
        status: 404,
        message: `tenant ${bed.tenantId} has no webhook endpoint "whe_nope"`,
      });
      expect((await bed.endpointRow(endpointId)).secret).toBe(secret);
    });
  });
}
