// Checks one interaction of a pact against spec/openapi.yaml with the spec's one request checker and one response
// checker, read the way Pact means a pact: the response states what the consumer relies on, so a field or header it
// leaves out is no claim (the provider answers more), while a field the spec does not have is one the provider never
// promised. A value under a matcher is an example, checked like any value; a regex matcher over an enum must accept
// no value the enum lacks. Each finding is named as the contract suite names its violations.
import type { CheckName } from '../verifier-client/check-record.ts';
import { credentialProblem } from '../verifier-client/credential-form.ts';
import { responseSchema, resolveSchema, type SchemaAt } from '../verifier-client/requests/spec-schemas.ts';
import {
  checkRequest,
  checkResponse,
  escapePointerToken,
  getOperation,
  matchOperation,
  openapiDocument,
  parsePointer,
  ruleOrigin,
  type OperationId,
  type RuleOrigin,
  type Violation,
} from '../spec/index.ts';
import { bodyRuleAt, matcherText, type MatchingRule } from './matching-rules.ts';
import type { PactInteraction, PactRequest, PactResponse } from './pact-file.ts';
import { literalAlternatives } from './regex-literals.ts';

/** One way an interaction departs from the spec. */
export interface PactFinding {
  /** Whose side: the consumer's request, or the response it expects. */
  part: 'request' | 'response';
  check: CheckName;
  rule: string;
  /** JSON Pointer into the body (`/tokenomics/price`), `/headers/<name>`, `/path/<name>`, or '' for the whole. */
  pointer: string;
  expected: string;
  found: string;
  origin: RuleOrigin;
  /** Where the rule lives in spec/openapi.yaml. */
  specPointer: string;
  message: string;
  /** The matcher over the value, when the pact has one there (`regex ^(active|paused)$`): the value is an example. */
  matcher?: string;
}

/** What the check makes of one interaction. */
export interface InteractionCheck {
  /** The operation the request is, when it is one. */
  operationId: OperationId | undefined;
  findings: PactFinding[];
}

function decoded(parameters: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, raw] of Object.entries(parameters)) {
    try {
      result[name] = decodeURIComponent(raw);
    } catch {
      result[name] = raw;
    }
  }
  return result;
}

/** The matcher over the place a finding points at: a body place, a header (`/headers/<name>`), the path or a query parameter. */
function matcherAt(rules: readonly MatchingRule[], pointer: string): string | undefined {
  let rule: MatchingRule | undefined;
  const header = /^\/headers\/(.+)$/.exec(pointer)?.[1];
  if (header !== undefined)
    rule = rules.find((one) => one.category === 'header' && String(one.place[0]).toLowerCase() === header);
  else if (pointer.startsWith('/path/')) rule = rules.find((one) => one.category === 'path');
  else if (pointer.startsWith('/query/'))
    rule = rules.find((one) => one.category === 'query' && String(one.place[0]) === parsePointer(pointer)[1]);
  else if (pointer.startsWith('/')) rule = bodyRuleAt(rules, parsePointer(pointer));
  const first = rule?.matchers[0];
  return first === undefined ? undefined : matcherText(first);
}

/**
 * Findings of one side of an interaction that name the matcher over their place: a report lists no more of an
 * interaction (pact/pact-report.ts), and each lookup reads the side's rules, so a body of 100,000 wrong items under
 * thousands of rules costs a bounded number of lookups, not their product.
 */
export const MAX_MATCHER_LOOKUPS = 100;

function withMatchers(findings: readonly PactFinding[], rules: readonly MatchingRule[]): PactFinding[] {
  return findings.map((finding, index) => {
    if (index >= MAX_MATCHER_LOOKUPS || rules.length === 0) return finding;
    const matcher = matcherAt(rules, finding.pointer);
    return matcher === undefined ? finding : { ...finding, matcher };
  });
}

