/**
 * Each user's short-term memory in the audit store, run against every backend on a real
 * database: what a write sets a read gives back, the latest write of a signal wins, memory is
 * kept apart per tenant, user and scenario, bad keys and values are refused whole, writes run
 * beside appends (from two stores on one database), memory survives a reopen, a purge forgets
 * what was not written since its cutoff, and a database written by the previous release (schema
 * version 1) migrates in place with its records intact. Feedback records chain like any other.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChains, type AuditEntry, type AuditRecord, type AuditStore, type MemorySnapshot } from '@adec/audit';
import { EMPTY_CHAIN, linkEntry, type ChainHead } from '../src/chain.js';
import { CREATE_MIGRATIONS_TABLE } from '../src/migration.js';
import { POSTGRES_MIGRATIONS } from '../src/postgres/postgres-schema.js';
import { prepareEntry } from '../src/prepared-entry.js';
import { SQLITE_MIGRATIONS } from '../src/sqlite/sqlite-schema.js';
import { AUDIT_BACKENDS, type AuditBackend } from './audit-backends.js';

const backends = AUDIT_BACKENDS;

const EMPTY: MemorySnapshot = { values: {}, updatedAt: null, outcomeIds: [] };

async function remembered(store: AuditStore, tenant: string, userId: string, scenario: string): Promise<MemorySnapshot> {
  const read = await store.memory.read(tenant, userId, scenario);
  if (!read.ok) throw new Error(`${read.code}: ${read.message}`);
  return read.value;
}

async function written(store: AuditStore, tenant: string, userId: string, scenario: string, values: Record<string, unknown>, outcomeId: string): Promise<number> {
  const write = await store.memory.write(tenant, userId, scenario, values, outcomeId);
  if (!write.ok) throw new Error(`${write.code}: ${write.message}`);
  return write.value.written;
}

function entry(tenant: string, decisionId: string, kind: AuditEntry['kind'] = 'selection', payload: Record<string, unknown> = { n: decisionId }): AuditEntry {
  return { tenant, decisionId, kind, requestHash: `req-${decisionId}`, payload };
}

async function committed(store: AuditStore, e: AuditEntry): Promise<AuditRecord> {
  const result = await store.append(e);
  if (!result.ok) throw new Error(`append failed: ${result.code}`);
  return result.record;
}

async function verified(store: AuditStore) {
  const result = await verifyChains(store);
  if (!result.ok) throw new Error(result.message);
  return result;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A connection to the backend's database of its own, as another client (or an older adec) would have. */
