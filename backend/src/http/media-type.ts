/**
 * Media types of request bodies (RFC 9110 §8.3.1: type and subtype are case-insensitive, then
 * `;`-separated parameters whose names are case-insensitive and whose values may be quoted).
 * A substring test let `application/jsonx` through and refused `APPLICATION/JSON` (issue 8).
 */
export interface MediaType {
  /** `type/subtype`, lower-case. */
  essence: string;
  /** Parameter names lower-case; values unquoted, as sent. */
  parameters: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Null when the header is not a media type at all. */
export function parseMediaType(header: string | null | undefined): MediaType | null {
  if (!header) return null;
  const [head, ...rest] = header.split(';');
  const [type, subtype, extra] = head!.trim().split('/');
  if (extra !== undefined || !type || !subtype || !TOKEN.test(type) || !TOKEN.test(subtype)) return null;
  const parameters: Record<string, string> = {};
  for (const raw of rest) {
    const part = raw.trim();
    if (part === '') continue;
    const equals = part.indexOf('=');
    if (equals <= 0) return null;
    const name = part.slice(0, equals).trim().toLowerCase();
    let value = part.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    if (!TOKEN.test(name)) return null;
    parameters[name] = value;
  }
  return { essence: `${type}/${subtype}`.toLowerCase(), parameters };
}

/**
 * Request bodies are JSON in UTF-8 (RFC 8259 §8.1). Any other charset would be decoded wrongly,
 * so it is refused rather than guessed. Returns the reason for a 415, or null when acceptable.
 */
export function jsonBodyMediaTypeProblem(header: string | null | undefined): string | null {
  const mediaType = parseMediaType(header);
  if (mediaType?.essence !== 'application/json') {
    return `Content-Type must be application/json, got "${header || 'none'}"`;
  }
  const charset = mediaType.parameters.charset;
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    return `Content-Type charset must be utf-8, got "${charset}"`;
  }
  return null;
}
