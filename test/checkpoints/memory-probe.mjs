// 1,000 checkpoints of a ~50 MB tree, one small edit each: prints how much memory they retained.
// Run: node --expose-gc memory-probe.mjs [--control | --delete]
//   --control: the same edits, no checkpoints; --delete: then delete every checkpoint before measuring.
import { createStateBackend } from '../../dist/index.js';
import { FILE_BYTES, FILES, loadFiftyMegabytes, measure } from './probe-tree.mjs';

const control = process.argv.includes('--control');
const deleteAll = process.argv.includes('--delete');
const backend = createStateBackend({ limits: { maxTotalBytes: Infinity } });
await loadFiftyMegabytes(backend);
const before = measure();
for (let i = 0; i < 1_000; i++) {
  const n = (i * 7919) % FILES;
  await backend.edit(`/src/d${n % 50}/f${n}.txt`, 'file ', `edit${i} `);
  if (!control) await backend.checkpoint(`step ${i}`);
}
const checkpoints = await backend.listCheckpoints();
if (deleteAll) for (const c of checkpoints) await backend.deleteCheckpoint(c.id);
const after = measure();
// The oldest checkpoint must still be complete after all of that.
if (!control && !deleteAll) await backend.rollback(checkpoints[0].id);
const restored = await backend.readText('/src/d0/f0.txt');
console.log(
  JSON.stringify({
    treeBytes: FILES * FILE_BYTES,
    checkpoints: checkpoints.length,
    left: (await backend.listCheckpoints()).length,
    heapGrowth: after.heap - before.heap,
    rssGrowth: after.rss - before.rss,
    oldestIntact: restored.startsWith('edit0 00000000') || restored.startsWith('file 00000000'),
  }),
);
