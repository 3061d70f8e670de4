import { load } from 'satc';

const satc = await load(); // the SIMD128 module where the engine has it, else scalar

// A camera 20 up, tilted down at a point 100 ahead (up is +Y, as with three's lookAt):
// 60 degrees, 16:9, near 0.1, far 1000.
const frustum = satc.frustumLookAt({
  eye: [0, 20, 0], target: [0, 0, -100], up: [0, 1, 0],
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
