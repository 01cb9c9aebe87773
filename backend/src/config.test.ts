import { describe, expect, test } from 'bun:test';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  test('defaults give a working embedded setup', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config.port).toBe(3000);
    expect(config.publicBaseUrl).toBe('http://localhost:3000');
    expect(config.verifyUrl).toBe('http://localhost:3000/verify');
    expect(config.databaseUrl).toBeNull();
    expect(config.dataDir).toBe('/srv/app/.data');
    expect(config.serverSecret).toBeNull();
    expect(config.webhookAllowedCidrs).toEqual([]);
    expect(config.webhookCaFile).toBeNull();
    expect(config.smtpUrl).toBeNull();
    expect([config.engineWorkers, config.engineQueueLimit, config.enginePreload, config.l1AgeMargin]).toEqual([1, 8, false, 5]);
    expect(config.dashboardSignup).toBe(false);
    expect([config.webhookMaxInFlight, config.webhookMaxInFlightPerEndpoint, config.webhookRetentionDays]).toEqual([64, 32, 30]);
  });

  test('PUBLIC_BASE_URL drives the verify URL and loses its trailing slash', () => {
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://av.example.com/', PORT: '8080' });
    expect(config.publicBaseUrl).toBe('https://av.example.com');
    expect(config.verifyUrl).toBe('https://av.example.com/verify');
    expect(config.port).toBe(8080);
  });

  const bad: [string, Record<string, string>, string][] = [
    ['port not a number', { PORT: 'eighty' }, 'PORT must be a whole number from 0 to 65535, got "eighty"'],
    ['port out of range', { PORT: '70000' }, 'PORT must be a whole number'],
    ['base url not absolute', { PUBLIC_BASE_URL: 'example.com' }, 'PUBLIC_BASE_URL must be an absolute http(s) URL'],
    ['database url scheme', { DATABASE_URL: 'mysql://u:secret@h/db' }, 'DATABASE_URL must start with postgres://'],
    ['short server secret', { SERVER_SECRET: 'abc' }, 'SERVER_SECRET must be at least 32 characters'],
    ['bad cidr', { WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32, nope' }, 'WEBHOOK_ALLOWED_CIDRS: "nope" is not a CIDR'],
    ['missing CA file', { WEBHOOK_CA_FILE: '/no/such/ca.pem' }, 'WEBHOOK_CA_FILE: no file at "/no/such/ca.pem"'],
    ['smtp scheme', { SMTP_URL: 'http://mail' }, 'SMTP_URL must start with smtp:// or smtps://'],
    ['log level', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    ['no engine workers', { ENGINE_WORKERS: '0' }, 'ENGINE_WORKERS must be a whole number from 1 to 16'],
    ['negative queue', { ENGINE_QUEUE_LIMIT: '-1' }, 'ENGINE_QUEUE_LIMIT must be a whole number from 0'],
    ['preload not a boolean', { ENGINE_PRELOAD: 'yes' }, 'ENGINE_PRELOAD must be true or false, got "yes"'],
    ['dashboard sign-up not a boolean', { DASHBOARD_SIGNUP: 'on' }, 'DASHBOARD_SIGNUP must be true or false, got "on"'],
    ['dashboard sign-up without mail', { DASHBOARD_SIGNUP: 'true' }, 'DASHBOARD_SIGNUP=true needs SMTP_URL'],
    ['margin out of range', { L1_AGE_MARGIN: '40' }, 'L1_AGE_MARGIN must be a whole number from 0 to 30'],
    ['no webhook slots', { WEBHOOK_MAX_IN_FLIGHT: '0' }, 'WEBHOOK_MAX_IN_FLIGHT must be a whole number from 1 to 4096, got "0"'],
    ['per-endpoint slots not a number', { WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: 'many' }, 'WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT must be a whole number from 1'],
    ['retention inside the redelivery window', { WEBHOOK_RETENTION_DAYS: '6' }, 'WEBHOOK_RETENTION_DAYS must be a whole number from 7 to 3650, got "6"'],
  ];
  for (const [name, env, message] of bad) {
    test(`refuses ${name} with a message that says how to fix it`, () => {
      try {
        loadConfig(env);
        throw new Error('expected a ConfigError');
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).problems.join('\n')).toContain(message);
      }
    });
  }

  test('secrets in a bad DATABASE_URL are not echoed', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u:secret@h/db' })).toThrow(/\*\*\*@h/);
  });

  test('allowed CIDRs are parsed', () => {
    const config = loadConfig({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32,::1/128' });
    expect(config.webhookAllowedCidrs.map(([ip, bits]) => `${ip.toString()}/${bits}`)).toEqual(['127.0.0.1/32', '::1/128']);
  });
});
