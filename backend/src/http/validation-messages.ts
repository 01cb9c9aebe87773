/**
 * Turns TypeBox validation errors into the spec's validation messages (spec "Errors": a 400 whose
 * `message` is an array, e.g. "property foo should not exist"), one readable message per field,
 * instead of Elysia's default 422 dump of the schema.
 */
interface ValueErrorLike {
  path: string;
  message: string;
  value?: unknown;
  schema?: Record<string, unknown>;
}

const ADDITIONAL_PROPERTY = 'Unexpected property';

export function validationMessages(errors: readonly ValueErrorLike[], root: unknown): string[] {
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return ['request body must be a JSON object'];
  const messages: string[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const name = error.path.replace(/^\//, '').replaceAll('/', '.') || 'body';
    if (seen.has(name)) continue;
    seen.add(name);
    if (error.message === ADDITIONAL_PROPERTY) {
      messages.push(`property ${name} should not exist`);
    } else if (error.value === undefined) {
      messages.push(`${name} is required`);
    } else {
      messages.push(describe(name, error.value, error.schema ?? {}));
    }
  }
  return messages.length > 0 ? messages : ['request body is invalid'];
}

function describe(name: string, value: unknown, schema: Record<string, unknown>): string {
  const variants = Array.isArray(schema.anyOf) ? (schema.anyOf as Record<string, unknown>[]) : [schema];
  const literals = variants.filter((v) => 'const' in v).map((v) => String(v.const));
  if (literals.length > 0) return `${name} must be one of: ${literals.join(', ')}`;
  const main = variants.find((v) => v.type === 'integer') ?? variants.find((v) => v.type === 'number') ?? variants[0] ?? {};
  switch (main.type) {
    case 'string': {
      if (typeof value !== 'string') return `${name} must be a string`;
      if (typeof main.minLength === 'number' && value.length < main.minLength) return `${name} must not be empty`;
      if (typeof main.maxLength === 'number' && value.length > main.maxLength) {
        return `${name} must be at most ${main.maxLength} characters long`;
      }
      return `${name} has an invalid format`;
    }
    case 'integer':
    case 'number': {
      const integer = main.type === 'integer' || main.multipleOf === 1;
      const kind = integer ? 'an integer' : 'a number';
      if (typeof value !== 'number' || (integer && !Number.isInteger(value))) return `${name} must be ${kind}`;
      const min = main.minimum as number | undefined;
      const max = main.maximum as number | undefined;
      if (min !== undefined && max !== undefined) return `${name} must be ${kind} from ${min} to ${max}`;
      if (min !== undefined) return `${name} must be at least ${min}`;
      if (max !== undefined) return `${name} must be at most ${max}`;
      return `${name} must be ${kind}`;
    }
    case 'boolean':
      return `${name} must be a boolean`;
    case 'object':
      return `${name} must be an object`;
    default:
      return `${name} is invalid`;
  }
}
