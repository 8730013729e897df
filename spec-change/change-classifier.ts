// Classifies every difference between two versions of the OpenAPI document as breaking for clients, breaking for
// servers, or compatible, with the JSON Pointer of each. Requests and responses are told apart: what narrows a request
// breaks the clients that write it, what widens a response breaks the clients that read it, and the other way round.
import { escapePointerToken, getAtPointer, isJsonObject, type JsonObject, type JsonValue } from '../spec/index.ts';

/** Who a change breaks: a client written against the base version, a server written against it, both, or nobody. */
export type Impact = 'breaking-for-clients' | 'breaking-for-servers' | 'breaking-for-both' | 'compatible';

/** One classified change. */
export interface SpecChange {
  /** e.g. `operation-removed`, `enum-value-added`, `field-made-required`, `bound-tightened`. */
  kind: string;
  impact: Impact;
  /** Where the change is: a JSON Pointer into the head document, or into the base one when the thing was removed. */
  pointer: string;
  in: 'base' | 'head';
  /** One readable line: what changed and why it breaks whom. */
  message: string;
  /** The operations and parts it reaches, e.g. `POST /v1/agents/deploy request body`. */
  usedBy: string[];
}

type Direction = 'request' | 'response';

interface Context {
  base: JsonObject;
  head: JsonObject;
  changes: Map<string, SpecChange>;
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** Keywords that only document: a change to them is compatible. */
const annotations = new Set([
  'description',
  'summary',
  'title',
  'examples',
  'example',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
  'externalDocs',
  'tags',
  'x-assumption',
  'x-assumed-keywords',
]);
const lowerBounds = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const upperBounds = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);
/** Keywords this classifier understands; any other that changes is reported as breaking for both, to be safe. */
const structural = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'default',
  'pattern',
  'format',
  'multipleOf',
  'uniqueItems',
  '$ref',
  ...lowerBounds,
  ...upperBounds,
]);

function impactOf(clients: boolean, servers: boolean): Impact {
  if (clients && servers) return 'breaking-for-both';
  if (clients) return 'breaking-for-clients';
  if (servers) return 'breaking-for-servers';
  return 'compatible';
}

function flagsOf(impact: Impact): { clients: boolean; servers: boolean } {
  return {
    clients: impact === 'breaking-for-clients' || impact === 'breaking-for-both',
    servers: impact === 'breaking-for-servers' || impact === 'breaking-for-both',
  };
}

function record(context: Context, change: SpecChange): void {
  const key = `${change.kind} ${change.in} ${change.pointer}`;
  const existing = context.changes.get(key);
  if (!existing) {
    context.changes.set(key, { ...change, usedBy: [...change.usedBy] });
    return;
  }
  // The same component reached from a request and from a response can break both sides.
  const a = flagsOf(existing.impact);
  const b = flagsOf(change.impact);
  existing.impact = impactOf(a.clients || b.clients, a.servers || b.servers);
  for (const use of change.usedBy) if (!existing.usedBy.includes(use)) existing.usedBy.push(use);
}

/** Narrowing what may be sent breaks whoever sends it: clients for a request, servers for a response. */
function narrowed(direction: Direction): Impact {
  return direction === 'request' ? 'breaking-for-clients' : 'breaking-for-servers';
}

/** Widening what may be sent breaks whoever reads it: servers for a request, clients for a response. */
function widened(direction: Direction): Impact {
  return direction === 'request' ? 'breaking-for-servers' : 'breaking-for-clients';
}

function resolve(
  document: JsonObject,
  node: JsonValue | undefined,
  pointer: string,
  depth = 0,
): { node: JsonObject; pointer: string } | undefined {
  if (!isJsonObject(node)) return undefined;
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#') && depth < 32) {
    const target = node.$ref.slice(1);
    return resolve(document, getAtPointer(document, target), target, depth + 1);
  }
  return { node, pointer };
}

function typesOf(schema: JsonObject): Set<string> | undefined {
  if (typeof schema.type === 'string') return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type.filter((t): t is string => typeof t === 'string'));
  return undefined;
}

function covers(types: Set<string> | undefined, type: string): boolean {
  return types === undefined || types.has(type) || (type === 'integer' && types.has('number'));
}

function show(value: JsonValue | undefined): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

interface Where {
  base: string;
  head: string;
  use: string;
}