interface RawConnection {
  /** One statement, `?` placeholders. */
  query(sql: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Several statements, no parameters. */
  script(sql: string): Promise<void>;
  close(): Promise<void>;
}

async function connect(backend: AuditBackend): Promise<RawConnection> {
  if (backend.name === 'sqlite') {
    const db = new Database(backend.location);
    return {
      async query(sql, values = []) {
        const statement = db.prepare(sql);
        if (statement.reader) return statement.all(...values) as Record<string, unknown>[];
        statement.run(...values);
        return [];
      },
      async script(sql) {
        db.exec(sql);
      },
      async close() {
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: backend.location });
  await client.connect();
  return {
    async query(sql, values = []) {
      let n = 0;
      return (await client.query(sql.replace(/\?/g, () => `$${++n}`), values)).rows as Record<string, unknown>[];
    },
    async script(sql) {
      await client.query(sql);
    },
    async close() {
      await client.end();
    },
  };
}

describe.each(backends)('user memory on %s', (_name, makeBackend) => {
  let backend: AuditBackend;
  let store: AuditStore;
  beforeAll(async () => {
    backend = await makeBackend();
    store = await backend.open();
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
    await store?.close();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
    await backend?.dispose();
  });

  it('gives back what was written, and an empty snapshot for a user with no memory', async () => {
    const before = new Date().toISOString();
    // Parsed, so that `__proto__` is a signal of its own like any other name.
    const values = JSON.parse('{"mood":"calm","score":3.5,"tags":["a","é∑😀"],"seen":null,"nested":{"ok":true,"list":[1,{"deep":"x"}]},"__proto__":"own","nul":"a\\u0000b","lone":"\\ud800"}') as Record<string, unknown>;
    expect(await store.memory.write('trip', 'user-1', 'checkout', values, 'outcome-1')).toEqual({ ok: true, value: { written: 8 } });
    const snapshot = await remembered(store, 'trip', 'user-1', 'checkout');
    expect(snapshot.values).toEqual(values);
    expect(Object.getPrototypeOf(snapshot.values)).toBe(Object.prototype);
    expect(Object.keys(snapshot.values)).toContain('__proto__');
    expect(snapshot.outcomeIds).toEqual(['outcome-1']);
    expect(snapshot.updatedAt! >= before && snapshot.updatedAt! <= new Date().toISOString()).toBe(true);
    expect(await store.memory.read('trip', 'nobody', 'checkout')).toEqual({ ok: true, value: EMPTY });
    expect(await store.memory.read('nobody', 'user-1', 'checkout')).toEqual({ ok: true, value: EMPTY });
    expect(await store.memory.write('trip', 'user-2', 'checkout', {}, 'outcome-2')).toEqual({ ok: true, value: { written: 0 } });
    expect(await remembered(store, 'trip', 'user-2', 'checkout')).toEqual(EMPTY);
  });

  it('gives back any JSON value as JSON would (property)', async () => {
    let user = 0;
    const signal = fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).filter((name) => !/[\u0000-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(name));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(signal, fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }), { maxKeys: 6 }), async (values) => {
        const userId = `json-${user++}`;
        expect(await written(store, 'json', userId, 's', values, 'o')).toBe(Object.keys(values).length);
        expect((await remembered(store, 'json', userId, 's')).values).toEqual(JSON.parse(JSON.stringify(values)));
      }),
      { numRuns: 40 },
    );
  });

  it('the latest write of a signal wins, and outcomeIds names the outcomes behind the current values, newest first', async () => {
    await written(store, 'latest', 'u', 's', { a: 1, b: 1 }, 'o1');
    await written(store, 'latest', 'u', 's', { b: 2, c: 2 }, 'o2');
    await written(store, 'latest', 'u', 's', { c: 3 }, 'o3');
    expect(await remembered(store, 'latest', 'u', 's')).toMatchObject({ values: { a: 1, b: 2, c: 3 }, outcomeIds: ['o3', 'o2', 'o1'] });
    await written(store, 'latest', 'u', 's', { a: 4, b: 4, c: 4 }, 'o4');
    expect(await remembered(store, 'latest', 'u', 's')).toMatchObject({ values: { a: 4, b: 4, c: 4 }, outcomeIds: ['o4'] });
    // An outcome reported again is named once, where its newest write puts it.
    await written(store, 'latest', 'u', 's', { a: 'again' }, 'o2');
    await written(store, 'latest', 'u', 's', { b: { from: 'o2' } }, 'o2');
    const snapshot = await remembered(store, 'latest', 'u', 's');
    expect(snapshot).toMatchObject({ values: { a: 'again', b: { from: 'o2' }, c: 4 }, outcomeIds: ['o2', 'o4'] });
  });

  it('keeps memory apart per tenant, user and scenario: nobody reads another\'s', async () => {
    const keys: [string, string, string][] = [
      ['iso-a', 'user', 'checkout'],
      ['iso-b', 'user', 'checkout'],
      ['iso-a', 'other', 'checkout'],
      ['iso-a', 'user', 'onboarding'],
      ['iso-a', 'User', 'checkout'],
      // Keys that would collide if the store joined them with a separator.
      ['iso-a:b', 'c', 's'],
      ['iso-a', 'b:c', 's'],
      ['iso-a', 'b', 'c:s'],
      ['iso-a', 'user', 'checkout '],
    ];
    await Promise.all(keys.map(([tenant, userId, scenario], i) => written(store, tenant, userId, scenario, { who: i, [`only-${i}`]: true }, `o-${i}`)));
    for (const [i, [tenant, userId, scenario]] of keys.entries()) {
      expect(await remembered(store, tenant, userId, scenario)).toMatchObject({ values: { who: i, [`only-${i}`]: true }, outcomeIds: [`o-${i}`] });
      expect(Object.keys((await remembered(store, tenant, userId, scenario)).values)).toHaveLength(2);
    }
  });

  it('refuses bad keys and values with INVALID_ENTRY naming what is wrong, writes nothing, and keeps serving (property)', async () => {
    const control = fc.integer({ min: 0, max: 0x20 }).map((code) => String.fromCharCode(code === 0x20 ? 0x7f : code));
    const badText = fc.oneof(
      fc.constant(''),
      fc.string({ minLength: 201, maxLength: 260 }),
      fc.tuple(fc.string({ maxLength: 5 }), control, fc.string({ maxLength: 5 })).map((parts) => parts.join('')),
      fc.tuple(fc.string({ maxLength: 5 }), fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff'), fc.string({ maxLength: 5 })).map((parts) => parts.join('')),
    );
    const notText = fc.constantFrom<unknown>(42, null, undefined, { id: 'x' }, ['x'], true);
    const cyclic = () => {
      const node: Record<string, unknown> = { name: 'loop' };
      node['self'] = { back: [node] };
      return node;
    };
    const deep = () => {
      let value: unknown = 'bottom';
      for (let i = 0; i < 150; i++) value = i % 2 === 0 ? [value] : { down: value };
      return value;
    };
    const sparse = () => {
      const holes: unknown[] = [];
      holes.length = 1_000_000_000;
      return holes;
    };
    const badLeaf = fc.constantFrom<[string, () => unknown]>(
      ['a bigint', () => 12n],
      ['undefined', () => undefined],
      ['NaN', () => Number.NaN],
      ['Infinity', () => Number.POSITIVE_INFINITY],
      ['-Infinity', () => Number.NEGATIVE_INFINITY],
      ['a function', () => () => 1],
      ['a symbol', () => Symbol('s')],
      ['a Date', () => new Date(0)],
      ['a Map', () => new Map([['k', 1]])],
      ['a reference to an object that contains it', cyclic],
      ['arrays or objects nested more than 100 deep', deep],
      ['undefined', sparse],
    );
    // A bad leaf alone, or buried in an array or an object next to good members.
    const badValue = fc.tuple(badLeaf, fc.constantFrom('alone', 'in array', 'in object')).map(([[what, make], where]) => {
      const leaf = make();
      const value = where === 'alone' ? leaf : where === 'in array' ? [1, 'ok', leaf] : { fine: [1], bad: leaf };
      return { what, value };
    });
    type Case = { readonly args: [unknown, unknown, unknown, unknown, unknown]; readonly message: RegExp };
    const valid = (overrides: Partial<Record<0 | 1 | 2 | 3 | 4, unknown>>): Case['args'] => {
      const args: Case['args'] = ['bad', 'victim', 'checkout', { good: 1 }, 'outcome'];
      for (const [at, value] of Object.entries(overrides)) args[Number(at)] = value;
      return args;
    };
    const what = '(must not be empty|is longer than 200 characters|holds a control character|holds a lone surrogate|must be a string, found \\w+)';
    const keyCase = fc.tuple(fc.constantFrom<[0 | 1 | 2 | 4, string]>([0, 'tenant'], [1, 'user id'], [2, 'scenario'], [4, 'outcome id']), fc.oneof(badText, notText))
      .map(([[at, name], bad]): Case => ({ args: valid({ [at]: bad }), message: new RegExp(`^the memory's ${name} ${what}$`) }));
    const signalCase = badText.map((bad): Case => ({ args: valid({ 3: { good: 1, [bad]: 2 } }), message: new RegExp(`^the memory's signal name \`.*\` ${what}$`, 's') }));
    const valueCase = badValue.map(({ what: holding, value }): Case => ({
      args: valid({ 3: { good: 1, 'the bad one': value } }),
      message: new RegExp(`^the value of signal \`the bad one\` is not JSON: it (is|holds) ${holding.replace(/[()]/g, '\\$&')}`),
    }));
    const valuesCase = fc.constantFrom<unknown>(null, [], ['good'], 'text', 7, new Map()).map((values): Case => ({ args: valid({ 3: values }), message: /^the memory's values must be an object of signal values, found / }));

    await fc.assert(
      fc.asyncProperty(fc.oneof(keyCase, signalCase, valueCase, valuesCase), async ({ args, message }) => {
        const [tenant, userId, scenario, values, outcomeId] = args as [string, string, string, Record<string, unknown>, string];
        const result = await store.memory.write(tenant, userId, scenario, values, outcomeId);
        expect(result).toMatchObject({ ok: false, code: 'INVALID_ENTRY', message: expect.stringMatching(message) });
      }),
      { numRuns: 150 },
    );
    // Nothing of any refused write was kept, not even its good signals.
    expect(await remembered(store, 'bad', 'victim', 'checkout')).toEqual(EMPTY);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0, 1, 2), fc.oneof(badText, notText), async (at, bad) => {
        const key: unknown[] = ['bad', 'victim', 'checkout'];
        key[at] = bad;
        const result = await store.memory.read(...(key as [string, string, string]));
        expect(result).toMatchObject({ ok: false, code: 'INVALID_ENTRY', message: expect.stringMatching(new RegExp(`^the memory's ${['tenant', 'user id', 'scenario'][at]} ${what}$`)) });
      }),
      { numRuns: 40 },
    );
    expect(await written(store, 'bad', 'victim', 'checkout', { good: 1 }, 'outcome')).toBe(1);
    expect(await remembered(store, 'bad', 'victim', 'checkout')).toMatchObject({ values: { good: 1 }, outcomeIds: ['outcome'] });
  });

  it('writes memory beside concurrent appends, from two stores on one database, and every chain still verifies', async () => {
    const second = await backend.open();
    try {
      const stores = [store, second];
      const appends = Array.from({ length: 400 }, (_, i) => committed(stores[i % 2]!, entry(`busy-${i % 4}`, `d${i}`)));
      // Ten users, ten writes each: every write sets `count` (so the latest wins) and a signal of its own.
      const writes = Array.from({ length: 100 }, (_, i) => written(stores[(i >> 1) % 2]!, 'busy', `u${i % 10}`, 's', { count: i, [`s${i}`]: i }, `o${i}`));
      // Twenty writes of one signal at once, and 400 of two signals named in either order (enough
      // for PostgreSQL to deadlock, were rows locked in the order a caller names them).
      const contended = Array.from({ length: 20 }, (_, j) => written(stores[j % 2]!, 'busy', 'contended', 's', { same: j }, `c${j}`));
      const crossed = Array.from({ length: 400 }, (_, j) => written(stores[j % 2]!, 'busy', 'crossed', 's', j % 2 === 0 ? { p: j, q: j } : { q: j, p: j }, `x${j}`));
      const results = await Promise.all([...appends, ...writes, ...contended, ...crossed]);
      expect(results).toHaveLength(920);
      for (let user = 0; user < 10; user++) {
        const snapshot = await remembered(second, 'busy', `u${user}`, 's');
        const mine = Array.from({ length: 10 }, (_, k) => user + 10 * k);
        expect(snapshot.values).toEqual({ ...Object.fromEntries(mine.map((i) => [`s${i}`, i])), count: snapshot.values['count'] });
        expect([...snapshot.outcomeIds].sort()).toEqual(mine.map((i) => `o${i}`).sort());
        // The write whose `count` stands is the newest.
        expect(snapshot.outcomeIds[0]).toBe(`o${snapshot.values['count'] as number}`);
      }
      const contendedSnapshot = await remembered(store, 'busy', 'contended', 's');
      expect(contendedSnapshot.outcomeIds).toEqual([`c${contendedSnapshot.values['same'] as number}`]);
      const crossedSnapshot = await remembered(store, 'busy', 'crossed', 's');
      expect(crossedSnapshot.values['p']).toBe(crossedSnapshot.values['q']);
      expect(crossedSnapshot.outcomeIds).toEqual([`x${crossedSnapshot.values['p'] as number}`]);
      const report = await verified(store);
      expect(report.valid).toBe(true);
      for (let t = 0; t < 4; t++) expect(report.chains.find((chain) => chain.tenant === `busy-${t}`)).toMatchObject({ records: 100, problem: null });
    } finally {
      await second.close();
    }
  });

  it('keeps memory across a reopen, and answers CLOSED once closed', async () => {
    await written(store, 'reopen', 'u', 's', { kept: ['yes'] }, 'o1');
    const before = await remembered(store, 'reopen', 'u', 's');
    await store.close();
    expect(await store.memory.read('reopen', 'u', 's')).toMatchObject({ ok: false, code: 'CLOSED', message: 'the audit store is closed' });
    expect(await store.memory.write('reopen', 'u', 's', { late: 1 }, 'o2')).toMatchObject({ ok: false, code: 'CLOSED' });
    store = await backend.open();
    expect(await remembered(store, 'reopen', 'u', 's')).toEqual(before);
    await written(store, 'reopen', 'u', 's', { more: 2 }, 'o3');
    expect(await remembered(store, 'reopen', 'u', 's')).toMatchObject({ values: { kept: ['yes'], more: 2 }, outcomeIds: ['o3', 'o1'] });
  });

  it('answers STORE_UNAVAILABLE, writing nothing, when the database stays locked past the busy timeout; then serves again', async () => {
    const impatient = await backend.open({ busyTimeoutMs: 100 });
    const other = await connect(backend);
    try {
      // Another client holds the write lock (SQLite: the file's; PostgreSQL: the memory table's).
      await other.script(backend.name === 'sqlite' ? 'BEGIN IMMEDIATE' : 'BEGIN; LOCK TABLE user_memory IN EXCLUSIVE MODE');
      const refused = await impatient.memory.write('locked', 'u', 's', { a: 1 }, 'o1');
      expect(refused).toMatchObject({ ok: false, code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/^the audit database failed: .*(locked|lock timeout)/) });
      await other.script(backend.name === 'sqlite' ? 'ROLLBACK' : 'COMMIT');
      expect(await remembered(impatient, 'locked', 'u', 's')).toEqual(EMPTY);
      expect(await written(impatient, 'locked', 'u', 's', { a: 2 }, 'o2')).toBe(1);
      expect(await remembered(store, 'locked', 'u', 's')).toMatchObject({ values: { a: 2 }, outcomeIds: ['o2'] });
    } finally {
      await other.close();
      await impatient.close();
    }
  });

  it('chains a feedback record like any other: it verifies, and a change to it is caught', async () => {
    const feedback = entry('fb', 'outcome-1', 'feedback', { outcome_id: 'outcome-1', decision_id: 'sel-1', observed_effects: { mood: 'calm' } });
    await committed(store, entry('fb', 'sel-1'));
    const record = await committed(store, feedback);
    await committed(store, entry('fb', 'sel-2'));
    expect(record).toMatchObject({ kind: 'feedback', seq: 2 });
    expect(await store.get('fb', 'outcome-1')).toEqual({ ok: true, value: record });
    expect((await store.readChain('fb', 1, 1))).toMatchObject({ ok: true, value: [{ kind: 'feedback', decisionId: 'outcome-1' }] });
    const report = await verified(store);
    expect(report.chains.find((chain) => chain.tenant === 'fb')).toMatchObject({ records: 3, problem: null });
    const stored = (await store.readChain('fb', 1, 1));
    if (!stored.ok) throw new Error(stored.message);
    await backend.editRecord('fb', 2, { body: stored.value[0]!.body.replace('"calm"', '"angry"') });
    const tampered = await verified(store);
    expect(tampered.chains.find((chain) => chain.tenant === 'fb')?.problem).toMatchObject({ code: 'RECORD_ALTERED', seq: 2, decisionId: 'outcome-1' });
  });
});

