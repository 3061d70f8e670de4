// The installed tarball: npm pack, install offline into a fresh project,
// import and cull there in node. (The browser half: test/browser/run.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { packAndInstall, CONSUMER } from './pack.mjs';

test('npm pack -> install into a fresh project -> import and cull in node', () => {
  const { dir, files, installed } = packAndInstall();
  for (const f of ['dist/satc-simd128.wasm', 'dist/satc-scalar.wasm', 'src/index.js', 'src/index.d.ts', 'src/three.js', 'src/three.d.ts', 'README.md', 'package.json']) {
    assert.ok(files.includes(f), `tarball lacks ${f}`);
  }
  assert.ok(!files.some((f) => f.startsWith('test/') || f.startsWith('node_modules/') || f.startsWith('demo/')), files.join(' '));
  assert.ok(installed.includes('dist'));
  writeFileSync(join(dir, 'consumer.mjs'), CONSUMER + 'console.log(answer);\n');
  const out = execFileSync(process.execPath, [join(dir, 'consumer.mjs')], { cwd: dir, encoding: 'utf8' }).trim();
  assert.match(out, /^simd128 \d+\.\d+\.\d+ visible=2 \[0,3\] SATC_ERR_MATRIX$/);
  // the subpath export resolves too (three is not installed here: it is an optional peer)
  const resolved = createRequire(join(dir, 'x.js')).resolve('satc/three');
  assert.match(resolved, /node_modules\/satc\/src\/three\.js/);
});