function compareSchemas(
  context: Context,
  baseValue: JsonValue | undefined,
  headValue: JsonValue | undefined,
  where: Where,
  direction: Direction,
  visiting: Set<string>,
): void {
  const base = resolve(context.base, baseValue, where.base);
  const head = resolve(context.head, headValue, where.head);
  if (!base || !head) return;
  const guard = `${base.pointer}|${head.pointer}|${direction}|${where.use}`;
  if (visiting.has(guard)) return;
  visiting.add(guard);
  const b = base.node;
  const h = head.node;
  const at = (keyword: string): { pointer: string; in: 'base' | 'head' } =>
    h[keyword] !== undefined
      ? { pointer: `${head.pointer}/${escapePointerToken(keyword)}`, in: 'head' }
      : { pointer: `${base.pointer}/${escapePointerToken(keyword)}`, in: 'base' };
  const add = (kind: string, keyword: string, impact: Impact, message: string): void => {
    record(context, { kind, impact, ...at(keyword), message, usedBy: [where.use] });
  };
  const part = direction === 'request' ? 'request' : 'response';

  // type: integer is a subset of number.
  const baseTypes = typesOf(b);
  const headTypes = typesOf(h);
  // `type: string` and `type: [string]` say the same.
  if (!same(baseTypes && [...baseTypes].sort(), headTypes && [...headTypes].sort())) {
    const lost = baseTypes === undefined ? headTypes !== undefined : [...baseTypes].some((t) => !covers(headTypes, t));
    const gained =
      headTypes === undefined ? baseTypes !== undefined : [...headTypes].some((t) => !covers(baseTypes, t));
    const kind = lost && gained ? 'type-changed' : lost ? 'type-narrowed' : 'type-widened';
    const impact = lost && gained ? 'breaking-for-both' : lost ? narrowed(direction) : widened(direction);
    add(kind, 'type', impact, `${part} type ${show(b.type)} became ${show(h.type)}`);
  }

  for (const keyword of ['enum', 'const'] as const) {
    const before = b[keyword];
    const after = h[keyword];
    if (same(before, after)) continue;
    const list = (value: JsonValue | undefined): JsonValue[] | undefined =>
      value === undefined ? undefined : keyword === 'const' ? [value] : Array.isArray(value) ? value : undefined;
    const beforeList = list(before);
    const afterList = list(after);
    const removed = beforeList ? beforeList.filter((v) => !afterList?.some((w) => same(v, w))) : [];
    const added = afterList ? afterList.filter((v) => !beforeList?.some((w) => same(v, w))) : [];
    if (beforeList === undefined)
      add(`${keyword}-added`, keyword, narrowed(direction), `${part} values now limited to ${show(after)}`);
    else if (afterList === undefined)
      add(`${keyword}-removed`, keyword, widened(direction), `${part} values no longer limited to ${show(before)}`);
    else {
      if (removed.length > 0)
        add(
          `${keyword === 'enum' ? 'enum-value' : 'const'}-removed`,
          keyword,
          narrowed(direction),
          `${part} value(s) ${removed.map((v) => show(v)).join(', ')} removed`,
        );
      if (added.length > 0)
        add(
          `${keyword === 'enum' ? 'enum-value' : 'const'}-added`,
          keyword,
          widened(direction),
          `${part} value(s) ${added.map((v) => show(v)).join(', ')} added`,
        );
    }
  }

  for (const keyword of [...lowerBounds, ...upperBounds]) {
    const before = b[keyword];
    const after = h[keyword];
    if (same(before, after)) continue;
    const lower = lowerBounds.has(keyword);
    const tightened =
      after !== undefined &&
      (before === undefined ||
        (typeof before === 'number' && typeof after === 'number' && (lower ? after > before : after < before)));
    add(
      tightened ? 'bound-tightened' : 'bound-loosened',
      keyword,
      tightened ? narrowed(direction) : widened(direction),
      `${part} ${keyword} ${show(before)} became ${show(after)}`,
    );
  }

  for (const keyword of ['pattern', 'format', 'multipleOf'] as const) {
    const before = b[keyword];
    const after = h[keyword];
    if (same(before, after)) continue;
    if (before === undefined)
      add(`${keyword}-added`, keyword, narrowed(direction), `${part} ${keyword} ${show(after)} added`);
    else if (after === undefined)
      add(`${keyword}-removed`, keyword, widened(direction), `${part} ${keyword} ${show(before)} removed`);
    else
      add(
        `${keyword}-changed`,
        keyword,
        'breaking-for-both',
        `${part} ${keyword} ${show(before)} became ${show(after)}`,
      );
  }

  if (!same(b.uniqueItems, h.uniqueItems)) {
    const now = h.uniqueItems === true;
    add(
      now ? 'unique-items-added' : 'unique-items-removed',
      'uniqueItems',
      now ? narrowed(direction) : widened(direction),
      `${part} uniqueItems ${show(b.uniqueItems)} became ${show(h.uniqueItems)}`,
    );
  }

  const baseRequired = Array.isArray(b.required) ? b.required.filter((r): r is string => typeof r === 'string') : [];
  const headRequired = Array.isArray(h.required) ? h.required.filter((r): r is string => typeof r === 'string') : [];
  for (const name of headRequired.filter((n) => !baseRequired.includes(n)))
    add(
      'field-made-required',
      'required',
      narrowed(direction),
      `${part} field ${name} is now required${direction === 'request' ? ': clients that omit it are rejected' : ': servers must always send it'}`,
    );
  for (const name of baseRequired.filter((n) => !headRequired.includes(n)))
    add(
      'field-made-optional',
      'required',
      widened(direction),
      `${part} field ${name} is no longer required${direction === 'request' ? ': servers must accept it missing' : ': clients may not get it'}`,
    );

  const baseProperties = isJsonObject(b.properties) ? b.properties : {};
  const headProperties = isJsonObject(h.properties) ? h.properties : {};
  for (const name of Object.keys(baseProperties)) {
    const token = escapePointerToken(name);
    if (!Object.hasOwn(headProperties, name)) {
      record(context, {
        kind: `${part}-field-removed`,
        // A field clients read disappears; a field clients send is no longer understood.
        impact: 'breaking-for-clients',
        pointer: `${base.pointer}/properties/${token}`,
        in: 'base',
        message: `${part} field ${name} removed`,
        usedBy: [where.use],
      });
      continue;
    }
    compareSchemas(
      context,
      baseProperties[name],
      headProperties[name],
      { base: `${base.pointer}/properties/${token}`, head: `${head.pointer}/properties/${token}`, use: where.use },
      direction,
      visiting,
    );
  }
  for (const name of Object.keys(headProperties)) {
    if (Object.hasOwn(baseProperties, name)) continue;
    record(context, {
      kind: `${part}-field-added`,
      // A new request field is something servers must now honour; a new response field is ignored by clients.
      impact: direction === 'request' ? 'breaking-for-servers' : 'compatible',
      pointer: `${head.pointer}/properties/${escapePointerToken(name)}`,
      in: 'head',
      message: `${part} field ${name} added`,
      usedBy: [where.use],
    });
  }

  if (!same(b.additionalProperties, h.additionalProperties)) {
    const closedBefore = b.additionalProperties === false;
    const closedAfter = h.additionalProperties === false;
    if (!closedBefore && closedAfter)
      add(
        'additional-properties-closed',
        'additionalProperties',
        narrowed(direction),
        `${part} objects may no longer carry undocumented fields`,
      );
    else if (closedBefore && !closedAfter)
      add(
        'additional-properties-opened',
        'additionalProperties',
        widened(direction),
        `${part} objects may now carry undocumented fields`,
      );
    else if (isJsonObject(b.additionalProperties) && isJsonObject(h.additionalProperties))
      compareSchemas(
        context,
        b.additionalProperties,
        h.additionalProperties,
        { base: `${base.pointer}/additionalProperties`, head: `${head.pointer}/additionalProperties`, use: where.use },
        direction,
        visiting,
      );
    else
      add(
        'additional-properties-changed',
        'additionalProperties',
        'breaking-for-both',
        `${part} additionalProperties ${show(b.additionalProperties)} became ${show(h.additionalProperties)}`,
      );
  }

  if (isJsonObject(b.items) && isJsonObject(h.items))
    compareSchemas(
      context,
      b.items,
      h.items,
      { base: `${base.pointer}/items`, head: `${head.pointer}/items`, use: where.use },
      direction,
      visiting,
    );
  else if (!same(b.items, h.items))
    add('items-changed', 'items', 'breaking-for-both', `${part} array items ${show(b.items)} became ${show(h.items)}`);

  if (!same(b.default, h.default))
    add(
      'default-changed',
      'default',
      // A client that omits the field gets another behaviour, and servers must apply the new default.
      direction === 'request' ? 'breaking-for-both' : 'compatible',
      `${part} default ${show(b.default)} became ${show(h.default)}`,
    );

  const documentation: string[] = [];
  for (const keyword of new Set([...Object.keys(b), ...Object.keys(h)])) {
    if (structural.has(keyword) || same(b[keyword], h[keyword])) continue;
    if (annotations.has(keyword) || keyword.startsWith('x-')) documentation.push(keyword);
    else
      add(
        'keyword-changed',
        keyword,
        'breaking-for-both',
        `${part} ${keyword} ${show(b[keyword])} became ${show(h[keyword])} (not analysed: treated as breaking)`,
      );
  }
  if (documentation.length > 0)
    record(context, {
      kind: 'documentation-changed',
      impact: 'compatible',
      pointer: head.pointer,
      in: 'head',
      message: `${documentation.join(', ')} changed`,
      usedBy: [where.use],
    });
  visiting.delete(guard);
}

