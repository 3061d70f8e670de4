import { load } from 'satc';

const satc = await load(); // the SIMD128 module where the engine has it, else scalar

// A camera at the origin looking down -Z: 60 degrees, 16:9, near 0.1, far 1000.
const frustum = satc.frustumPerspective({
  eye: [0, 0, 0], dir: [0, 0, -1], up: [0, 1, 0],
  fovy: Math.PI / 3, aspect: 16 / 9, near: 0.1, far: 1000,
});

// 100,000 boxes (center, half size) kept in the module's memory: no copy per frame.
const boxes = satc.batch('aabb', 100_000);
const center = boxes.center, half = boxes.half; // re-read after allocating more
for (let i = 0; i < boxes.capacity; i++) {
  center.set([Math.sin(i) * 1000, 0, Math.cos(i * 1.3) * 1000], 3 * i);
  half.set([2, 5, 2], 3 * i);
}

const { visible, indices } = satc.cull(frustum, boxes, { mode: 'exact' });
console.log(`${visible} of ${boxes.capacity} boxes visible, the first is ${indices?.[0]}`);
boxes.dispose();
