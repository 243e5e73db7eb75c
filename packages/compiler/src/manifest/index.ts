/**
 * Hash and manifest (pipeline step 5): content hashes, per-action context schemas, the
 * client-facing `types.d.ts`, and `manifest.json`.
 */
export { sha256Hex, sourceHash } from './hash.js';
export { contextSchema } from './context-schema.js';
export { DURATION_PATTERN, JSON_SCHEMA_DIALECT, objectSchema, typeSchema } from './json-schema.js';
export { generateContextTypes } from './types-dts.js';
export { buildManifest, serializeManifest } from './manifest.js';
export { skillContractDocuments, type SkillContract } from './skill-contract-documents.js';
export type { ManifestOptions } from './manifest.js';
export type { Manifest, ManifestAction, ManifestRule, ManifestSpan, ValueSchema } from '@adec/abi';
