// The rules that compare one operation of the base version with the same operation of the head version: its operationId,
// security, parameters, request body and responses, one small function each, in the order the classifier applies them.
import { escapePointerToken, isJsonObject, type JsonObject, type JsonValue } from '../spec/index.ts';
import type { Direction, SpecChange } from './change-impact.ts';
import { type OperationAt, parametersOf, resolve } from './operations-in.ts';
import { same, show } from './schema-rules.ts';

/** The two versions of one operation and of the documents they are in. */
interface OperationPair {
  /** e.g. `POST /things`: how the changes name the operation. */
  key: string;
  base: OperationAt;
  head: OperationAt;
  baseDocument: JsonObject;
  headDocument: JsonObject;
}

/** Where a pair of schemas or media-type maps is, and which part of the operation it is. */
export interface Place {
  base: string;
  head: string;
  use: string;
}

/** What a rule reports: changes, and pairs of schemas or of `content` maps to compare with the schema rules. */
export interface OperationFindings {
  record(change: SpecChange): void;
  compareSchemas(base: JsonValue | undefined, head: JsonValue | undefined, where: Place, direction: Direction): void;
  compareContent(base: JsonValue | undefined, head: JsonValue | undefined, where: Place, direction: Direction): void;
}

export type OperationRule = (pair: OperationPair, findings: OperationFindings) => void;

type Change = Omit<SpecChange, 'usedBy'>;
const change = (pair: OperationPair, findings: OperationFindings, found: Change): void =>
  findings.record({ ...found, usedBy: [pair.key] });

/** Generated clients name their methods after the operationId. */
export const operationIdRule: OperationRule = (pair, findings) => {
  if (pair.base.node.operationId === pair.head.node.operationId) return;
  change(pair, findings, {
    kind: 'operation-id-changed',
    impact: 'breaking-for-clients',
    pointer: `${pair.head.pointer}/operationId`,
    in: 'head',
    message: `operationId ${show(pair.base.node.operationId)} became ${show(pair.head.node.operationId)} (generated clients name their methods after it)`,
  });
};

/** The operation's security, or the document's when it has none of its own. */
export const securityRule: OperationRule = (pair, findings) => {
  const before = pair.base.node.security ?? pair.baseDocument.security;
  const after = pair.head.node.security ?? pair.headDocument.security;
  if (same(before, after)) return;
  change(pair, findings, {
    kind: 'security-changed',
    impact: 'breaking-for-both',
    pointer: `${pair.head.pointer}/security`,
    in: 'head',
    message: `the security requirement ${show(before)} became ${show(after)}`,
  });
};

/** Parameters removed, added, made required or optional; the schemas of those in both are compared. */
export const parametersRule: OperationRule = (pair, findings) => {
  const baseParameters = parametersOf(pair.baseDocument, pair.base);
  const headParameters = parametersOf(pair.headDocument, pair.head);
  for (const [name, before] of baseParameters) {
    const after = headParameters.get(name);
    if (!after) {
      change(pair, findings, {
        kind: 'parameter-removed',
        impact: 'breaking-for-clients',
        pointer: before.pointer,
        in: 'base',
        message: `parameter ${name} removed`,
      });
      continue;
    }
    if (before.node.required !== true && after.node.required === true)
      change(pair, findings, {
        kind: 'parameter-made-required',
        impact: 'breaking-for-clients',
        pointer: `${after.pointer}/required`,
        in: 'head',
        message: `parameter ${name} is now required`,
      });
    if (before.node.required === true && after.node.required !== true)
      change(pair, findings, {
        kind: 'parameter-made-optional',
        impact: 'breaking-for-servers',
        pointer: after.pointer,
        in: 'head',
        message: `parameter ${name} is no longer required`,
      });
    const use = `${pair.key} parameter ${String(after.node.name)}`;
    findings.compareSchemas(
      before.node.schema,
      after.node.schema,
      { base: `${before.pointer}/schema`, head: `${after.pointer}/schema`, use },
      'request',
    );
  }
  for (const [name, after] of headParameters) {
    if (baseParameters.has(name)) continue;
    const required = after.node.required === true;
    change(pair, findings, {
      kind: required ? 'required-parameter-added' : 'parameter-added',
      impact: required ? 'breaking-for-clients' : 'breaking-for-servers',
      pointer: after.pointer,
      in: 'head',
      message: `${required ? 'required ' : ''}parameter ${name} added`,
    });
  }
};

