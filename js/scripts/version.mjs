// The project's single version is meson.build's project(version: ...).
// --write puts it into package.json; without it, prints it.
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
export function mesonVersion() {
  const m = /project\([^)]*?version:\s*'([^']+)'/s.exec(readFileSync(new URL('meson.build', root), 'utf8'));
  if (!m) throw new Error('no version in meson.build');
  return m[1];
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const v = mesonVersion();
  if (process.argv.includes('--write')) {
    const file = new URL('../package.json', import.meta.url);
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    if (pkg.version !== v) {
      pkg.version = v;
      writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
    }
  }
  console.log(v);
}