function normalizedPath(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}');
}

interface OperationAt {
  path: string;
  method: string;
  node: JsonObject;
  pointer: string;
  pathItem: JsonObject;
  pathPointer: string;
}

function operationsIn(document: JsonObject): Map<string, OperationAt> {
  const result = new Map<string, OperationAt>();
  const paths = isJsonObject(document.paths) ? document.paths : {};
  for (const [path, raw] of Object.entries(paths)) {
    const item = resolve(document, raw, `/paths/${escapePointerToken(path)}`);
    if (!item) continue;
    for (const method of methods) {
      const node = item.node[method];
      if (!isJsonObject(node)) continue;
      result.set(`${method.toUpperCase()} ${normalizedPath(path)}`, {
        path,
        method: method.toUpperCase(),
        node,
        pointer: `${item.pointer}/${method}`,
        pathItem: item.node,
        pathPointer: item.pointer,
      });
    }
  }
  return result;
}

function parametersOf(
  document: JsonObject,
  operation: OperationAt,
): Map<string, { node: JsonObject; pointer: string }> {
  const result = new Map<string, { node: JsonObject; pointer: string }>();
  for (const [owner, pointer] of [
    [operation.pathItem, operation.pathPointer],
    [operation.node, operation.pointer],
  ] as const) {
    const list = Array.isArray(owner.parameters) ? owner.parameters : [];
    list.forEach((raw, index) => {
      const parameter = resolve(document, raw, `${pointer}/parameters/${index}`);
      if (parameter && typeof parameter.node.name === 'string' && typeof parameter.node.in === 'string') {
        // Path parameters are matched by position in the template, so renaming {id} to {agentId} is no change.
        const position = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).indexOf(parameter.node.name);
        const key =
          parameter.node.in === 'path' ? `path #${position + 1}` : `${parameter.node.in} ${parameter.node.name}`;
        result.set(key, parameter);
      }
    });
  }
  return result;
}

