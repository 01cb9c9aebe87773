/**
 * Runs once before any test file (bunfig.toml [test].preload). On a fresh machine the PGlite
 * template cluster does not exist yet and building it takes seconds; doing it here keeps that
 * one-time cost out of the first test file's hooks and their timeouts.
 */
import { loadTemplate } from '../db/pglite-template';

await loadTemplate();