/** A pact's query (values as written) as the query string a consumer sends, for the spec's parameter reader. */
function queryString(query: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(query)
    .flatMap(([name, values]) => values.map((value) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`))
    .join('&');
}

function requestFindings(
  request: PactRequest,
  operationId: OperationId,
  parameters: Record<string, string>,
): PactFinding[] {
  const findings: PactFinding[] = checkRequest({
    operationId,
    pathParameters: decoded(parameters),
    query: queryString(request.query),
    headers: request.headers,
    contentType: request.headers['content-type'] ?? request.bodyContentType,
    body: request.body,
  }).map(({ operationId: _, ...violation }) => ({ ...violation, part: 'request', check: 'request-validation' }));
  const credential = credentialProblem(request.headers.authorization, operationId);
  if (credential !== undefined)
    findings.push({
      part: 'request',
      check: 'auth',
      rule: 'request-credentials',
      pointer: '/headers/authorization',
      expected: 'Authorization: Bearer <a JWT> (a matcher over it is fine)',
      found: credential,
      origin: 'seed',
      specPointer: '/components/securitySchemes',
      message: `the request has ${credential}; every operation needs a JWT bearer token`,
    });
  return withMatchers(findings, request.matchingRules);
}

/** The statuses the spec answers a request it cannot accept with: a malformed or invalid one, and one without a valid credential. */
const refusalStatus: Readonly<Partial<Record<CheckName, readonly number[]>>> = {
  'request-validation': [400, 413, 415, 422],
  auth: [401],
};

/**
 * Whether a request finding is what the interaction is about: a pact may show how the provider refuses a bad request
 * (an empty task answered 400, a missing token answered 401), and that is a claim the spec makes when the operation
 * documents that refusal.
 */
function refusedAsDocumented(finding: PactFinding, status: number, operationId: OperationId): boolean {
  return (refusalStatus[finding.check] ?? []).includes(status) && getOperation(operationId).responses.has(status);
}

/**
 * What Pact leaves out is no claim: a required field or header the response omits is one the consumer does not read,
 * and a response without a body or a Content-Type makes no claim about either.
 */
function claimed(violation: Violation, response: PactResponse, contentType: string | undefined): boolean {
  if (violation.rule === 'body-schema' && violation.specPointer.endsWith('/required')) return false;
  if (violation.rule === 'required-header' && violation.found === 'no such header') return false;
  if (response.body === undefined && (violation.rule === 'body-is-json' || violation.rule === 'content-type'))
    return false;
  if (contentType === undefined && violation.rule === 'content-type') return false;
  return true;
}

function responseFindings(response: PactResponse, operationId: OperationId): PactFinding[] {
  const contentType = response.headers['content-type'] ?? response.bodyContentType;
  const check = checkResponse({
    operationId,
    status: response.status,
    contentType,
    body: response.body ?? '',
    headers: response.headers,
  });
  const relied = response.body === undefined ? [] : check.warnings;
  const findings = [...check.violations, ...relied]
    .filter((violation) => claimed(violation, response, contentType))
    .map(({ operationId: _, status: __, ...violation }): PactFinding => {
      const finding: PactFinding = { ...violation, part: 'response', check: 'conformance' };
      if (violation.rule === 'undocumented-field')
        finding.message = `${violation.pointer} is not a field of the spec: the consumer relies on what the provider never promised`;
      return finding;
    });
  return withMatchers(findings, response.matchingRules);
}

/** The schema at a place of a body, following properties and items; undefined where the schema says nothing. */
function schemaAt(root: SchemaAt, tokens: ReadonlyArray<string | number>): SchemaAt | undefined {
  let at: SchemaAt = root;
  for (const token of tokens) {
    const properties = at.schema.properties;
    const name = String(token);
    if (typeof properties === 'object' && properties !== null && !Array.isArray(properties) && name in properties)
      at = resolveSchema(`${at.pointer}/properties/${escapePointerToken(name)}`);
    else if ((typeof token === 'number' || token === '*') && at.schema.items !== undefined)
      at = resolveSchema(`${at.pointer}/items`);
    else return undefined;
  }
  return at;
}

/** A regex matcher over an enum accepts only the enum's values (checked where the regex is a list of literals). */
function regexOverEnum(response: PactResponse, operationId: OperationId): PactFinding[] {
  const documented = getOperation(operationId).responses.get(response.status);
  if (documented === undefined || documented.mediaTypes.length === 0) return [];
  const root = responseSchema(operationId, response.status);
  const findings: PactFinding[] = [];
  for (const rule of response.matchingRules) {
    if (rule.category !== 'body') continue;
    const schema = schemaAt(root, rule.place);
    const allowed = schema?.schema.enum;
    if (schema === undefined || !Array.isArray(allowed)) continue;
    for (const matcher of rule.matchers) {
      const accepted = matcher.regex === undefined ? undefined : literalAlternatives(matcher.regex);
      const outside = accepted?.filter((value) => !allowed.includes(value)) ?? [];
      if (outside.length === 0) continue;
      const pointer = `/${rule.place.map((token) => escapePointerToken(String(token))).join('/')}`;
      const specPointer = `${schema.pointer}/enum`;
      findings.push({
        part: 'response',
        check: 'conformance',
        rule: 'matcher-within-enum',
        pointer,
        expected: `a regex accepting only ${allowed.join(', ')}`,
        found: outside.map((value) => JSON.stringify(value)).join(', '),
        origin: ruleOrigin(specPointer),
        specPointer,
        message: `the regex matcher at ${pointer} accepts ${outside.join(', ')}, which the spec's enum does not have`,
        matcher: matcherText(matcher),
      });
    }
  }
  return findings;
}

/**
 * The findings of one HTTP interaction (an interaction that is not HTTP has none: the OpenAPI document says nothing of it).
 * @example checkInteraction(parsePact(text).interactions[0]).findings.map((finding) => finding.rule)
 */
export function checkInteraction(interaction: PactInteraction): InteractionCheck {
  const { request, response } = interaction;
  if (request === undefined || response === undefined) return { operationId: undefined, findings: [] };
  const match = matchOperation(openapiDocument, request.method, request.path, false);
  if (match === undefined) {
    const pathExists = matchesAnyPath(request.path);
    return {
      operationId: undefined,
      findings: [
        {
          part: 'request',
          check: 'conformance',
          rule: 'operation-documented',
          pointer: '',
          expected: 'an operation of spec/openapi.yaml',
          found: `${request.method} ${request.path}`,
          origin: 'seed',
          specPointer: '/paths',
          message: `${request.method} ${request.path} is not an operation of the spec${pathExists ? ' (the path is, with other methods)' : ''}`,
        },
      ],
    };
  }
  const { operationId } = match;
  return {
    operationId,
    findings: [
      ...requestFindings(request, operationId, match.parameters).filter(
        (finding) => !refusedAsDocumented(finding, response.status, operationId),
      ),
      ...responseFindings(response, operationId),
      ...regexOverEnum(response, operationId),
    ],
  };
}

function matchesAnyPath(path: string): boolean {
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
    if (matchOperation(openapiDocument, method, path, false) !== undefined) return true;
  return false;
}