describe.each(backends)('retention of user memory on %s', (_name, makeBackend) => {
  it('forgets what was not written since the cutoff, reports it per tenant in tenant order, and leaves the rest', async () => {
    const backend = await makeBackend();
    const store = await backend.open();
    try {
      await written(store, 'mem-a', 'stale', 's', { x: 1, y: 1 }, 'o1');
      await written(store, 'mem-only', 'u', 's', { z: 1 }, 'o2');
      await committed(store, entry('chained', 'd1'));
      await written(store, 'chained', 'u', 's', { w: 1 }, 'o3');
      // Tenants whose order differs between UTF-16 (😀 first) and UTF-8 bytes (＾ first), as the databases order them.
      await committed(store, entry('ord-😀', 'd1'));
      await written(store, 'ord-\uff3e', 'u', 's', { q: 1 }, 'o4');
      await pause(5);
      const cutoff = Date.now();
      await pause(5);
      await written(store, 'mem-a', 'stale', 's', { x: 2 }, 'o5');
      await written(store, 'mem-a', 'fresh', 's', { v: 1 }, 'o6');

      const purged = await store.purge(cutoff);
      expect(purged).toEqual({
        ok: true,
        value: [
          { tenant: 'chained', removed: 1, anchorSeq: 1, memoryRemoved: 1 },
          { tenant: 'mem-a', removed: 0, anchorSeq: 0, memoryRemoved: 1 },
          { tenant: 'mem-only', removed: 0, anchorSeq: 0, memoryRemoved: 1 },
          { tenant: 'ord-\uff3e', removed: 0, anchorSeq: 0, memoryRemoved: 1 },
          { tenant: 'ord-😀', removed: 1, anchorSeq: 1, memoryRemoved: 0 },
        ],
      });
      expect(await remembered(store, 'mem-a', 'stale', 's')).toMatchObject({ values: { x: 2 }, outcomeIds: ['o5'] });
      expect(await remembered(store, 'mem-a', 'fresh', 's')).toMatchObject({ values: { v: 1 }, outcomeIds: ['o6'] });
      expect(await remembered(store, 'mem-only', 'u', 's')).toEqual(EMPTY);
      expect(await remembered(store, 'chained', 'u', 's')).toEqual(EMPTY);
      // Nothing left to forget: tenants without a chain are no longer reported.
      expect(await store.purge(cutoff)).toEqual({
        ok: true,
        value: [{ tenant: 'chained', removed: 0, anchorSeq: 1, memoryRemoved: 0 }, { tenant: 'ord-😀', removed: 0, anchorSeq: 1, memoryRemoved: 0 }],
      });
      expect((await verified(store)).valid).toBe(true);
      expect(await store.purge(Date.now() + 1_000)).toMatchObject({ ok: true, value: [{ tenant: 'chained', removed: 1 }, { tenant: 'mem-a', memoryRemoved: 2 }, { tenant: 'ord-😀', removed: 1 }] });
      expect(await remembered(store, 'mem-a', 'stale', 's')).toEqual(EMPTY);
    } finally {
      await store.close();
      await backend.dispose();
    }
  });
});

