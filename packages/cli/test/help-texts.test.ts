/**
 * The help of the service's commands cannot drift from what they accept: `adec serve --help`
 * describes every setting the settings parser knows (serve-settings.ts SETTINGS) with its
 * default, every route of the OpenAPI document the service serves, and the --jwks and --trust
 * files with an example; `adec token --help` every option `adec token` parses.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_DOCUMENT } from '@adec/server';
import { OPTIONS as TOKEN_OPTIONS } from '../src/commands/token.js';
import { SETTINGS } from '../src/serve/serve-settings.js';
import { runCli } from './run-cli.js';

/** The help text of `--flag`: its line and the indented lines that continue it. */
function optionText(help: string, flag: string): string | undefined {
  const lines = help.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  --${flag} `));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && !/^ {4,}\S/.test(line));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

async function helpOf(command: string): Promise<string> {
  const run = await runCli([command, '--help'], mkdtempSync(join(tmpdir(), 'adec-help-')));
  expect(run.code).toBe(0);
  return run.stdout;
}

describe('adec serve --help', () => {
  let help: string;
  beforeAll(async () => {
    help = await helpOf('serve');
  });

  it.each(SETTINGS.map((spec) => [spec.flag, spec.fallback] as const))('describes --%s, with its default', (flag, fallback) => {
    const text = optionText(help, flag);
    expect(text, `--${flag} is not in adec serve --help`).toBeDefined();
    if (fallback === undefined) return;
    expect(text).toMatch(flag === 'log-level' ? new RegExp(`\\b${fallback} \\(default\\)`) : new RegExp(`default ${String(fallback).replaceAll('.', '\\.')}\\b`));
  });

  it('describes --config, with an example', () => {
    expect(optionText(help, 'config')).toContain('"modules": "modules"');
  });

  it.each(Object.entries(OPENAPI_DOCUMENT.paths).map(([path, operations]) => [path, Object.keys(operations)] as const))('lists the route %s', (path, methods) => {
    const lines = help.split('\n').filter((line) => new RegExp(`^ {2}(GET|POST) +(\\S+, )*${path.replace(/[.{}]/g, '\\$&')}(,| |$)`).test(line));
    expect(lines, `${path} is not in adec serve --help`).toHaveLength(1);
    // Each route with the method it serves (MCP's GET and DELETE only refuse: stateless).
    expect(methods.map((method) => method.toUpperCase())).toContain(/^ {2}(GET|POST)/.exec(lines[0]!)![1]);
  });

  it('shows the --jwks and --trust files with an example', () => {
    expect(optionText(help, 'jwks')).toMatch(/\{ "keys": \[ \{ "kty": "OKP", "crv": "Ed25519", "x": "…",\s+"kid": "…", "alg": "EdDSA" \} \] \}/);
    expect(optionText(help, 'jwks')).toContain('adec keygen --name issuer');
    expect(optionText(help, 'trust')).toContain('"signing_keys": ["keys/ci.pub.jwk"]');
  });
});

describe('adec token --help', () => {
  it.each(Object.entries(TOKEN_OPTIONS).map(([name, option]) => [name, 'default' in option ? option.default : undefined] as const))('describes --%s, with its default', async (name, fallback) => {
    const text = optionText(await helpOf('token'), name);
    expect(text, `--${name} is not in adec token --help`).toBeDefined();
    if (fallback !== undefined) expect(text).toContain(`(default ${fallback})`);
  });

  it('shows how its key pairs with the service\'s --jwks file', async () => {
    expect(await helpOf('token')).toContain('echo "{ \\"keys\\": [$(cat keys/issuer.pub.jwk)] }" > jwks.json');
  });
});
