/**
 * @adec/contracts — the wire contracts of selections and of their execution outcomes
 * (docs/spec/selection.md, docs/spec/contracts.md) as JSON Schemas, each with its TypeScript type (`Wire<typeof Schema>`): producers build their
 * values as these types, the service serves the schemas (`GET /v1/schemas/{name}`) and its
 * OpenAPI document refers to them, and the tests validate every value they see against them.
 */
import type { TSchema } from '@sinclair/typebox';
import { DecisionPackage } from './decision-package.js';
import { DecisionResponse } from './decision-response.js';
import { ExecutionOutcomePackage } from './execution-outcome-package.js';
import { ReplayToken } from './replay-token.js';
import { SelectionTrace } from './selection-trace.js';
import { SkillContractDocument } from './skill-contract-document.js';
import { SkillInputEnvelope, SkillOutputEnvelope } from './skill-envelopes.js';
import { DecisionRequest, EligibleActions, FallbackOutput, RankedActions, SkillOutput, SkillResolution, UserState, ValidationResult } from './stage-outputs.js';

export { REQUEST_ID_PATTERN, REQUEST_ID_RULE, UUID_V4_PATTERN, type Wire } from './schema-kit.js';
export { CHECKING_CONTRACTS, contractProblems } from './contract-validation.js';
export { contractViolations, jsonPathMember, kindOf, type ContractViolation } from './contract-violations.js';
export * from './execution-outcome-package.js';
export { uuidV4From } from './decision-id.js';
export { API_VERSION, DecisionResponse, Degradation } from './decision-response.js';
export { ReplayToken } from './replay-token.js';
export { CYCLE_OUTCOMES, REASONING_TRACE_SCHEMA_VERSION, SelectionTrace, TRACE_VERSION, UnaddressedSelectionTrace } from './selection-trace.js';
export * from './stage-outputs.js';
export * from './stage-artifacts.js';
export * from './selection-details.js';
export * from './reasoning-structure.js';
export { DECISION_PACKAGE_SCHEMA_VERSION, DecisionPackage } from './decision-package.js';
export { JSON_SCHEMA_DIALECT } from './json-schema-dialect.js';
export { SEC_VERSION, SkillContractDocument, skillAuditFields } from './skill-contract-document.js';
export { RANKED_OPTIONS_SHOWN, SkillInputEnvelope, skillInputSchema, SkillOutputEnvelope, skillOutputSchema, type JsonSchemaObject, type SkillInputFields } from './skill-envelopes.js';

/** Every contract the service serves, by the name in its URL. */
export const CONTRACT_SCHEMAS: Readonly<Record<string, TSchema>> = {
  DecisionResponse,
  SelectionTrace,
  ReplayToken,
  DecisionRequest,
  UserState,
  EligibleActions,
  RankedActions,
  SkillResolution,
  SkillOutput,
  ValidationResult,
  FallbackOutput,
  SkillInputEnvelope,
  SkillOutputEnvelope,
  ExecutionOutcomePackage,
  DecisionPackage,
  SkillContractDocument,
};

/** A contract's schema as plain JSON (what the service serves and the OpenAPI document embeds). */
export function plainSchema(schema: TSchema): { type: 'object'; required: string[]; [keyword: string]: unknown } {
  return JSON.parse(JSON.stringify(schema)) as { type: 'object'; required: string[] };
}
