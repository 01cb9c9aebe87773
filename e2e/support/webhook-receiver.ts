/**
 * The webhook receiver process (webhook-receiver-process.ts) seen from a spec: start it, script it,
 * read what it received. It is a real HTTPS server on 127.0.0.1 whose certificate is signed by a
 * throwaway CA; the backend trusts that CA through WEBHOOK_CA_FILE.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface ReceivedWebhook {
  path: string;
  text: string;
  eventId: string | null;
  serviceSignatureValid: boolean | null;
  standardSignatureValid: boolean | null;
  duplicate: boolean;
}

export interface ScriptedAnswer {
  status?: number;
  retryAfter?: string;
  body?: string;
}

export class WebhookReceiver {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly caFile: string,
    private readonly controlPort: number,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const child = spawn('bun', ['e2e/support/webhook-receiver-process.ts'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve, reject) => {
      let buffered = '';
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (chunk: string) => {
        buffered += chunk;
        const newline = buffered.indexOf('\n');
        if (newline >= 0) resolve(buffered.slice(0, newline));
      });
      child.once('exit', (code) => reject(new Error(`webhook receiver exited (${code}) before it was ready`)));
      child.once('error', reject);
    });
    const { port, caFile, controlPort } = JSON.parse(line) as { port: number; caFile: string; controlPort: number };
    return new WebhookReceiver(child, port, caFile, controlPort);
  }

  /** An https:// URL on 127.0.0.1 (the certificate names that address). */
  url(path: string): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }

  private async control(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`http://127.0.0.1:${this.controlPort}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`receiver control ${path}: HTTP ${response.status}`);
    return response.json();
  }

  requests(path: string): Promise<ReceivedWebhook[]> {
    return this.control('GET', `/requests?path=${encodeURIComponent(path)}`) as Promise<ReceivedWebhook[]>;
  }

  async script(path: string, responses: ScriptedAnswer[], fallback?: ScriptedAnswer): Promise<void> {
    await this.control('POST', '/script', { path, responses, fallback });
  }

  async expectSecret(path: string, secret: string): Promise<void> {
    await this.control('POST', '/secret', { path, secret });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
