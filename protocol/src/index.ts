/**
 * Protocol types and pure rules shared by the SDK, the verify UI and the backend.
 *
 * This module has no dependencies and never touches the DOM or Node APIs, so it can be
 * bundled into the browser SDK and imported by the server alike (docs/engineering-habits.md habit 7).
 * Field names and values here are the interface spec's, word for word.
 */
export * from './session';
export * from './events';
export * from './errors';
export * from './url-rules';
export * from './verify';
export * from './checks';
export * from './liveness';
export * from './accounts';
export * from './dashboard';
export * from './roles';
export * from './audit';
export * from './two-factor';
export * from './traffic';
export * from './ui-language';
