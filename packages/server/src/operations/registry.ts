/**
 * Every operation the service offers. The OpenAPI document lists exactly these (openapi.ts),
 * and the application gives each its route (http/create-app.ts).
 */
import type { DocumentedOperation } from '../pipeline/served-operation.js';
import { DECIDE } from './decide.js';
import { FEEDBACK } from './feedback.js';
import { SELECT } from './select.js';

export const OPERATIONS: readonly DocumentedOperation[] = [DECIDE, SELECT, FEEDBACK];
