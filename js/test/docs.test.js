// The README's example is examples/readme.mjs verbatim; it runs, and it and
// the demo compile against the declarations with tsc --strict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

test('README example is examples/readme.mjs and runs', () => {
  const readme = readFileSync(here('../README.md'), 'utf8');
  const example = readFileSync(here('../examples/readme.mjs'), 'utf8');
  const block = /<!-- example: examples\/readme.mjs[^>]*-->\n```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, 'README has the example block');
  assert.equal(block[1], example);
  const lines = example.trim().split('\n').length;
  assert.ok(lines <= 25, `${lines} lines`);
  const out = execFileSync(process.execPath, [here('../examples/readme.mjs')], { encoding: 'utf8' });
  const m = /^(\d+) of 100000 boxes visible, the first is (\d+)$/m.exec(out);
  assert.ok(m && +m[1] > 1000 && +m[1] < 100000, out);
});

test('tsc --strict compiles the README example and the demo against the .d.ts', () => {
  const tsc = here('../node_modules/typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', here('../tsconfig.json')], { encoding: 'utf8' });
  const cfg = JSON.parse(readFileSync(here('../tsconfig.json'), 'utf8'));
  assert.equal(cfg.compilerOptions.strict, true);
  assert.ok(cfg.files.includes('examples/readme.mjs') && cfg.include.includes('demo/*.js'));
});
