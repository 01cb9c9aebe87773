/**
 * Test kit of the dashboard API: browsers with their own cookie jar calling the in-process app,
 * and tenants with members of each role made the way the CLI and invitations make them.
 */
import type { UserRole } from '@ageverify/protocol';
import type { TestContext } from '../../../testing/test-app';
import { hashPassword } from '../../../crypto';
import { newId } from '../../../ids';
import { insertMember, insertUser } from '../../tenants/accounts';
import { eq } from 'drizzle-orm';
import { emailOutbox } from '../../../db/schema';

export const ORIGIN = 'http://localhost:3000';

/** An invitation's acceptance secret, as only the invitee's email carries it (the latest email to that address). */
export async function invitationSecretFromOutbox(ctx: TestContext, tenantId: string, email: string): Promise<string> {
  const mails = await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.tenantId, tenantId));
  const mail = mails.filter((m) => m.recipients.includes(email)).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  const secret = /\/dashboard\/invite#secret=([\w-]+)/.exec(mail?.text ?? '')?.[1];
  if (!secret) throw new Error(`no invitation link in the email to ${email}`);
  return secret;
}
export const PASSWORD = 'correct horse battery';

export interface CallOptions {
  /** Default: our origin. null: no Origin header. */
  origin?: string | null;
  /** Default application/json when there is a body or the method changes state. */
  contentType?: string | null;
  headers?: Record<string, string>;
}

export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly ctx: TestContext) {}

  async call(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    const origin = options.origin === undefined ? ORIGIN : options.origin;
    if (origin) headers.origin = origin;
    const changes = method !== 'GET' && method !== 'HEAD';
    const contentType = options.contentType === undefined ? (changes ? 'application/json' : null) : options.contentType;
    if (contentType) headers['content-type'] = contentType;
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const payload = body !== undefined ? JSON.stringify(body) : changes && contentType === 'application/json' ? '{}' : undefined;
    const response = await this.ctx.app.handle(new Request(`${ORIGIN}${path}`, { method, headers, body: payload }));
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (value === '' || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async json<T = Record<string, any>>(method: string, path: string, body?: unknown, expectStatus?: number): Promise<T> {
    const response = await this.call(method, path, body);
    const text = await response.text();
    if (expectStatus !== undefined && response.status !== expectStatus)
      throw new Error(`${method} ${path}: expected ${expectStatus}, got ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  async signIn(email: string, password = PASSWORD): Promise<Response> {
    return this.call('POST', '/dashboard/api/auth/sign-in/email', { email, password });
  }
}

/** A user with a password and a membership of `tenantId`. */
export async function addUser(ctx: TestContext, tenantId: string, role: UserRole, email = `${role}-${newId('user').slice(4, 12).toLowerCase()}@example.com`) {
  const now = ctx.clock.now();
  const userId = await insertUser(ctx.database.db, { email, passwordHash: await hashPassword(PASSWORD) }, now);
  await insertMember(ctx.database.db, tenantId, userId, role, now);
  return { userId, email };
}

/** A signed-in browser of a new user with `role` in `tenantId`. */
export async function signedIn(ctx: TestContext, tenantId: string, role: UserRole) {
  const user = await addUser(ctx, tenantId, role);
  const browser = new Browser(ctx);
  const response = await browser.signIn(user.email);
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return Object.assign(browser, { user });
}
