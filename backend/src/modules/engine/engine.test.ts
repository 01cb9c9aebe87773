/**
 * The real models end to end (issue 10 acceptance): the verify UI's submission route on an app with
 * a real engine worker, on the committed fixtures (public-domain astronaut portrait, generated
 * passports). Models load once for the file. Also: no image byte is ever stored (issue 10 item 5):
 * after the checks, the embedded database's data folder, every table and the captured logs are
 * searched for the submitted bytes and for a distinctive marker embedded in the image.
 * No timing assertions (bench/ measures latency).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { tenants } from '../../db/schema';
import sharp from 'sharp';
import { ManualClock } from '../../clock';
import { createApp } from '../../app';
import { createLogger } from '../../log';
import { openPglite, type Database } from '../../db/database';
import { createTenant } from '../tenants/service';
import { EnginePool } from './engine-pool';

const fixture = (name: string) => readFileSync(join(import.meta.dir, 'fixtures', name));
type Json = Record<string, any>;

describe('verification engine with the real models', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'engine-never-stored-'));
  const logLines: string[] = [];
  const marker = `NEVER-STORED-${crypto.randomUUID()}`;
  let database: Database;
  let engine: EnginePool;
  let app: ReturnType<typeof createApp>;
  let keys: Json;
  let markedSelfie: Uint8Array;

  beforeAll(async () => {
    database = await openPglite(dataDir);
    engine = new EnginePool({ workers: 1, queueLimit: 4 });
    const clock = new ManualClock();
    app = createApp({
      db: database.db,
      clock,
      logger: createLogger('debug', (line) => logLines.push(line)),
      serverSecret: 'engine-test-secret-0123456789abcdef0123456789',
      publicBaseUrl: 'http://localhost:3000',
      verifyUrl: 'http://localhost:3000/verify',
      maxBodyBytes: 16 * 1024,
      engine,
      l1AgeMargin: 5,
    });
    keys = await createTenant(database.db, clock, { name: 'Engine Shop', domains: ['shop.example.com'], sandbox: true });
    // The astronaut selfie with a distinctive marker in its EXIF: findable if anything keeps the bytes.
    markedSelfie = new Uint8Array(
      await sharp(fixture('astronaut.jpg'))
        .withExif({ IFD0: { ImageDescription: marker } })
        .jpeg({ quality: 90 })
        .toBuffer(),
    );
    await engine.warmUp();
  }, 120_000);
  afterAll(async () => {
    await engine.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const create = async (body: Json = {}): Promise<Json> => {
    const response = await app.handle(
      new Request('http://localhost:3000/api/v1/sessions/create', {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.publishableKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ returnUrl: 'https://shop.example.com/return', ...body }),
      }),
    );
    return response.json() as Promise<Json>;
  };
  const submit = async (
    session: Json,
    check: string,
    parts: { selfie?: Uint8Array; document?: Uint8Array; documentFront?: Uint8Array },
    documentType?: string,
  ): Promise<Json> => {
    const form = new FormData();
    form.append('sessionId', session.sessionId);
    form.append('sessionToken', session.sessionToken);
    form.append('check', check);
    if (documentType) form.append('documentType', documentType);
    if (parts.selfie) form.append('selfie', new Blob([parts.selfie]), 'selfie.jpg');
    if (parts.document) form.append('document', new Blob([parts.document]), 'document.jpg');
    if (parts.documentFront) form.append('documentFront', new Blob([parts.documentFront]), 'document-front.jpg');
    const response = await app.handle(new Request('http://localhost:3000/api/v1/verify/checks', { method: 'POST', body: form }));
    return response.json() as Promise<Json>;
  };

  test('L1: the adult astronaut passes at challengeAge 25', async () => {
    expect(await submit(await create({ challengeAge: 25 }), 'age_estimation', { selfie: markedSelfie })).toMatchObject({
      decision: 'verified',
      status: 'verified',
    });
  }, 60_000);

  test('L1: at challengeAge 99 the estimate is inconclusive and steps up to a document', async () => {
    expect(await submit(await create({ challengeAge: 99 }), 'age_estimation', { selfie: fixture('astronaut.jpg') })).toEqual({
      decision: 'step_up',
      next: 'document',
    });
  }, 60_000);

  test('L1: a picture without a face asks for a retry', async () => {
    const result = await submit(await create(), 'age_estimation', { selfie: fixture('licence.png') });
    expect(result).toMatchObject({ decision: 'retry', hint: 'no_face' });
  }, 60_000);

  test('L1: bytes that are not an image ask for a retry (image_unreadable)', async () => {
    const result = await submit(await create(), 'age_estimation', { selfie: new TextEncoder().encode('not an image') });
    expect(result).toMatchObject({ decision: 'retry', hint: 'image_unreadable' });
  }, 60_000);

  test('L2: the generated passport with the astronaut portrait passes, face match on', async () => {
    const session = await create({ verificationMode: 'L2', faceMatchEnabled: true });
    expect(await submit(session, 'document', { document: fixture('passport.jpg'), selfie: markedSelfie }, 'passport')).toMatchObject({ decision: 'verified' });
  }, 60_000);

  test("L2: another adult's selfie against the passport is refused as face_mismatch", async () => {
    const session = await create({ verificationMode: 'L2', faceMatchEnabled: true });
    expect(await submit(session, 'document', { document: fixture('passport.jpg'), selfie: fixture('other-adult.png') }, 'passport')).toMatchObject({
      decision: 'failed',
      reason: 'face_mismatch',
    });
  }, 60_000);

  test("L2: the passport's own portrait, cropped and uploaded as the selfie, is refused (issue 21)", async () => {
    const passport = fixture('passport.jpg');
    const { width = 0, height = 0 } = await sharp(passport).metadata();
    // The portrait's place on the generated passport (scripts/documents), with a margin, enlarged like a zoomed photo.
    const portrait = await sharp(passport)
      .extract({ left: Math.round(width * 0.03), top: Math.round(height * 0.05), width: Math.round(width * 0.25), height: Math.round(height * 0.35) })
      .resize(640)
      .jpeg({ quality: 80 })
      .toBuffer();
    const session = await create({ verificationMode: 'L2', faceMatchEnabled: true });
    expect(await submit(session, 'document', { document: passport, selfie: portrait }, 'passport')).toMatchObject({
      decision: 'failed',
      reason: 'liveness_failed',
    });
  }, 60_000);

  test.each([
    ['passport-altered-check-digit.jpg', 'document_invalid'],
    ['passport-expired.jpg', 'document_expired'],
    ['id-card-minor.jpg', 'age_not_met'],
  ])(
    'L2: %s is refused with %s',
    async (file, reason) => {
      const session = await create({ verificationMode: 'L2', faceMatchEnabled: true });
      expect(
        await submit(session, 'document', { document: fixture(file), selfie: fixture('astronaut.jpg') }, file.startsWith('id') ? 'id_card' : 'passport'),
      ).toMatchObject({ decision: 'failed', reason });
    },
    60_000,
  );

  // Issue 11: a licence's barcode is on the back and its portrait on the front, so face match needs both.
  test('L2: a driving licence with face match on, the back read, the front compared with the selfie: verified', async () => {
    const session = await create({ verificationMode: 'L2', faceMatchEnabled: true });
    expect(
      await submit(
        session,
        'document',
        { document: fixture('licence.png'), documentFront: fixture('licence-front.jpg'), selfie: markedSelfie },
        'driving_licence',
      ),
    ).toMatchObject({ decision: 'verified' });
  }, 60_000);

  test("L2: another adult's selfie against the licence front is refused as face_mismatch", async () => {
    const session = await create({ verificationMode: 'L2', faceMatchEnabled: true });
    expect(
      await submit(
        session,
        'document',
        { document: fixture('licence.png'), documentFront: fixture('licence-front.jpg'), selfie: fixture('other-adult.png') },
        'driving_licence',
      ),
    ).toMatchObject({ decision: 'failed', reason: 'face_mismatch' });
  }, 60_000);

  test('L2: a licence front without a face (the barcode side twice) asks for the front again', async () => {
    const session = await create({ verificationMode: 'L2', faceMatchEnabled: true });
    expect(
      await submit(
        session,
        'document',
        { document: fixture('licence.png'), documentFront: fixture('licence.png'), selfie: fixture('astronaut.jpg') },
        'driving_licence',
      ),
    ).toMatchObject({ decision: 'retry', hint: 'document_front_unreadable', part: 'documentFront' });
  }, 60_000);

  test('L2: a licence with face match on but without its front is refused with 400, before the engine', async () => {
    const session = await create({ verificationMode: 'L2', faceMatchEnabled: true });
    expect(await submit(session, 'document', { document: fixture('licence.png'), selfie: fixture('astronaut.jpg') }, 'driving_licence')).toMatchObject({
      statusCode: 400,
      message: ['a documentFront part is required: this session has face match on, and a driving licence shows its portrait on the front'],
    });
  }, 60_000);

  test('L2: a driving licence is read from its PDF417 barcode (tenant with face match off)', async () => {
    await database.db.update(tenants).set({ policyFaceMatchEnabled: false }).where(eq(tenants.id, keys.tenantId));
    const session = await create({ verificationMode: 'L2' });
    expect(session.faceMatchEnabled).toBe(false);
    expect(await submit(session, 'document', { document: fixture('licence.png') }, 'driving_licence')).toMatchObject({ decision: 'verified' });
  }, 60_000);

  test('no image byte or marker is stored in the data folder, the database or the logs', async () => {
    const slice = Buffer.from(markedSelfie.subarray(2000, 2064));
    const needles = [slice, Buffer.from(marker)];
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.push(path);
      }
    };
    await database.db.execute(sql`CHECKPOINT`);
    walk(dataDir);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const content = readFileSync(file);
      for (const needle of needles) expect({ file, found: content.includes(needle) }).toEqual({ file, found: false });
    }
    const tables = (await database.db.execute(sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)) as unknown as {
      rows?: { table_name: string }[];
    };
    const names = (tables.rows ?? (tables as unknown as { table_name: string }[])).map((t) => t.table_name);
    expect(names).toContain('sessions');
    for (const name of names) {
      const rows = (await database.db.execute(sql.raw(`SELECT row_to_json(t)::text AS j FROM "${name}" t`))) as unknown as { rows?: { j: string }[] };
      const text = (rows.rows ?? (rows as unknown as { j: string }[])).map((r) => r.j).join('\n');
      expect(text.includes(marker)).toBe(false);
      expect(text.includes(slice.toString('base64'))).toBe(false);
    }
    const logs = logLines.join('\n');
    expect(logs).toContain('check decided');
    expect(logs.includes(marker)).toBe(false);
    expect(logs.includes(slice.toString('base64'))).toBe(false);
  }, 60_000);
});
