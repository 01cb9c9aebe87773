/**
 * Throwaway TLS material for the webhook tests, made with openssl at test time in a temp folder:
 * a CA (handed to the service as WEBHOOK_CA_FILE), a server certificate it signed for the test
 * host names and 127.0.0.1, and a self-signed certificate no one trusts (the TLS failure case).
 * Generated once per test process; the test preload removes them after the files
 * (removeTestCertificates).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  dir: string;
  caFile: string;
  caPem: string;
  serverCert: string;
  serverKey: string;
  untrustedCert: string;
  untrustedKey: string;
}

/** Host names the server certificate covers; tests map them to 127.0.0.1 with a fake resolver. */
export const TEST_HOSTS = ['hooks.test', 'other.hooks.test', 'rebind.hooks.test', 'localhost'];

let cached: Promise<TestCertificates> | null = null;

async function openssl(dir: string, args: string[]): Promise<void> {
  const proc = Bun.spawn(['openssl', ...args], { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`openssl ${args[0]} failed (${code}): ${await new Response(proc.stderr).text()}`);
}

export function testCertificates(): Promise<TestCertificates> {
  cached ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ageverify-webhook-certs-'));
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    await openssl(dir, ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=AgeVerify webhook test CA']);
    await openssl(dir, ['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=hooks.test']);
    writeFileSync(
      join(dir, 'server.ext'),
      `subjectAltName=${[...TEST_HOSTS.map((h) => `DNS:${h}`), 'IP:127.0.0.1'].join(',')}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
    );
    await openssl(dir, [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '2',
      '-extfile',
      'server.ext',
    ]);
    await openssl(dir, [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'untrusted.key',
      '-out',
      'untrusted.pem',
      '-days',
      '2',
      '-subj',
      '/CN=hooks.test',
      '-addext',
      `subjectAltName=${TEST_HOSTS.map((h) => `DNS:${h}`).join(',')},IP:127.0.0.1`,
    ]);
    const read = (name: string) => readFileSync(join(dir, name), 'utf8');
    return {
      dir,
      caFile: join(dir, 'ca.pem'),
      caPem: read('ca.pem'),
      serverCert: read('server.pem'),
      serverKey: read('server.key'),
      untrustedCert: read('untrusted.pem'),
      untrustedKey: read('untrusted.key'),
    };
  })();
  return cached;
}

/**
 * Removes the certificates this process made, if any. The test preload calls it after the test
 * files (bun test fires no `exit` event), so no run leaves a folder of keys behind in the temp folder.
 */
export async function removeTestCertificates(): Promise<void> {
  const made = cached;
  cached = null;
  const dir = await made?.then(
    (certificates) => certificates.dir,
    () => null,
  );
  if (dir) rmSync(dir, { recursive: true, force: true });
}
