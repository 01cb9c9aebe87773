/**
 * Runs the backend's scripted HTTPS webhook receiver (backend/src/modules/webhooks/testing/https-receiver.ts,
 * which needs Bun) as its own process for the Playwright specs, which run in Node. It prints one
 * JSON line `{ port, caFile, controlPort }` and then answers a small control API on 127.0.0.1:
 *   GET  /requests?path=/x      → what the receiver got on that path (body text, eventId, signature checks)
 *   POST /script  {path, responses, fallback?}   → queue answers for a path
 *   POST /secret  {path, secret}                 → verify that path's signatures with this secret
 * Run: bun e2e/support/webhook-receiver-process.ts
 */
import { startReceiver, type ScriptedResponse } from '../../backend/src/modules/webhooks/testing/https-receiver';
import { removeTestCertificates } from '../../backend/src/modules/webhooks/testing/test-certificates';

const receiver = await startReceiver();

const control = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(request) {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname === '/requests') {
      const path = url.searchParams.get('path') ?? undefined;
      return Response.json(
        receiver.requests(path).map((received) => ({
          path: received.path,
          text: received.text,
          eventId: received.eventId,
          serviceSignatureValid: received.serviceSignatureValid,
          standardSignatureValid: received.standardSignatureValid,
          duplicate: received.duplicate,
        })),
      );
    }
    if (request.method === 'POST' && url.pathname === '/script') {
      const body = (await request.json()) as { path: string; responses: ScriptedResponse[]; fallback?: ScriptedResponse };
      receiver.script(body.path, body.responses, body.fallback);
      return Response.json({ ok: true });
    }
    if (request.method === 'POST' && url.pathname === '/secret') {
      const body = (await request.json()) as { path: string; secret: string };
      receiver.expectSecret(body.path, body.secret);
      return Response.json({ ok: true });
    }
    return new Response('not found', { status: 404 });
  },
});

console.log(JSON.stringify({ port: receiver.port, caFile: receiver.caFile, controlPort: control.port }));

const stop = async () => {
  control.stop(true);
  await receiver.stop();
  await removeTestCertificates();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
