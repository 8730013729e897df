// The contract, as the rest of the kit imports it: types, the document, validators, the response checker and the assumptions.
export type * from './types.ts';
export { openapiDocument } from './openapi-document.generated.ts';
export { mediaExamples, resolveRef, resolvedAt, resolveValue, type MediaExample } from './document-refs.ts';
export { mediaTypeOf } from './validators/media-type.ts';
export { foundText } from './validators/checked-value.ts';
export { MAX_JSON_DEPTH, nestsDeeperThan } from './validators/json-depth.ts';
export { agentCategories, agentModels, agentStatuses, taskPriorities, taskStatuses, schemaEnum } from './enums.ts';
export {
  operations,
  operationsOf,
  getOperation,
  findOperation,
  takesJsonBody,
  walkOperations,
  type OperationRecord,
  type OperationResponseRecord,
  type OperationSpec,
  type HttpMethod,
  type DocumentedResponse,
  type RequiredHeader,
} from './operations.ts';
export {
  validateRequestBody,
  validatePathParameter,
  brokenKeywords,
  type BrokenKeyword,
  parameterSchemaPointer,
  type ValidateRequestBodyOptions,
  type ValidationResult,
} from './validators/request-validators.ts';
export { validateSchema, type ValidateSchemaOptions } from './validators/schema-validators.ts';
export {
  operationParameters,
  parameterLocations,
  type ParameterLocation,
  type ParameterSpec,
  type ParameterStyle,
  type ScalarType,
  type ValueShape,
} from './parameters/parameters.ts';
export {
  createParameterReader,
  parameterReader,
  readParameters,
  type ParameterError,
  type ParameterInput,
  type ParameterReader,
  type ParameterReading,
  type ParameterValidators,
  type ReadParameters,
} from './parameters/parameter-reader.ts';
export {
  checkResponse,
  type ResponseCheck,
  type ResponseRule,
  type ResponseToCheck,
  type Violation,
} from './validators/response-checker.ts';
export {
  checkRequest,
  type RequestRule,
  type RequestToCheck,
  type RequestViolation,
} from './validators/request-checker.ts';
export {
  matchOperation,
  matchSegment,
  matchTemplate,
  segmentTokens,
  type SegmentToken,
  type TemplateMatchOptions,
} from './path-template.ts';
export { ruleOrigin, type RuleOrigin } from './rule-origin.ts';
export { assumptions, type Assumption } from './assumptions.ts';
export { toFieldErrors } from './validators/field-errors.ts';
export {
  getAtPointer,
  parsePointer,
  toPointer,
  escapePointerToken,
  isJsonObject,
  type JsonObject,
  type JsonValue,
} from './json-pointer.ts';
export {
  linkEchoes,
  linksOf,
  mintedIds,
  parameterSource,
  operationRoles,
  type LinkEcho,
  type MintedId,
  type OperationLink,
  type OperationRoles,
  type ParameterSource,
} from './operation-links.ts';
