/**
 * `adec test --filter` runs the tests whose name, action or scenario contains the pattern;
 * `adec test --watch` runs them again when a .adec file of the world changes, and stops cleanly
 * on a signal. The watch test drives the real launcher as a user's terminal would.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runCli, tempWorkspace } from '../run-cli.js';

const LAUNCHER = fileURLToPath(new URL('../../bin/adec.js', import.meta.url));

const WORLD = `world {
  org     "acme"
  domain  "shop"
  version "1.0.0"
}

action refund {
  context { supplied amount: int(0..) }
  rule large_refund {
    outcome  YELLOW
    severity t2
    when     amount > 500
    reason   "A refund over 500 needs a second look"
  }
}

action cancel_order {
  context { supplied shipped: bool }
  rule already_shipped {
    outcome  RED
    severity t2
    when     shipped
    reason   "The order has shipped"
  }
}
`;

const testBlock = (name: string, action: string, context: string, status: string) => `test "${name}" {
  action  ${action}
  context ${context}
  expect  ${status}
}
`;

const TESTS = [
  testBlock('a large refund is reviewed', 'refund', '{ amount: 900 }', 'YELLOW by large_refund'),
  testBlock('a small refund goes through', 'refund', '{ amount: 5 }', 'GREEN'),
  testBlock('a shipped order cannot be cancelled', 'cancel_order', '{ shipped: true }', 'RED by already_shipped'),
].join('\n');

describe('adec test --filter', () => {
  test('runs only the tests whose name or action contains the pattern, and counts coverage of their actions', async () => {
    const run = await runCli(['test', 'w', '--filter', 'refund'], tempWorkspace({ 'w/world.adec': WORLD, 'w/tests.adec': TESTS }));
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('✓'))).toEqual(['✓ a large refund is reviewed (w/tests.adec:1)', '✓ a small refund goes through (w/tests.adec:7)']);
    expect(run.stdout).toContain('coverage (of the actions and scenarios --filter selected)\n  rule coverage: 1/1 (100%)\n');
    expect(run.stdout).toMatch(/\n2 passed, 0 failed \(1 left out by --filter "refund"\)\n$/);
  });

  test('selects tests by their action alone, or by words of their name alone', async () => {
    const cwd = tempWorkspace({ 'w/world.adec': WORLD, 'w/tests.adec': TESTS });
    const byAction = await runCli(['test', 'w', '--filter', 'cancel_order'], cwd);
    expect(byAction.stdout).toMatch(/^✓ a shipped order cannot be cancelled \(w\/tests.adec:13\)\n/);
    expect(byAction.stdout).toMatch(/\n1 passed, 0 failed \(2 left out by --filter "cancel_order"\)\n$/);
    const byName = await runCli(['test', 'w', '--filter', 'small', '--format', 'json'], cwd);
    const report = JSON.parse(byName.stdout) as { tests: { name: string }[]; filter: unknown };
    expect(report.tests.map((t) => t.name)).toEqual(['a small refund goes through']);
    expect(report.filter).toEqual({ pattern: 'small', skipped: 2 });
  });

  test('a pattern no test matches exits 1 and says so', async () => {
    const run = await runCli(['test', 'w', '--filter', 'loyalty'], tempWorkspace({ 'w/world.adec': WORLD, 'w/tests.adec': TESTS }));
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toBe('adec: no test matches --filter `loyalty` (by name, action or scenario)\n');
  });
});

describe('adec test --watch', () => {
  test('runs again after a file of the world changes, and exits 0 on SIGTERM', async () => {
    const cwd = tempWorkspace({ 'w/world.adec': WORLD, 'w/tests.adec': TESTS });
    const child = spawn(process.execPath, [LAUNCHER, 'test', 'w', '--watch'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const until = async (seen: () => boolean, what: string) => {
      for (const started = Date.now(); !seen(); ) {
        if (Date.now() - started > 30_000) throw new Error(`timed out waiting for ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
        await new Promise((wait) => setTimeout(wait, 50));
      }
    };
    try {
      await until(() => stderr.includes('watching w for changes'), 'the first run');
      expect(stdout).toMatch(/\n3 passed, 0 failed\n$/);

      // The refund rule now starts above 1,000: the large refund test fails.
      writeFileSync(join(cwd, 'w/world.adec'), WORLD.replace('amount > 500', 'amount > 1000'));
      await until(() => /0 failed\n[\s\S]*failed\n$/.test(stdout), 'the second run');
      const second = stdout.slice(stdout.indexOf('── '));
      expect(second).toMatch(/^── world\.adec changed: running the tests again ──\n\n✗ a large refund is reviewed \(w\/tests\.adec:1\)\n {4}expected {2}YELLOW by large_refund\n {4}actual {4}GREEN \(NO_RULE_MATCH\)\n/);
      expect(second).toMatch(/\n2 passed, 1 failed\n$/);
      // One save, one run: the writes of a save are gathered before the run starts.
      expect(stdout.match(/running the tests again/g)).toHaveLength(1);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
