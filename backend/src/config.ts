/**
 * The one configuration module (docs/engineering-habits.md habit 5): every setting with its default and the reason
 * for it, read from the environment and validated at boot. A bad value stops the process with a
 * message that says how to fix it.
 */
import { isAbsolute, resolve } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';

export interface Config {
  /** PORT: HTTP port. Default 3000. */
  port: number;
  /** HOST: interface to bind. Default 0.0.0.0 (all). */
  host: string;
  /** PUBLIC_BASE_URL: the address users and merchants reach this service at, without /api/v1. Default http://localhost:PORT. */
  publicBaseUrl: string;
  /** VERIFY_URL: address of the hosted verify UI. Default PUBLIC_BASE_URL + /verify (served by this process). */
  verifyUrl: string;
  /** DATABASE_URL: PostgreSQL connection string. Unset means the embedded PGlite database in DATA_DIR. */
  databaseUrl: string | null;
  /** DATA_DIR: folder of the embedded database and its lock. Default ./.data. Ignored with DATABASE_URL. */
  dataDir: string;
  /** SERVER_SECRET: key for session-token HMACs. Required with DATABASE_URL; unset in embedded mode: generated once into DATA_DIR/server-secret (server-secret.ts). */
  serverSecret: string | null;
  /** WEBHOOK_ALLOWED_CIDRS: comma-separated CIDRs exempt from the public-address rule. Empty by default (tests and private deployments set it). */
  webhookAllowedCidrs: [ipaddr.IPv4 | ipaddr.IPv6, number][];
  /** WEBHOOK_CA_FILE: extra PEM CA bundle trusted for webhook TLS. Empty by default. */
  webhookCaFile: string | null;
  /** WEBHOOK_MAX_IN_FLIGHT: webhook requests in flight per instance, all endpoints together. Default 64 (issue 14 bench: enough to keep 4 endpoints busy on 2 cores). */
  webhookMaxInFlight: number;
  /** WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: requests in flight per instance to one Active endpoint (a Retrying one always gets one at a time, spec). Default 32 (the pinned client keeps as many connections to it). */
  webhookMaxInFlightPerEndpoint: number;
  /** WEBHOOK_RETENTION_DAYS: delivered webhook deliveries, their attempts and spent events are removed this many days after delivery (decision 0033). Default 30; at least 7 (the redelivery window). Undelivered rows are kept. */
  webhookRetentionDays: number;
  /** RECEIPT_KEY_ROTATION_DAYS: the verification receipts' signing key is replaced after this many days (`bun run cli receipts rotate-key` does it at once). Default 90; retired public keys stay published. */
  receiptKeyRotationDays: number;
  /** SMTP_URL: e.g. smtp://user:pass@host:587. Unset: mails are kept in the database outbox (read with `bun run cli webhooks notices`). */
  smtpUrl: string | null;
  /** MAX_BODY_BYTES: largest accepted request body. Default 16 KiB: the largest valid create body is ~6 KiB. */
  maxBodyBytes: number;
  /** ENGINE_WORKERS: worker threads running the verification models. Default 1: each holds ~300 MB of models and one inference uses a core (docs/verification.md). */
  engineWorkers: number;
  /** ENGINE_QUEUE_LIMIT: checks waiting for a worker before new ones are answered 503 with Retry-After. Default 8 (~2–4 s of work per worker). */
  engineQueueLimit: number;
  /** ENGINE_PRELOAD: load the models at boot (true) instead of at the first live check. Default false: a server that never runs live checks never pays the ~300 MB. */
  enginePreload: boolean;
  /** L1_AGE_MARGIN: years a face's estimated age must clear challengeAge by to pass L1. Default from measurements (decision 0031-l1-margin.md). */
  l1AgeMargin: number;
  /** DASHBOARD_SIGNUP: true lets anyone create a further tenant from the dashboard's sign-in page, finished from an emailed link (needs SMTP_URL). Default false: the first tenant comes from the setup link, further ones from the CLI. */
  dashboardSignup: boolean;
  /** LOG_LEVEL: debug | info | warn | error. Default info. */
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

/** Decision 0031-l1-margin.md: the margin that kept UTKFace under-18s from passing L1 at challengeAge 25. */
export const DEFAULT_L1_AGE_MARGIN = 5;
/** MAX_BODY_BYTES default (also quoted by the OpenAPI document's 413 example). */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const problems: string[] = [];
  const str = (name: string): string | null => {
    const value = env[name]?.trim();
    return value ? value : null;
  };

