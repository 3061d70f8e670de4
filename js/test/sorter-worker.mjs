// The worker of ply.test.js: a splat sorter over the bytes it is given,
// sorting for a few frames into the order array it is given.
import { parentPort } from 'node:worker_threads';
import { load } from '../src/index.js';
import { splatSorter } from '../src/trs.js';

const satc = await load();
parentPort.once('message', ({ cam, src, order }) => {
  const sorter = splatSorter(satc, src);
  const out = order instanceof Uint32Array ? order : new Uint32Array(order);
  const f = satc.frustumPerspective(cam);
  sorter.sort(f, out);
  const heap = satc._heap, alloc = heap.alloc.bind(heap);
  let allocs = 0, count = 0;
  heap.alloc = (...a) => { allocs++; return alloc(...a); };
  for (let i = 0; i < 5; i++) count = sorter.sort(f, out);
  heap.alloc = alloc;
  if (order instanceof Uint32Array) parentPort.postMessage({ count, allocs });
  else parentPort.postMessage({ count, allocs, order }, [order]);
});