function compareContent(
  context: Context,
  baseContent: JsonValue | undefined,
  headContent: JsonValue | undefined,
  where: Where,
  direction: Direction,
): void {
  const b = isJsonObject(baseContent) ? baseContent : {};
  const h = isJsonObject(headContent) ? headContent : {};
  for (const mediaType of Object.keys(b)) {
    const token = escapePointerToken(mediaType);
    if (!Object.hasOwn(h, mediaType)) {
      record(context, {
        kind: `${direction}-media-type-removed`,
        impact: direction === 'request' ? 'breaking-for-clients' : 'breaking-for-both',
        pointer: `${where.base}/${token}`,
        in: 'base',
        message: `${direction} media type ${mediaType} removed`,
        usedBy: [where.use],
      });
      continue;
    }
    const before = resolve(context.base, b[mediaType], `${where.base}/${token}`);
    const after = resolve(context.head, h[mediaType], `${where.head}/${token}`);
    if (!before || !after) continue;
    compareSchemas(
      context,
      before.node.schema,
      after.node.schema,
      { base: `${before.pointer}/schema`, head: `${after.pointer}/schema`, use: where.use },
      direction,
      new Set(),
    );
    if (!same(before.node.examples, after.node.examples) || !same(before.node.example, after.node.example))
      record(context, {
        kind: 'examples-changed',
        impact: 'compatible',
        pointer: after.pointer,
        in: 'head',
        message: `${direction} examples of ${mediaType} changed (the base version's are replayed against the new one)`,
        usedBy: [where.use],
      });
  }
  for (const mediaType of Object.keys(h)) {
    if (Object.hasOwn(b, mediaType)) continue;
    record(context, {
      kind: `${direction}-media-type-added`,
      impact: direction === 'request' ? 'breaking-for-servers' : 'breaking-for-clients',
      pointer: `${where.head}/${escapePointerToken(mediaType)}`,
      in: 'head',
      message: `${direction} media type ${mediaType} added`,
      usedBy: [where.use],
    });
  }
}

