/**
 * The one place every error becomes the API's error body. Nothing leaves as a stack trace:
 * an unexpected error is logged with its request id and answered with a plain 500.
 */
import type { ErrorBody } from '#shared/schemas/common.ts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDomainError } from '../domain/index.ts';
import { drainBody, formatByteLimit } from './body-drain.ts';

const REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
  409: 'Conflict',
  507: 'Insufficient Storage',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function errorBody(
  statusCode: number,
  code: string,
  message: string,
  details?: ErrorBody['details'],
): ErrorBody {
  const body: ErrorBody = { statusCode, error: REASON[statusCode] ?? 'Error', code, message };
  if (details && details.length > 0) body.details = details;
  return body;
}

/** `/phoneNumbers/0/phoneNumber` → `phoneNumbers[0].phoneNumber` */
export function fieldPath(instancePath: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out || '(body)';
}

function humanIssue(message: string): string {
  if (/received undefined/i.test(message)) return 'is required';
  const type = /^Invalid input: expected (\w+), received (\w+)/i.exec(message);
  if (type) {
    const [, want = '', got = ''] = type;
    if (want === 'int') return 'must be a whole number';
    return `must be ${/^[aeiou]/i.test(want) ? 'an' : 'a'} ${want} (got ${got})`;
  }
  if (/^Unrecognized key/i.test(message)) return message;
  // zod's "Too small: expected number to be >=1900" / "Too big: expected array to have <=50 items"
  const size = /^Too (big|small): expected \w+ to (be|have) (<=|>=|<|>|exactly )(\S+)(?: (\w+))?$/i.exec(
    message,
  );
  if (size) {
    const [, , verb = 'be', adj = '', bound = '', unit] = size;
    const words: Record<string, string> = {
      '<=': 'at most',
      '>=': 'at least',
      '<': 'less than',
      '>': 'more than',
      'exactly ': 'exactly',
    };
    return `must ${verb === 'have' ? 'have' : 'be'} ${words[adj] ?? adj} ${bound}${unit ? ` ${unit}` : ''}`;
  }
  return message.replace(/^Invalid input: /i, '');
}

/**
 * A database that cannot take the write right now (disk full, locked by another process,
 * server unreachable) is the machine's trouble, not the caller's and not a bug: say so, and
 * say that nothing was saved.
 */
export function storageFailure(
  err: unknown,
): { status: number; code: string; message: string; retryAfter?: number } | null {
  const code =
    typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return {
      status: 503,
      code: 'database_damaged',
      message:
        'The database file is damaged: nothing was saved. Stop GiftDesk and start it again: the check at start names the newest backup to restore from.',
    };
  }
  if (code === 'SQLITE_FULL' || code === '53100') {
    return {
      status: 507,
      code: 'storage_full',
      message: 'The disk is full: nothing was saved. Free some space and try again.',
    };
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return {
      status: 503,
      code: 'database_busy',
      message: 'The database is busy with another program: nothing was saved. Try again.',
      retryAfter: 1,
    };
  }
  if (
    code.startsWith('SQLITE_IOERR') ||
    code === 'SQLITE_READONLY' ||
    code === 'SQLITE_CANTOPEN' ||
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08006', '08001'].includes(code)
  ) {
    return {
      status: 503,
      code: 'storage_unavailable',
      message: 'The database cannot be reached or written right now: nothing was saved. Try again.',
      retryAfter: 5,
    };
  }
  return null;
}

export function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (isDomainError(err)) {
    void reply
      .code(err.status)
      .send({ ...errorBody(err.status, err.code, err.message, err.details), ...err.extra });
    return;
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const where = err.validationContext;
    const details = err.validation.map((v) => ({
      field: fieldPath(v.instancePath),
      issue: humanIssue(v.message ?? 'is invalid'),
    }));
    const first = details[0]!;
    const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
    const prefix =
      where === 'querystring' || where === 'params'
        ? `${where === 'params' ? 'path parameter' : 'query parameter'} `
        : '';
    void reply
      .code(400)
      .send(errorBody(400, 'validation_failed', `${prefix}${first.field} ${first.issue}${more}`, details));
    return;
  }
  const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
  if (status === 413) {
    // Read the rest of the body first, so a client still sending it reads this answer (body-drain.ts).
    const limit = formatByteLimit(request.routeOptions.bodyLimit);
    void drainBody(request.raw).then((ended) => {
      if (ended) reply.removeHeader('connection');
      else void reply.header('connection', 'close');
      void reply
        .code(413)
        .send(
          errorBody(413, 'body_too_large', `The request body is larger than this server accepts (${limit})`),
        );
    });
    return;
  }
  if (status === 415) {
    void reply
      .code(415)
      .send(
        errorBody(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json'),
      );
    return;
  }
  if (status >= 400 && status < 500) {
    const code =
      err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError || /JSON/.test(err.message)
        ? 'invalid_json'
        : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'empty_body'
          : 'bad_request';
    const message =
      code === 'invalid_json'
        ? 'The request body is not valid JSON'
        : code === 'empty_body'
          ? 'The request body is empty; send a JSON object'
          : 'The request could not be understood';
    void reply.code(status).send(errorBody(status, code, message, [{ field: '(body)', issue: message }]));
    return;
  }
  const storage = storageFailure(err);
  if (storage) {
    request.log.error({ err }, 'storage failure');
    if (storage.retryAfter) void reply.header('Retry-After', storage.retryAfter);
    void reply.code(storage.status).send(errorBody(storage.status, storage.code, storage.message));
    return;
  }
  request.log.error({ err }, 'unhandled error');
  void reply
    .code(500)
    .send(errorBody(500, 'internal_error', `Something went wrong on our side. Request id: ${request.id}`));
}
