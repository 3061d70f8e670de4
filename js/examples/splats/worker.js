// The sorting worker: the scene's bytes come once (a SharedArrayBuffer, or
// a transferred ArrayBuffer); then each 'sort' message (a view-projection
// matrix) writes the visible splats back to front into the order array:
// the shared one, or the ArrayBuffer the main thread transferred, which
// goes back with the answer. Nothing is allocated per frame.
import { load } from '../../src/index.js';
import { splatSorter } from '../../src/trs.js';

const ready = load();
let sorter = null, shared = null;

self.onmessage = async ({ data: m }) => {
  const satc = await ready;
  if (m.type === 'init') {
    sorter = splatSorter(satc, m.scene, { sort: 32 });
    shared = m.order ? new Uint32Array(m.order) : null;
    self.postMessage({ type: 'ready', count: sorter.count, isa: satc.isa });
  } else if (m.type === 'sort') {
    const order = shared ?? new Uint32Array(m.order);
    const t0 = performance.now();
    const n = sorter.sort(m.viewProj, order);
    const ms = performance.now() - t0;
    if (shared) self.postMessage({ type: 'sorted', id: m.id, n, ms });
    else self.postMessage({ type: 'sorted', id: m.id, n, ms, order: m.order }, [m.order]);
  }
};
