// Friendly names for the generated types, so no other module spells components["schemas"]["…"].
import type { components, operations as generatedOperations, paths } from './openapi-types.generated.ts';

type Schemas = components['schemas'];

export type Agent = Schemas['Agent'];
export type AgentId = Schemas['AgentId'];
export type AgentCategory = Schemas['AgentCategory'];
export type AgentModel = Schemas['AgentModel'];
export type AgentStatus = Schemas['AgentStatus'];
export type Tokenomics = Schemas['Tokenomics'];
export type Performance = Schemas['Performance'];
export type Statistics = Schemas['Statistics'];
export type DeployRequest = Schemas['DeployRequest'];
export type DeployResult = Schemas['DeployResult'];
export type ExecuteRequest = Schemas['ExecuteRequest'];
export type TaskId = Schemas['TaskId'];
export type TaskPriority = Schemas['TaskPriority'];
export type TaskStatus = Schemas['TaskStatus'];
export type TaskSubmission = Schemas['TaskSubmission'];
export type Problem = Schemas['Problem'];
export type ValidationError = Schemas['ValidationError'];

/** The operationIds of the API. */
export type OperationId = keyof generatedOperations;
/** Operations that take a JSON request body. */
export type BodyOperationId = 'deployAgent' | 'executeAgentTask';
/** What each body operation holds once validated: the fields with a `default` in the spec are then always set. */
export interface RequestBodies {
  deployAgent: DeployRequest & Required<Pick<DeployRequest, 'pricePerToken' | 'revenueShare'>>;
  executeAgentTask: ExecuteRequest & Required<Pick<ExecuteRequest, 'priority'>>;
}

export type { components, paths };
export type { generatedOperations as OperationTypes };
