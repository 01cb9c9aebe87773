/** The webhook subcommands of the provisioning CLI (runCommand), on every database target. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { TARGETS } from '../testing/test-databases';
import { createTestbed, type Testbed } from '../modules/webhooks/testing/testbed';
import { USAGE, runCommand, type CommandContext } from './commands';

for (const target of TARGETS) {
  describe(`cli webhooks [${target}]`, () => {
    let bed: Testbed;
    let ctx: CommandContext;
    beforeAll(async () => {
      bed = await createTestbed(target);
      ctx = { db: bed.database.db, clock: bed.clock, guard: bed.guard };
    });
    afterAll(() => bed.close());
    const run = async (...argv: string[]) => {
      const result = await runCommand(ctx, argv);
      return { ...result, json: result.stdout ? JSON.parse(result.stdout) : null };
    };

    test('usage lists the webhook subcommands', () => {
      for (const sub of [
        'webhooks edit',
        'webhooks enable|disable',
        'webhooks test',
        'webhooks redeliver',
        'webhooks health',
        'webhooks attempts',
        'webhooks notices',
        'webhooks legacy-set',
      ])
        expect(USAGE).toContain(sub);
    });

    test('add prints a Standard Webhooks secret; list shows the delivery state', async () => {
      const added = await run('webhooks', 'add', '--tenant', bed.tenantId, '--url', bed.receiver.url('/cli'), '--events', 'verification.completed');
      expect(added.exitCode).toBe(0);
      expect(added.json.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      bed.receiver.expectSecret('/cli', added.json.secret);
      const listed = await run('webhooks', 'list', '--tenant', bed.tenantId);
      expect(listed.json[0]).toMatchObject({ endpointId: added.json.endpointId, state: 'active', enabled: true });
    });

    test('edit, disable, enable', async () => {
      const [endpoint] = (await run('webhooks', 'list', '--tenant', bed.tenantId)).json;
      const edited = await run(
        'webhooks',
        'edit',
        '--tenant',
        bed.tenantId,
        '--endpoint',
        endpoint.endpointId,
        '--events',
        'verification.completed,session.timeout',
      );
      expect(edited.json.events).toEqual(['verification.completed', 'session.timeout']);
      expect((await run('webhooks', 'edit', '--tenant', bed.tenantId, '--endpoint', endpoint.endpointId, '--url', 'http://insecure.example/')).stderr).toMatch(
        /must use https/,
      );
      expect((await run('webhooks', 'edit', '--tenant', bed.tenantId, '--endpoint', endpoint.endpointId)).stderr).toMatch(/nothing to change/);
      expect((await run('webhooks', 'disable', '--tenant', bed.tenantId, '--endpoint', endpoint.endpointId)).json).toMatchObject({
        state: 'disabled',
        changed: true,
      });
      expect((await run('webhooks', 'disable', '--tenant', bed.tenantId, '--endpoint', endpoint.endpointId)).json).toMatchObject({
        state: 'disabled',
        changed: false,
      });
      expect((await run('webhooks', 'test', '--tenant', bed.tenantId, '--endpoint', endpoint.endpointId)).stderr).toMatch(/disabled; enable it first/);
      expect((await run('webhooks', 'enable', '--tenant', bed.tenantId, '--endpoint', endpoint.endpointId)).json).toMatchObject({
        state: 'active',
        changed: true,
      });
    });

    test('test sends a signed test event; health and attempts report it; redeliver queues', async () => {
      const [endpoint] = (await run('webhooks', 'list', '--tenant', bed.tenantId)).json;
      const tested = await run('webhooks', 'test', '--tenant', bed.tenantId, '--endpoint', endpoint.endpointId);
      expect(tested.json).toMatchObject({ delivered: true, statusCode: 200, state: 'active' });
      expect(bed.receiver.requests('/cli').at(-1)!.serviceSignatureValid).toBe(true);
      const eventId = await bed.complete((await bed.session()).sessionId);
      await bed.run();
      const health = await run('webhooks', 'health', '--tenant', bed.tenantId, '--endpoint', endpoint.endpointId);
      expect(health.json[0]).toMatchObject({ state: 'active', health: 'healthy', deliveredEvents: 1, undeliveredEvents: 0 });
      const attempts = await run('webhooks', 'attempts', '--tenant', bed.tenantId, '--event', eventId);
      expect(attempts.json.deliveries[0].attempts[0]).toMatchObject({ statusCode: 200, outcome: 'success' });
      const recent = await run('webhooks', 'attempts', '--tenant', bed.tenantId, '--endpoint', endpoint.endpointId);
      expect(recent.json.map((a: { purpose: string }) => a.purpose).sort()).toEqual(['delivery', 'test']);
      expect((await run('webhooks', 'redeliver', '--tenant', bed.tenantId, '--endpoint', endpoint.endpointId)).json).toMatchObject({
        undeliveredEvents: 0,
        batches: 0,
      });
      expect((await run('webhooks', 'notices', '--tenant', bed.tenantId)).json).toEqual({ notices: [], emails: [] });
    });

    test('legacy-set is refused once an endpoint exists; errors name what is wrong', async () => {
      const refused = await run(
        'webhooks',
        'legacy-set',
        '--tenant',
        bed.tenantId,
        '--url',
        bed.receiver.url('/legacy'),
        '--events',
        'session.started',
        '--secret',
        's',
      );
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toMatch(/has webhook endpoints; the legacy webhook no longer applies/);
      expect((await run('webhooks', 'attempts', '--tenant', bed.tenantId)).stderr).toMatch(/give --event ID/);
      expect((await run('webhooks', 'attempts', '--tenant', bed.tenantId, '--event', 'evt_nope')).stderr).toMatch(/no event "evt_nope"/);
      expect((await run('webhooks', 'health', '--tenant', bed.tenantId, '--endpoint', 'whe_nope')).stderr).toMatch(/no webhook endpoint "whe_nope"/);
      expect((await run('webhooks', 'enable', '--tenant', 'ten_nope', '--endpoint', 'whe_nope')).stderr).toMatch(/no tenant with id "ten_nope"/);
    });
  });
}
