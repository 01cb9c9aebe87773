/**
 * The version of the engine's models, thresholds and decision rules, stated in every verification
 * receipt (modules/receipts). Bump it whenever a model, a threshold or a decision rule changes, so
 * a receipt says which rules its decision was taken under.
 */
export const ENGINE_VERSION = '2026.11.1';
