/**
 * The world header: exactly one, with org, domain and a semantic version; optional `name`
 * (the world id, defaulting to the domain) and `timeout` (the default per-predicate limit).
 */
import type { Span } from '@adec/diagnostics';
import type { SourceFile, WorldHeader, WorldSetting } from '@adec/grammar';
import type { WorldIdentity } from '../model/index.js';
import { firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
import { checkPredicateTimeout } from './timeouts.js';
import { checkVersion } from './versions.js';
import { didYouMeanName } from './suggestions.js';

/** The per-predicate timeout when the world sets none: "a few ms" (ARCHITECTURE.md "Sandbox"). */
export const DEFAULT_PREDICATE_TIMEOUT_MS = 5;

const STRING_SETTINGS = ['org', 'domain', 'version', 'name'] as const;
const SETTINGS = [...STRING_SETTINGS, 'timeout'] as const;
const REQUIRED_SETTINGS = ['org', 'domain', 'version'] as const;

export interface CheckedHeader {
  readonly identity: WorldIdentity;
  readonly predicateTimeoutMs: number;
}

export function checkHeader(files: readonly SourceFile[], sink: DiagnosticSink): CheckedHeader | undefined {
  const headers = files.flatMap((f) => f.declarations.filter((d): d is WorldHeader => d.kind === 'WorldHeader'));
  const header = worldsOwnHeader(headers);
  if (header === undefined) {
    sink.report('ADEC4001', startOfWorld(files));
    return undefined;
  }
  const note = isInWorldFile(header) ? `the world's header is in ${header.span.file}:${header.span.line}:${header.span.column}` : firstDeclaredAt(header.span);
  for (const repeated of headers) if (repeated !== header) sink.report('ADEC4002', repeated.span, {}, { notes: [note] });
  return checkSettings(header, sink);
}

/**
 * The header that is the world's when there are several: the one in `world.adec` nearest the
 * world's root, where `adec init` and every example put it (a header copied into another file
 * is the mistake, even when that file's name sorts first), else the first in file-name order.
 */
function worldsOwnHeader(headers: readonly WorldHeader[]): WorldHeader | undefined {
  const depth = (header: WorldHeader) => header.span.file.split(/[\\/]/).length;
  const inWorldFiles = headers.filter(isInWorldFile);
  return inWorldFiles.reduce<WorldHeader | undefined>((best, header) => (best === undefined || depth(header) < depth(best) ? header : best), undefined) ?? headers[0];
}

function isInWorldFile(header: WorldHeader): boolean {
  return /(^|[\\/])world\.adec$/.test(header.span.file);
}

function checkSettings(header: WorldHeader, sink: DiagnosticSink): CheckedHeader | undefined {
  const values = new Map<string, WorldSetting>();
  for (const setting of header.settings) {
    const key = setting.key.name;
    if (!(SETTINGS as readonly string[]).includes(key)) {
      if (key !== '') sink.report('ADEC2002', setting.key.span, { type: 'world', name: key }, didYouMeanName(key, SETTINGS));
      continue;
    }
    const first = values.get(key);
    if (first !== undefined) {
      sink.report('ADEC4009', setting.key.span, { clause: key, owner: 'the world header' }, { notes: [firstDeclaredAt(first.key.span)] });
      continue;
    }
    values.set(key, setting);
    checkSettingValue(key, setting, sink);
  }
  for (const key of REQUIRED_SETTINGS) {
    if (!values.has(key)) sink.report('ADEC4003', header.span, { clause: key, owner: 'the world header' });
  }
  const text = (key: string): string | undefined => {
    const value = values.get(key)?.value;
    return value?.kind === 'StringLiteral' ? value.value : undefined;
  };
  const org = text('org');
  const domain = text('domain');
  const version = text('version');
  if (org === undefined || domain === undefined || version === undefined) return undefined;
  const timeout = values.get('timeout')?.value;
  return {
    identity: { org, domain, world: text('name') ?? domain, version },
    predicateTimeoutMs: timeout?.kind === 'DurationLiteral' && !Number.isNaN(timeout.milliseconds) ? timeout.milliseconds : DEFAULT_PREDICATE_TIMEOUT_MS,
  };
}

function checkSettingValue(key: string, setting: WorldSetting, sink: DiagnosticSink): void {
  const value = setting.value;
  if (key === 'timeout') {
    if (value.kind !== 'DurationLiteral') sink.report('ADEC3001', value.span, { expected: 'a duration such as `5ms`', found: 'string' });
    else checkPredicateTimeout(value, sink);
    return;
  }
  if (value.kind !== 'StringLiteral') {
    sink.report('ADEC3001', value.span, { expected: 'string', found: 'duration' });
    return;
  }
  if (key === 'version') checkVersion(value, sink);
}

/** Where a diagnostic about the whole world points: the start of its first file. */
function startOfWorld(files: readonly SourceFile[]): Span {
  const file = files[0]?.path ?? '<world>';
  return { file, offset: 0, endOffset: 0, line: 1, column: 1, endLine: 1, endColumn: 1 };
}
