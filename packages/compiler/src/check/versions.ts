/** Versions of worlds, skills and scenarios are semantic versions (routing keys compare them). */
import type { StringLiteral } from '@adec/grammar';
import type { DiagnosticSink } from './checker-context.js';

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

/** Reports ADEC4004 unless `version` is MAJOR.MINOR.PATCH (with optional pre-release/build). */
export function checkVersion(version: StringLiteral, sink: DiagnosticSink): boolean {
  if (SEMVER.test(version.value)) return true;
  const help = /^v\d/.test(version.value) && SEMVER.test(version.value.slice(1)) ? { help: `did you mean "${version.value.slice(1)}"?` } : {};
  sink.report('ADEC4004', version.span, { text: version.value }, help);
  return false;
}
