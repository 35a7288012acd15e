// Child process for kill.test.ts: a write storm against a file-store workspace (the built
// package). Prints "ack <i> <ms since epoch>" on fd 1 once write i is acknowledged, as a caller
// would see it; the parent SIGKILLs this process at a moment of its choosing.
import { writeSync } from 'node:fs';
import { createStateBackend } from '../../dist/index.js';
import { openPersistent } from '../../dist/persist.js';
import { createFileStore } from '../../dist/persist-node.js';
import { contentOf, removes } from './kill-content.mjs';

const [path, durability, start] = process.argv.slice(2);
const { backend } = await openPersistent(createStateBackend(), createFileStore(path), { durability, debounceMs: 20, maxWaitMs: 100 });
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
