// Child process for stores.test.ts, run under `ulimit -f` (a small maximum file size): a save
// that the disk refuses part way, then one that fits. Prints what each write answered.
import { createStateBackend } from '../../dist/index.js';
import { openPersistent } from '../../dist/persist.js';
import { createFileStore } from '../../dist/persist-node.js';

const { backend } = await openPersistent(createStateBackend(), createFileStore(process.argv[2]), { durability: 'immediate' });
const outcome = (p) =>
  p.then(
    () => 'saved',
    (error) => error.name,
  );
console.log(await outcome(backend.writeFile('/first.txt', 'first\n')));
console.log(await outcome(backend.writeFile('/big.bin', new Uint8Array(2_000_000))));
await backend.remove('/big.bin').catch(() => {});
console.log(await outcome(backend.writeFile('/after.txt', 'after\n')));
await backend.close().catch(() => {});
