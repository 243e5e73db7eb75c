/** The feedback side of the decision service: the feedback operation (operations/feedback.ts) run through the pipeline. */
import type { AuditStore } from '@adec/audit';
import type { ModuleLoader } from '@adec/runtime';
import type { Admission } from './admission.js';
import type { Caller } from './auth/index.js';
import { FEEDBACK, feedbackHandler, type FeedbackReceipt } from './operations/feedback.js';
import type { ServiceResult } from './pipeline/operation.js';
import { runOperation, type PipelineOptions } from './pipeline/run-operation.js';

export interface FeedbackServiceOptions {
  readonly loader: ModuleLoader;
  readonly store: AuditStore;
  readonly admission: Admission;
  readonly now?: () => number;
  readonly onRefused?: (code: string) => void;
}

export class FeedbackService {
  readonly #pipeline: PipelineOptions;
  readonly #feedback: ReturnType<typeof feedbackHandler>;

  constructor(options: FeedbackServiceOptions) {
    this.#pipeline = { store: options.store, admission: options.admission, now: options.now ?? Date.now, ...(options.onRefused !== undefined && { refused: options.onRefused }) };
    this.#feedback = feedbackHandler({ loader: options.loader, store: options.store });
  }

  record(caller: Caller, body: unknown): Promise<ServiceResult<FeedbackReceipt>> {
    return runOperation(FEEDBACK, this.#feedback, this.#pipeline, caller, body);
  }
}
