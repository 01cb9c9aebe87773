/**
 * Runs once before any test file (bunfig.toml [test].preload). On a fresh machine the PGlite
 * template cluster does not exist yet and building it takes seconds; doing it here keeps that
 * one-time cost out of the first test file's hooks and their timeouts. After the files it removes
 * the webhook tests' throwaway certificates.
 */
import { afterAll } from 'bun:test';
import { loadTemplate } from '../db/pglite-template';
import { removeTestCertificates } from '../modules/webhooks/testing/test-certificates';

await loadTemplate();

// After all files (after each file with --parallel, where each file runs on its own).
afterAll(removeTestCertificates);
