// Child process for stores.test.ts: opens a file store, says so, and keeps it open until killed.
import { createFileStore } from '../../dist/persist-node.js';

const store = createFileStore(process.argv[2]);
await store.readAll();
await store.write({ puts: [['meta', new TextEncoder().encode('{"format":"agentvfs-workspace","version":1}')]], deletes: [] }, { durability: 'strict' });
console.log('open');
setInterval(() => {}, 1_000);