function compareOperation(context: Context, key: string, base: OperationAt, head: OperationAt): void {
  const add = (change: Omit<SpecChange, 'usedBy'>): void => record(context, { ...change, usedBy: [key] });
  if (base.node.operationId !== head.node.operationId)
    add({
      kind: 'operation-id-changed',
      impact: 'breaking-for-clients',
      pointer: `${head.pointer}/operationId`,
      in: 'head',
      message: `operationId ${show(base.node.operationId)} became ${show(head.node.operationId)} (generated clients name their methods after it)`,
    });
  const security = (document: JsonObject, operation: OperationAt): JsonValue | undefined =>
    operation.node.security ?? document.security;
  if (!same(security(context.base, base), security(context.head, head)))
    add({
      kind: 'security-changed',
      impact: 'breaking-for-both',
      pointer: `${head.pointer}/security`,
      in: 'head',
      message: `the security requirement ${show(security(context.base, base))} became ${show(security(context.head, head))}`,
    });

  const baseParameters = parametersOf(context.base, base);
  const headParameters = parametersOf(context.head, head);
  for (const [name, before] of baseParameters) {
    const after = headParameters.get(name);
    if (!after) {
      add({
        kind: 'parameter-removed',
        impact: 'breaking-for-clients',
        pointer: before.pointer,
        in: 'base',
        message: `parameter ${name} removed`,
      });
      continue;
    }
    if (before.node.required !== true && after.node.required === true)
      add({
        kind: 'parameter-made-required',
        impact: 'breaking-for-clients',
        pointer: `${after.pointer}/required`,
        in: 'head',
        message: `parameter ${name} is now required`,
      });
    if (before.node.required === true && after.node.required !== true)
      add({
        kind: 'parameter-made-optional',
        impact: 'breaking-for-servers',
        pointer: after.pointer,
        in: 'head',
        message: `parameter ${name} is no longer required`,
      });
    compareSchemas(
      context,
      before.node.schema,
      after.node.schema,
      {
        base: `${before.pointer}/schema`,
        head: `${after.pointer}/schema`,
        use: `${key} parameter ${String(after.node.name)}`,
      },
      'request',
      new Set(),
    );
  }
  for (const [name, after] of headParameters) {
    if (baseParameters.has(name)) continue;
    const required = after.node.required === true;
    add({
      kind: required ? 'required-parameter-added' : 'parameter-added',
      impact: required ? 'breaking-for-clients' : 'breaking-for-servers',
      pointer: after.pointer,
      in: 'head',
      message: `${required ? 'required ' : ''}parameter ${name} added`,
    });
  }

  const baseBody = resolve(context.base, base.node.requestBody, `${base.pointer}/requestBody`);
  const headBody = resolve(context.head, head.node.requestBody, `${head.pointer}/requestBody`);
  if (baseBody && !headBody)
    add({
      kind: 'request-body-removed',
      impact: 'breaking-for-clients',
      pointer: baseBody.pointer,
      in: 'base',
      message: 'the request body is no longer documented',
    });
  if (!baseBody && headBody)
    add({
      kind: 'request-body-added',
      impact: headBody.node.required === true ? 'breaking-for-clients' : 'breaking-for-servers',
      pointer: headBody.pointer,
      in: 'head',
      message: `a ${headBody.node.required === true ? 'required ' : ''}request body is now documented`,
    });
  if (baseBody && headBody) {
    if (baseBody.node.required !== true && headBody.node.required === true)
      add({
        kind: 'request-body-made-required',
        impact: 'breaking-for-clients',
        pointer: `${headBody.pointer}/required`,
        in: 'head',
        message: 'the request body is now required',
      });
    if (baseBody.node.required === true && headBody.node.required !== true)
      add({
        kind: 'request-body-made-optional',
        impact: 'breaking-for-servers',
        pointer: headBody.pointer,
        in: 'head',
        message: 'the request body is no longer required',
      });
    compareContent(
      context,
      baseBody.node.content,
      headBody.node.content,
      { base: `${baseBody.pointer}/content`, head: `${headBody.pointer}/content`, use: `${key} request body` },
      'request',
    );
  }

  const baseResponses = isJsonObject(base.node.responses) ? base.node.responses : {};
  const headResponses = isJsonObject(head.node.responses) ? head.node.responses : {};
  for (const status of Object.keys(baseResponses)) {
    const token = escapePointerToken(status);
    if (!Object.hasOwn(headResponses, status)) {
      const success = status.startsWith('2');
      add({
        kind: 'response-status-removed',
        // Servers that answer it now answer something undocumented; clients that wait for a success status break too.
        impact: success ? 'breaking-for-both' : 'breaking-for-servers',
        pointer: `${base.pointer}/responses/${token}`,
        in: 'base',
        message: `status ${status} is no longer documented`,
      });
      continue;
    }
    const before = resolve(context.base, baseResponses[status], `${base.pointer}/responses/${token}`);
    const after = resolve(context.head, headResponses[status], `${head.pointer}/responses/${token}`);
    if (!before || !after) continue;
    const use = `${key} ${status} response`;
    const baseHeaders = isJsonObject(before.node.headers) ? before.node.headers : {};
    const headHeaders = isJsonObject(after.node.headers) ? after.node.headers : {};
    for (const name of new Set([...Object.keys(baseHeaders), ...Object.keys(headHeaders)])) {
      const h1 = resolve(context.base, baseHeaders[name], `${before.pointer}/headers/${escapePointerToken(name)}`);
      const h2 = resolve(context.head, headHeaders[name], `${after.pointer}/headers/${escapePointerToken(name)}`);
      const requiredBefore = h1?.node.required === true;
      const requiredAfter = h2?.node.required === true;
      if (!requiredBefore && requiredAfter && h2)
        record(context, {
          kind: 'response-header-made-required',
          impact: 'breaking-for-servers',
          pointer: h2.pointer,
          in: 'head',
          message: `header ${name} is now required in the ${status} response`,
          usedBy: [use],
        });
      if (requiredBefore && !requiredAfter && h1)
        record(context, {
          kind: 'response-header-no-longer-required',
          impact: 'breaking-for-clients',
          pointer: h2?.pointer ?? h1.pointer,
          in: h2 ? 'head' : 'base',
          message: `header ${name} is no longer sure to be in the ${status} response`,
          usedBy: [use],
        });
      if (h1 && h2)
        compareSchemas(
          context,
          h1.node.schema,
          h2.node.schema,
          { base: `${h1.pointer}/schema`, head: `${h2.pointer}/schema`, use },
          'response',
          new Set(),
        );
    }
    compareContent(
      context,
      before.node.content,
      after.node.content,
      { base: `${before.pointer}/content`, head: `${after.pointer}/content`, use },
      'response',
    );
  }
  for (const status of Object.keys(headResponses)) {
    if (Object.hasOwn(baseResponses, status)) continue;
    add({
      kind: 'response-status-added',
      impact: 'breaking-for-clients',
      pointer: `${head.pointer}/responses/${escapePointerToken(status)}`,
      in: 'head',
      message: `status ${status} is now documented: clients may get an answer they do not handle`,
    });
  }
}