  const port = parseIntSetting('PORT', str('PORT'), 3000, 0, 65535, problems);
  const publicBaseUrl = parseBaseUrl('PUBLIC_BASE_URL', str('PUBLIC_BASE_URL') ?? `http://localhost:${port}`, problems);
  const verifyUrl = parseBaseUrl('VERIFY_URL', str('VERIFY_URL') ?? `${publicBaseUrl}/verify`, problems);

  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push(`DATABASE_URL must start with postgres:// or postgresql://, got "${redact(databaseUrl)}". Unset it to use the embedded database.`);
  }

  const dataDirRaw = str('DATA_DIR') ?? './.data';
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(cwd, dataDirRaw);

  const serverSecret = str('SERVER_SECRET');
  if (serverSecret && serverSecret.length < 32) {
    problems.push('SERVER_SECRET must be at least 32 characters; generate one with: openssl rand -hex 32');
  }

  const webhookAllowedCidrs: Config['webhookAllowedCidrs'] = [];
  for (const cidr of (str('WEBHOOK_ALLOWED_CIDRS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    try {
      webhookAllowedCidrs.push(ipaddr.parseCIDR(cidr));
    } catch {
      problems.push(`WEBHOOK_ALLOWED_CIDRS: "${cidr}" is not a CIDR; write e.g. 127.0.0.1/32,::1/128`);
    }
  }

  const webhookCaFile = str('WEBHOOK_CA_FILE');
  if (webhookCaFile && !existsSync(webhookCaFile)) {
    problems.push(`WEBHOOK_CA_FILE: no file at "${webhookCaFile}"; give the path of a PEM CA bundle or unset it`);
  } else if (webhookCaFile && !readFileSync(webhookCaFile, 'utf8').includes('BEGIN CERTIFICATE')) {
    problems.push(`WEBHOOK_CA_FILE: "${webhookCaFile}" holds no PEM certificate ("-----BEGIN CERTIFICATE-----")`);
  }

  const smtpUrl = str('SMTP_URL');
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) {
    problems.push(`SMTP_URL must start with smtp:// or smtps://, got "${redact(smtpUrl)}"`);
  }

  const webhookMaxInFlight = parseIntSetting('WEBHOOK_MAX_IN_FLIGHT', str('WEBHOOK_MAX_IN_FLIGHT'), 64, 1, 4096, problems);
  const webhookMaxInFlightPerEndpoint = parseIntSetting('WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT', str('WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT'), 32, 1, 1024, problems);
  // Spec Delivery rule 10: undelivered events of the last 7 days can be redelivered; nothing younger may go.
  const webhookRetentionDays = parseIntSetting('WEBHOOK_RETENTION_DAYS', str('WEBHOOK_RETENTION_DAYS'), 30, 7, 3650, problems);
  const receiptKeyRotationDays = parseIntSetting('RECEIPT_KEY_ROTATION_DAYS', str('RECEIPT_KEY_ROTATION_DAYS'), 90, 1, 3650, problems);

  const maxBodyBytes = parseIntSetting('MAX_BODY_BYTES', str('MAX_BODY_BYTES'), DEFAULT_MAX_BODY_BYTES, 1024, 10 * 1024 * 1024, problems);

  const engineWorkers = parseIntSetting('ENGINE_WORKERS', str('ENGINE_WORKERS'), 1, 1, 16, problems);
  const engineQueueLimit = parseIntSetting('ENGINE_QUEUE_LIMIT', str('ENGINE_QUEUE_LIMIT'), 8, 0, 1000, problems);
  const enginePreloadRaw = str('ENGINE_PRELOAD') ?? 'false';
  if (enginePreloadRaw !== 'true' && enginePreloadRaw !== 'false') problems.push(`ENGINE_PRELOAD must be true or false, got "${enginePreloadRaw}"`);
  const l1AgeMargin = parseIntSetting('L1_AGE_MARGIN', str('L1_AGE_MARGIN'), DEFAULT_L1_AGE_MARGIN, 0, 30, problems);

  const dashboardSignupRaw = str('DASHBOARD_SIGNUP') ?? 'false';
  if (dashboardSignupRaw !== 'true' && dashboardSignupRaw !== 'false') problems.push(`DASHBOARD_SIGNUP must be true or false, got "${dashboardSignupRaw}"`);
  // Sign-up finishes through an emailed link (issue 22, finding 9): without mail nobody could finish.
  else if (dashboardSignupRaw === 'true' && !smtpUrl) problems.push('DASHBOARD_SIGNUP=true needs SMTP_URL: a sign-up is finished from the link it emails');

  const logLevel = (str('LOG_LEVEL') ?? 'info') as Config['logLevel'];
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of debug, info, warn, error; got "${logLevel}"`);
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host: str('HOST') ?? '0.0.0.0',
    publicBaseUrl,
    verifyUrl,
    databaseUrl,
    dataDir,
    serverSecret,
    webhookAllowedCidrs,
    webhookCaFile,
    webhookMaxInFlight,
    webhookMaxInFlightPerEndpoint,
    webhookRetentionDays,
    receiptKeyRotationDays,
    smtpUrl,
    maxBodyBytes,
    engineWorkers,
    engineQueueLimit,
    enginePreload: enginePreloadRaw === 'true',
    l1AgeMargin,
    dashboardSignup: dashboardSignupRaw === 'true',
    logLevel,
  };
}

function parseIntSetting(name: string, raw: string | null, fallback: number, min: number, max: number, problems: string[]): number {
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  return value;
}

function parseBaseUrl(name: string, raw: string, problems: string[]): string {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    if (url.search || url.hash) throw new Error('query');
    return url.toString().replace(/\/+$/, '');
  } catch {
    problems.push(`${name} must be an absolute http(s) URL without query, e.g. https://verify.example.com; got "${raw}"`);
    return raw;
  }
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
