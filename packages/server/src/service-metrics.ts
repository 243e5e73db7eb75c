/**
 * Prometheus metrics (`GET /metrics`, prom-client): decisions by status and their latency,
 * refusals by code, predicate faults by kind (timeouts, crashes, memory: what the sandbox
 * caught), module loads and where modules run, the sandbox pool (with its processes' memory, recycles and restarts),
 * and the audit queue with its group commits. Gauges are read from the loader and the store
 * when scraped, so they cost nothing per decision.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AuditStore, CommitObserver } from '@adec/audit';
import type { CycleOutcome } from '@adec/engine';
import type { Decision, ModuleLoader, SandboxProcessMemory } from '@adec/runtime';
import type { ServiceObserver } from './decision-service.js';

const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export class ServiceMetrics implements ServiceObserver {
  readonly registry = new Registry();
  readonly #decisions = new Counter({ name: 'adec_decisions_total', help: 'Decisions answered, by status', labelNames: ['status'] as const, registers: [this.registry] });
  readonly #latency = new Histogram({ name: 'adec_decision_duration_seconds', help: 'From receipt to committed record, per answered decision', buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly #selections = new Counter({ name: 'adec_selections_total', help: 'Selections answered or stored, by outcome (decided, no_eligible_actions, scoring_failed)', labelNames: ['outcome'] as const, registers: [this.registry] });
  readonly #refusals = new Counter({ name: 'adec_refusals_total', help: 'Requests refused, by error code', labelNames: ['code'] as const, registers: [this.registry] });
  readonly #faults = new Counter({ name: 'adec_predicate_faults_total', help: 'Predicates that failed in the sandbox, by kind (exception, timeout, memory, crash, not_run)', labelNames: ['kind'] as const, registers: [this.registry] });
  readonly #commitLatency = new Histogram({ name: 'adec_audit_commit_duration_seconds', help: 'Group commit latency', buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly #commitSize = new Histogram({ name: 'adec_audit_commit_records', help: 'Records per group commit', buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512], registers: [this.registry] });

  /**
   * `worker`: this process's slot among `adec serve --workers N`, whose metrics the supervisor
   * adds up (workers/supervisor.ts): it tells apart the sandbox processes of different workers.
   */
  constructor(private readonly worker?: number) {
    collectDefaultMetrics({ register: this.registry, prefix: 'adec_process_' });
  }

  /** Reads the loader's and the store's gauges at each scrape. */
  watch(loader: ModuleLoader, store: AuditStore): void {
    const gauge = (name: string, help: string, read: () => number) => new Gauge({ name, help, registers: [this.registry], collect() { this.set(read()); } });
    // Totals the loader keeps itself, exported as counters: set from its count at each scrape.
    const total = (name: string, help: string, read: () => number) => new Counter({ name, help, registers: [this.registry], collect() { this.reset(); this.inc(read()); } });
    gauge('adec_audit_queue_depth', 'Audit records waiting for a group commit', () => store.stats().queued);
    total('adec_module_loads_total', 'Module loads that succeeded', () => loader.stats().loads);
    total('adec_module_load_failures_total', 'Module loads that failed (refused, missing, unavailable)', () => loader.stats().failedLoads);
    total('adec_module_evictions_total', 'Modules unloaded to keep within the host budget', () => loader.stats().sandbox?.evictions ?? 0);
    // Every worker loads the same modules: added up over workers, a module would count N times.
    new Gauge({ name: 'adec_modules_resident', help: 'Modules loaded (in the worker with the most)', aggregator: 'max', registers: [this.registry], collect() { this.set(loader.stats().sandbox?.resident ?? loader.stats().worlds); } });
    gauge('adec_sandbox_queued', 'Decisions queued or in flight on the sandbox processes', () => loader.stats().sandbox?.queued ?? 0);
    total('adec_sandbox_recycles_total', 'Sandbox processes replaced under the recycle policy', () => loader.stats().sandbox?.recycles ?? 0);
    total('adec_sandbox_restarts_total', 'Sandbox processes replaced because they died', () => loader.stats().sandbox?.restarts ?? 0);
    new Gauge({
      name: 'adec_modules',
      help: 'Loaded worlds by where their predicates run (in-process, process) and why (REBUILT_AND_VERIFIED, NOT_REBUILT, CODE_REFUSED, VERIFYING, CONFIGURED)',
      labelNames: ['isolation', 'reason'] as const,
      aggregator: 'max',
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { mode, reason, worlds } of loader.stats().isolation) this.set({ isolation: mode, reason }, worlds);
      },
    });
    // Each shared sandbox process's memory, by slot, asked of the processes at each scrape (a
    // frame each, answered behind the decisions already sent). The host's own is adec_process_*.
    const slotLabel = (slot: number) => (this.worker === undefined ? String(slot) : `${this.worker}.${slot}`);
    const perProcess = (name: string, help: string, read: (memory: SandboxProcessMemory) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['slot'] as const,
        registers: [this.registry],
        async collect() {
          this.reset();
          for (const [slot, memory] of (await loader.sandboxMemory()).entries()) if (memory !== undefined) this.set({ slot: slotLabel(slot) }, read(memory));
        },
      });
    perProcess('adec_sandbox_resident_memory_bytes', 'Resident set of each shared sandbox process', (memory) => memory.rssBytes);
    perProcess('adec_sandbox_isolate_heap_bytes', 'Used heap of the isolates in each shared sandbox process, summed', (memory) => memory.isolateHeapBytes);
  }

  readonly onCommit: CommitObserver = (records, milliseconds) => {
    this.#commitSize.observe(records);
    this.#commitLatency.observe(milliseconds / 1000);
  };

  decided(decision: Decision, seconds: number): void {
    this.#decisions.inc({ status: decision.status });
    this.#latency.observe(seconds);
    for (const errored of decision.decision_metadata.errored_predicates) this.#faults.inc({ kind: errored.kind });
  }

  selected(outcome: CycleOutcome, seconds: number): void {
    this.#selections.inc({ outcome });
    this.#latency.observe(seconds);
  }

  refused(code: string): void {
    this.#refusals.inc({ code });
  }
}

