/**
 * Turns request body bytes into a JSON value, refusing what would later crash a handler or be
 * stored as something other than what was sent (issue 8, finding 3):
 * - bytes that are not UTF-8 (decoded leniently they became U+FFFD, so distinct ids collapsed);
 * - strings or keys with a NUL character (PostgreSQL text cannot hold one: it was a 500);
 * - strings or keys with a lone surrogate (`\ud800` is valid JSON but not text; it came back as U+FFFD);
 * - values nested deeper than any request of this API needs (the validator recursed and overflowed).
 * Every refusal names the field, so the caller knows what to fix.
 */
export const MAX_JSON_DEPTH = 32;

export class JsonBodyError extends Error {
  /** `syntax`: the bytes are not JSON text at all; `field`: a value in it is refused (named in the message). */
  constructor(
    readonly kind: 'syntax' | 'field',
    message: string,
  ) {
    super(message);
  }
}

export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  let utf8 = true;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    utf8 = false;
    text = new TextDecoder('utf-8').decode(bytes);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JsonBodyError('syntax', utf8 ? `Malformed JSON in request body: ${(error as Error).message}` : 'Request body is not valid UTF-8');
  }
  const problem = findProblem(value, utf8);
  if (problem) throw new JsonBodyError('field', problem);
  if (!utf8) throw new JsonBodyError('syntax', 'Request body is not valid UTF-8');
  return value;
}

/**
 * Walks the value without recursion (its depth is what is being checked). When the bytes were not
 * UTF-8, the field holding a replacement character is the one that carried them.
 */
function findProblem(root: unknown, utf8: boolean): string | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value, utf8);
      if (problem) return `${path || 'request body'} ${problem}`;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return `${path || 'request body'} is nested deeper than ${MAX_JSON_DEPTH} levels`;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) stack.push({ value: item, path: `${path}[${index}]`, depth: depth + 1 });
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = textProblem(key, utf8);
      if (keyProblem) return `property name ${JSON.stringify(key.replace(/\0/g, '\\u0000'))} ${keyProblem}`;
      stack.push({ value: item, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return null;
}

/** The same rule for text that arrives outside JSON (multipart fields): null when acceptable. */
export function textFieldProblem(name: string, text: string): string | null {
  const problem = textProblem(text, true);
  return problem ? `${name} ${problem}` : null;
}

function textProblem(text: string, utf8: boolean): string | null {
  if (text.includes('\0')) return 'must not contain NUL (\\u0000) characters';
  if (!text.isWellFormed()) return 'must be well-formed Unicode text (it contains a lone surrogate)';
  if (!utf8 && text.includes('\uFFFD')) return 'is not valid UTF-8';
  return null;
}
