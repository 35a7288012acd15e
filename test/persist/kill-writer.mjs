// Child process for kill.test.ts: a write storm against a file-store workspace (the built
// package). Prints "ack <i> <ms since epoch>" on fd 1 once write i is acknowledged, as a caller
// would see it, and "saved <i>" once a save holding write i (the newest in it) is committed; the
// parent SIGKILLs this process at a moment of its choosing.
import { writeSync } from 'node:fs';
import { createStateBackend } from '../../dist/index.js';
import { openPersistent } from '../../dist/persist.js';
import { createFileStore } from '../../dist/persist-node.js';
import { contentOf, removes, writeOf } from './kill-content.mjs';

const [path, durability, start] = process.argv.slice(2);
const store = createFileStore(path);
// Every operation up to the newest write a save holds was done when the save was collected (the
// storm runs one at a time), so once it is committed all must survive. (A file's record is a
// 16-byte header, then the content: src/persist/records.ts.)
const write = store.write.bind(store);
store.write = async (batch, options) => {
  await write(batch, options);
  let newest = -1;
  for (const [key, value] of batch.puts) if (key.startsWith('f:/w/')) newest = Math.max(newest, writeOf(value.subarray(16)));
  writeSync(1, `saved ${newest}\n`);
};
const { backend } = await openPersistent(createStateBackend(), store, { durability, debounceMs: 20, maxWaitMs: 100 });
for (let i = Number(start); ; i++) {
  // New files, rewrites of older ones (so a torn batch could mix an old and a new version), and removals.
  const path = `/w/${i % 50}.bin`;
  if (!removes(i)) await backend.writeFile(path, contentOf(i));
  else if (await backend.exists(path)) await backend.remove(path);
  writeSync(1, `ack ${i} ${Date.now()}\n`);
  // As a real caller does between calls (I/O, a model's answer): an in-process backend answers in
  // microtasks only, and a loop that never yields to the event loop would starve every timer.
  await new Promise((resolve) => setImmediate(resolve));
}
