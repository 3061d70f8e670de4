// The splat and TRS entry point (satc/trs): batches, PLY files and the
// worker-friendly sorter.
export * from './trs-core.js';
export { splatSorter, SplatSorter } from './sorter.js';