describe.each(backends)('migrating a version 1 database on %s', (_name, makeBackend) => {
  it('adds memory and the chain triggers in place at open, with every record intact and verifying', async () => {
    const backend = await makeBackend();
    const raw = await connect(backend);
    const migrations = backend.name === 'sqlite' ? SQLITE_MIGRATIONS : POSTGRES_MIGRATIONS;
    const appended: AuditRecord[] = [];
    try {
      // The database the previous release made: version 1's schema, and records linked as it linked them.
      await raw.script(CREATE_MIGRATIONS_TABLE);
      await raw.script(migrations[0]!.sql);
      // Edited by hand since: its delete trigger dropped. Migrating puts it back.
      await raw.script(backend.name === 'sqlite' ? 'DROP TRIGGER decision_records_no_delete' : 'DROP TRIGGER decision_records_no_delete ON decision_records');
      await raw.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [1, migrations[0]!.name, '2024-01-01T00:00:00.000Z']);
      for (const tenant of ['old-a', 'old-b']) {
        let head: ChainHead | undefined;
        for (let i = 1; i <= 3; i++) {
          const prepared = prepareEntry(entry(tenant, `r${i}`, 'adjudication', { i, tenant }));
          if (!prepared.ok) throw new Error(prepared.message);
          const row = linkEntry(head ?? EMPTY_CHAIN, prepared.prepared, `2024-01-0${i}T00:00:00.000Z`);
          await raw.query('INSERT INTO decision_records (tenant, seq, decision_id, kind, recorded_at, request_hash, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [row.tenant, row.seq, row.decisionId, row.kind, row.recordedAt, row.requestHash, row.body, row.prevHash, row.hash]);
          head = row;
          appended.push({ ...prepared.prepared.entry, seq: row.seq, recordedAt: row.recordedAt, prevHash: row.prevHash, hash: row.hash });
        }
        await raw.query('INSERT INTO chains (tenant, head_seq, head_hash) VALUES (?, ?, ?)', [tenant, head!.seq, head!.hash]);
      }
    } finally {
      await raw.close();
    }

    const store = await backend.open();
    try {
      for (const record of appended) expect(await store.get(record.tenant, record.decisionId)).toEqual({ ok: true, value: record });
      const report = await verified(store);
      expect(report.valid).toBe(true);
      expect(report.chains.map((chain) => [chain.tenant, chain.records])).toEqual([['old-a', 3], ['old-b', 3]]);
      expect((await committed(store, entry('old-a', 'r4'))).seq).toBe(4);
      await written(store, 'old-a', 'u', 's', { after: 'migration' }, 'r4');
      expect(await remembered(store, 'old-a', 'u', 's')).toMatchObject({ values: { after: 'migration' }, outcomeIds: ['r4'] });
      expect(await backend.refusal("DELETE FROM decision_records WHERE tenant = 'old-b'")).toMatch(/append-only/);
      expect(await backend.refusal("DELETE FROM chains WHERE tenant = 'old-b'")).toMatch(/never deleted/);
    } finally {
      await store.close();
    }

    // Opened again, nothing is migrated twice.
    const again = await backend.open();
    const check = await connect(backend);
    try {
      expect(await check.query('SELECT version, name FROM schema_migrations ORDER BY version')).toEqual([
        { version: 1, name: 'hash-chained decision records' },
        { version: 2, name: 'per-user short-term memory' },
        { version: 3, name: 'chain heads only move forward' },
        { version: 4, name: 'records only extend their chain to its head' },
      ]);
      expect(await remembered(again, 'old-a', 'u', 's')).toMatchObject({ values: { after: 'migration' } });
      expect((await verified(again)).valid).toBe(true);
    } finally {
      await check.close();
      await again.close();
      await backend.dispose();
    }
  });
});
