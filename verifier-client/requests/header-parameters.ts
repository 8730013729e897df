// The header and cookie parameters a client sends to any operation of the spec, derived from its declared ones (the
// spec's one resolver, operationParameters), as query-parameters.ts derives the query: valid headers (each required
// header and cookie parameter with a valid value, every cookie in one Cookie header), each way to break one parameter
// (missing when required, the wrong type, an enum near-miss, one step past a bound, too long, a cookie given twice, an
// array past its bounds), and the boundary values a correct server accepts. A parameter named like a header the
// exchange sets itself (Authorization, Content-Type, Host, …) is never sent from here.
import type { OperationId, ParameterSpec } from '../../spec/index.ts';
import { RESERVED_HEADERS } from '../http-exchange.ts';
import { declaredParameters, scalarBreaks, validValue, type TextBreak } from './query-parameters.ts';
import { resolveSchema, type SchemaAt } from './spec-schemas.ts';

/** Headers that break one keyword of one header or cookie parameter, or sit on one of its bounds. */
export interface HeaderCase {
  /** Stable, kebab-case: `header-x-request-id-max-length`, `cookie-session-missing`. */
  id: string;
  title: string;
  /** Every parameter header sent (the other required ones valid), by lower-case name; cookies in `cookie`. */
  headers: Record<string, string>;
  /** The keyword of the document it breaks, or whose bound it sits on (its origin decides seed or assumption). */
  keywordPointer: string;
}

type Located = { spec: ParameterSpec; at: SchemaAt };

/** Visible ASCII with no space at either end: what a header carries unchanged (HTTP trims the ends of a value). */
const HEADER_TEXT = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/;

/** The operation's header and cookie parameters, without those the exchange owns. */
function headerParameters(operationId: OperationId): Located[] {
  return [...declaredParameters(operationId, 'header'), ...declaredParameters(operationId, 'cookie')].filter(
    ({ spec }) => spec.in === 'cookie' || !RESERVED_HEADERS.has(spec.name.toLowerCase()),
  );
}

/** A value's text as the parameter's style writes it: `simple` for a header, `form` for a cookie (encoded). */
function serialize(spec: ParameterSpec, value: unknown): string[] {
  const items = Array.isArray(value) ? value.map(String) : [typeof value === 'string' ? value : JSON.stringify(value)];
  if (spec.in === 'header') return [items.join(',')];
  const encoded = items.map(encodeURIComponent);
  return spec.explode && Array.isArray(value) ? encoded : [encoded.join(',')];
}

/** The headers that carry `values` (a parameter's texts as serialized), cookies joined into one Cookie header. */
function headersOf(values: ReadonlyArray<{ spec: ParameterSpec; texts: readonly string[] }>): Record<string, string> {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const { spec, texts } of values) {
    if (spec.in === 'cookie') cookies.push(...texts.map((text) => `${spec.name}=${text}`));
    else headers[spec.name.toLowerCase()] = texts.join(', ');
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  return headers;
}

function requiredValues(operationId: OperationId, except?: ParameterSpec) {
  return headerParameters(operationId)
    .filter(({ spec }) => spec.required && spec !== except)
    .map(({ spec, at }) => ({ spec, texts: serialize(spec, validValue(at)) }));
}

/**
 * The parameter headers every request to the operation carries: each required header and cookie parameter with a
 * valid value ({} when none).
 * @example validHeaders(operationId) // { 'x-request-id': 'x', cookie: 'session=x' }
 */
export function validHeaders(operationId: OperationId): Record<string, string> {
  return headersOf(requiredValues(operationId));
}

const caseId = (spec: ParameterSpec, suffix: string): string => `${spec.in}-${spec.name.toLowerCase()}-${suffix}`;

/** The texts that break a scalar parameter and that its location carries as they are. */
function sendable(spec: ParameterSpec, at: SchemaAt): TextBreak[] {
  // A cookie's text is percent-encoded, so only a header loses a padded or non-ASCII near miss (the enum-space one).
  return scalarBreaks(spec, at).filter((found) => spec.in === 'cookie' || HEADER_TEXT.test(found.text));
}

function breaksOf(operationId: OperationId, { spec, at }: Located): HeaderCase[] {
  const others = requiredValues(operationId, spec);
  const withTexts = (texts: readonly string[]) => headersOf([...others, { spec, texts }]);
  const cases: HeaderCase[] = [];
  if (spec.required)
    cases.push({
      id: caseId(spec, 'missing'),
      title: `no ${spec.name}, a required ${spec.in} parameter`,
      headers: headersOf(others),
      keywordPointer: `${spec.pointer}/required`,
    });
  if (spec.shape.kind === 'scalar') {
    for (const found of sendable(spec, at))
      cases.push({
        id: caseId(spec, found.suffix),
        title: `${found.title} (${spec.in})`,
        headers: withTexts(serialize(spec, found.text)),
        keywordPointer: found.keywordPointer,
      });
    // Two values of one header are one text to a server (`a, a`), which a string takes: only a cookie can repeat.
    if (spec.in === 'cookie') {
      const valid = serialize(spec, validValue(at));
      cases.push({
        id: caseId(spec, 'repeated'),
        title: `cookie ${spec.name} given twice (it takes one value)`,
        headers: withTexts([...valid, ...valid]),
        keywordPointer: `${at.pointer}/type`,
      });
    }
  } else if (spec.shape.kind === 'array') {
    const items = resolveSchema(`${at.pointer}/items`);
    if (typeof at.schema.maxItems === 'number')
      cases.push({
        id: caseId(spec, 'max-items'),
        title: `${spec.in} ${spec.name} with more than its maxItems (${at.schema.maxItems}) values`,
        headers: withTexts(
          serialize(
            spec,
            Array.from({ length: at.schema.maxItems + 1 }, () => validValue(items)),
          ),
        ),
        keywordPointer: `${at.pointer}/maxItems`,
      });
    for (const found of sendable(spec, items).slice(0, 2))
      cases.push({
        id: caseId(spec, `item-${found.suffix}`),
        title: `${spec.in} ${spec.name} with an item that breaks: ${found.title}`,
        headers: withTexts(serialize(spec, [found.text])),
        keywordPointer: found.keywordPointer,
      });
  }
  return cases;
}

/**
 * Every named way to break one header or cookie parameter of the operation, each alone among valid headers.
 * @example headerBreaks(operationId).map((b) => b.id) // ['header-x-request-id-max-length', 'cookie-session-missing', …]
 */
export function headerBreaks(operationId: OperationId): HeaderCase[] {
  return headerParameters(operationId).flatMap((located) => breaksOf(operationId, located));
}

/**
 * The valid values on each numeric bound of the operation's header and cookie parameters, which a correct server accepts.
 * @example headerBoundaries(operationId).map((b) => b.headers) // [{ 'x-page-size': '1' }, { 'x-page-size': '100' }]
 */
export function headerBoundaries(operationId: OperationId): HeaderCase[] {
  const cases: HeaderCase[] = [];
  for (const { spec, at } of headerParameters(operationId)) {
    if (spec.shape.kind !== 'scalar') continue;
    const others = requiredValues(operationId, spec);
    for (const keyword of ['minimum', 'maximum'] as const) {
      const bound = at.schema[keyword];
      if (typeof bound !== 'number') continue;
      cases.push({
        id: caseId(spec, `at-${keyword}`),
        title: `${spec.in} ${spec.name} at its ${keyword} ${bound}`,
        headers: headersOf([...others, { spec, texts: serialize(spec, bound) }]),
        keywordPointer: `${at.pointer}/${keyword}`,
      });
    }
  }
  return cases;
}