/**
 * Every change from `base` to `head`, classified, sorted breaking first then by pointer.
 * @example classifyChanges(baseDocument, headDocument).filter((c) => c.impact !== 'compatible')
 */
export function classifyChanges(base: JsonObject, head: JsonObject): SpecChange[] {
  const context: Context = { base, head, changes: new Map() };
  const baseOperations = operationsIn(base);
  const headOperations = operationsIn(head);
  for (const [key, operation] of baseOperations) {
    const after = headOperations.get(key);
    if (after) compareOperation(context, key, operation, after);
    else
      record(context, {
        kind: 'operation-removed',
        impact: 'breaking-for-clients',
        pointer: operation.pointer,
        in: 'base',
        message: `${operation.method} ${operation.path} removed`,
        usedBy: [key],
      });
  }
  for (const [key, operation] of headOperations) {
    if (baseOperations.has(key)) continue;
    record(context, {
      kind: 'operation-added',
      // Servers written against the base version do not implement it.
      impact: 'breaking-for-servers',
      pointer: operation.pointer,
      in: 'head',
      message: `${operation.method} ${operation.path} added`,
      usedBy: [key],
    });
  }
  const rank: Record<Impact, number> = {
    'breaking-for-both': 0,
    'breaking-for-clients': 1,
    'breaking-for-servers': 2,
    compatible: 3,
  };
  return [...context.changes.values()].sort(
    (a, b) => rank[a.impact] - rank[b.impact] || a.pointer.localeCompare(b.pointer),
  );
}
