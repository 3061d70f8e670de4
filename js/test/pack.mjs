// npm pack the package and install the tarball into a fresh project,
// offline (the package has no dependencies; three is an optional peer).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Returns { dir, tarball, files }: a project with the tarball installed. */
export function packAndInstall() {
  const work = mkdtempSync(join(tmpdir(), 'satc-consumer-'));
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], pkgDir))[0];
  const tarball = join(work, packed.filename);
  const dir = join(work, 'app');
  execFileSync('mkdir', ['-p', dir]);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'satc-consumer', private: true, type: 'module' }, null, 2));
  npm(['install', '--offline', '--no-audit', '--no-fund', tarball], dir);
  return { dir, tarball, files: packed.files.map((f) => f.path), installed: readdirSync(join(dir, 'node_modules', 'satc')) };
}

/** The consumer's program: the same in node and (as a module) in the browser. */
export const CONSUMER = `import { load, SatcError } from 'satc';
const satc = await load();
const f = satc.frustumFromMatrix([1.3, 0, 0, 0, 0, 1.73, 0, 0, 0, 0, -1.0002, -1, 0, 0, -0.20002, 0]);
const b = satc.batch('aabb', 4, {}, { center: [0, 0, -10, 0, 0, 10, 50, 0, -10, 1, 1, -500], half: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] });
const r = satc.cull(f, b, { mode: 'exact' });
let err = '';
try { satc.frustumFromMatrix(new Array(16).fill(0)); } catch (e) { err = e instanceof SatcError ? e.statusName : String(e); }
export const answer = \`\${satc.isa} \${satc.version} visible=\${r.visible} [\${Array.from(r.indices ?? [])}] \${err}\`;
`;