/** The request body documented or not, required or not; the media types of one in both are compared. */
export const requestBodyRule: OperationRule = (pair, findings) => {
  const before = resolve(pair.baseDocument, pair.base.node.requestBody, `${pair.base.pointer}/requestBody`);
  const after = resolve(pair.headDocument, pair.head.node.requestBody, `${pair.head.pointer}/requestBody`);
  if (before && !after)
    change(pair, findings, {
      kind: 'request-body-removed',
      impact: 'breaking-for-clients',
      pointer: before.pointer,
      in: 'base',
      message: 'the request body is no longer documented',
    });
  if (!before && after) {
    const required = after.node.required === true;
    change(pair, findings, {
      kind: 'request-body-added',
      impact: required ? 'breaking-for-clients' : 'breaking-for-servers',
      pointer: after.pointer,
      in: 'head',
      message: `a ${required ? 'required ' : ''}request body is now documented`,
    });
  }
  if (!before || !after) return;
  if (before.node.required !== true && after.node.required === true)
    change(pair, findings, {
      kind: 'request-body-made-required',
      impact: 'breaking-for-clients',
      pointer: `${after.pointer}/required`,
      in: 'head',
      message: 'the request body is now required',
    });
  if (before.node.required === true && after.node.required !== true)
    change(pair, findings, {
      kind: 'request-body-made-optional',
      impact: 'breaking-for-servers',
      pointer: after.pointer,
      in: 'head',
      message: 'the request body is no longer required',
    });
  findings.compareContent(
    before.node.content,
    after.node.content,
    { base: `${before.pointer}/content`, head: `${after.pointer}/content`, use: `${pair.key} request body` },
    'request',
  );
};

/** Response headers made required or no longer required; the schemas of those in both are compared. */
function compareResponseHeaders(
  pair: OperationPair,
  findings: OperationFindings,
  status: string,
  before: { node: JsonObject; pointer: string },
  after: { node: JsonObject; pointer: string },
): void {
  const use = `${pair.key} ${status} response`;
  const baseHeaders = isJsonObject(before.node.headers) ? before.node.headers : {};
  const headHeaders = isJsonObject(after.node.headers) ? after.node.headers : {};
  for (const name of new Set([...Object.keys(baseHeaders), ...Object.keys(headHeaders)])) {
    const token = escapePointerToken(name);
    const h1 = resolve(pair.baseDocument, baseHeaders[name], `${before.pointer}/headers/${token}`);
    const h2 = resolve(pair.headDocument, headHeaders[name], `${after.pointer}/headers/${token}`);
    const requiredBefore = h1?.node.required === true;
    const requiredAfter = h2?.node.required === true;
    if (!requiredBefore && requiredAfter && h2)
      findings.record({
        kind: 'response-header-made-required',
        impact: 'breaking-for-servers',
        pointer: h2.pointer,
        in: 'head',
        message: `header ${name} is now required in the ${status} response`,
        usedBy: [use],
      });
    if (requiredBefore && !requiredAfter && h1)
      findings.record({
        kind: 'response-header-no-longer-required',
        impact: 'breaking-for-clients',
        pointer: h2?.pointer ?? h1.pointer,
        in: h2 ? 'head' : 'base',
        message: `header ${name} is no longer sure to be in the ${status} response`,
        usedBy: [use],
      });
    if (h1 && h2)
      findings.compareSchemas(
        h1.node.schema,
        h2.node.schema,
        { base: `${h1.pointer}/schema`, head: `${h2.pointer}/schema`, use },
        'response',
      );
  }
}

/** Statuses removed and added; the headers and media types of those in both are compared. */
export const responsesRule: OperationRule = (pair, findings) => {
  const baseResponses = isJsonObject(pair.base.node.responses) ? pair.base.node.responses : {};
  const headResponses = isJsonObject(pair.head.node.responses) ? pair.head.node.responses : {};
  for (const status of Object.keys(baseResponses)) {
    const token = escapePointerToken(status);
    if (!Object.hasOwn(headResponses, status)) {
      change(pair, findings, {
        kind: 'response-status-removed',
        // Servers that answer it now answer something undocumented; clients that wait for a success status break too.
        impact: status.startsWith('2') ? 'breaking-for-both' : 'breaking-for-servers',
        pointer: `${pair.base.pointer}/responses/${token}`,
        in: 'base',
        message: `status ${status} is no longer documented`,
      });
      continue;
    }
    const before = resolve(pair.baseDocument, baseResponses[status], `${pair.base.pointer}/responses/${token}`);
    const after = resolve(pair.headDocument, headResponses[status], `${pair.head.pointer}/responses/${token}`);
    if (!before || !after) continue;
    compareResponseHeaders(pair, findings, status, before, after);
    findings.compareContent(
      before.node.content,
      after.node.content,
      { base: `${before.pointer}/content`, head: `${after.pointer}/content`, use: `${pair.key} ${status} response` },
      'response',
    );
  }
  for (const status of Object.keys(headResponses)) {
    if (Object.hasOwn(baseResponses, status)) continue;
    change(pair, findings, {
      kind: 'response-status-added',
      impact: 'breaking-for-clients',
      pointer: `${pair.head.pointer}/responses/${escapePointerToken(status)}`,
      in: 'head',
      message: `status ${status} is now documented: clients may get an answer they do not handle`,
    });
  }
};

/** Every operation rule, in the order their changes are reported. */
export const operationRules: readonly OperationRule[] = [
  operationIdRule,
  securityRule,
  parametersRule,
  requestBodyRule,
  responsesRule,
];
