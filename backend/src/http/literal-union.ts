/**
 * A TypeBox union of string literals built from a protocol constant (`['L1', 'L2'] as const`), so
 * request validation, response schemas and the OpenAPI document never retype a list of values.
 */
import { t } from 'elysia';
import type { SchemaOptions, TLiteral, TUnion } from '@sinclair/typebox';

type Literals<Values extends readonly string[]> = { -readonly [K in keyof Values]: TLiteral<Values[K]> };

export function literalUnion<const Values extends readonly string[]>(values: Values, options: SchemaOptions = {}): TUnion<Literals<Values>> {
  return t.Union(
    values.map((value) => t.Literal(value)),
    options,
  ) as unknown as TUnion<Literals<Values>>;
}
