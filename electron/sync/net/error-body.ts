/**
 * A remote's error body, read into one shape whatever form it came in:
 * - GiftDesk and the hosted service: `{statusCode, error: "Bad Request", code?, message, details?: [{field, issue}]}`
 * - an envelope: `{error: {message?, code?, status?, details?: [...]}}`
 * - anything else (HTML from a proxy, plain text, nothing): a sentence naming the status.
 * `details` items may say `field`/`path`/`name` and `issue`/`message`/`reason`.
 */
export interface FieldIssue {
  field: string;
  issue: string;
}

export interface RemoteError {
  message: string;
  code?: string;
  details?: FieldIssue[];
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function readDetails(v: unknown): FieldIssue[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: FieldIssue[] = [];
  for (const d of v) {
    if (typeof d === 'string') {
      out.push({ field: '(body)', issue: d });
      continue;
    }
    if (typeof d !== 'object' || d === null) continue;
    const o = d as Record<string, unknown>;
    const path = Array.isArray(o.path) ? o.path.map(String).join('.') : undefined;
    const field = str(o.field) ?? str(o.path) ?? path ?? str(o.name) ?? str(o.param) ?? '(body)';
    const issue = str(o.issue) ?? str(o.message) ?? str(o.reason) ?? str(o.msg);
    if (issue) out.push({ field, issue });
  }
  return out.length > 0 ? out : undefined;
}

export function parseRemoteError(status: number, body: unknown, text = ''): RemoteError {
  const fallback = `The remote answered ${status}${REASONS[status] ? ` ${REASONS[status]}` : ''}`;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const o = body as Record<string, unknown>;
    if (typeof o.error === 'object' && o.error !== null && !Array.isArray(o.error)) {
      const e = o.error as Record<string, unknown>;
      const details = readDetails(e.details) ?? readDetails(e.errors) ?? readDetails(o.details);
      const message =
        str(e.message) ??
        str(e.description) ??
        str(o.message) ??
        details?.[0]?.issue ??
        str(e.code) ??
        fallback;
      return withOptional({ message }, str(e.code) ?? str(o.code), details);
    }
    const details = readDetails(o.details) ?? readDetails(o.errors);
    const message =
      str(o.message) ?? str(o.error_description) ?? str(o.error) ?? details?.[0]?.issue ?? fallback;
    return withOptional({ message }, str(o.code), details);
  }
  const snippet = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  return { message: snippet ? `${fallback}: ${snippet}` : fallback };
}

function withOptional(
  e: RemoteError,
  code: string | undefined,
  details: FieldIssue[] | undefined,
): RemoteError {
  if (code) e.code = code;
  if (details) e.details = details;
  return e;
}
