// The floor: a bare postMessage echo in a worker_threads worker. A number comes back as is
// (the integer echo); { id } gets { id, text } with a 2 KB string, what a read_file tool call
// of a 2 KB file returns (the same-payload echo).
import { parentPort } from 'node:worker_threads';
const REPLY = 'x'.repeat(2100);
parentPort.on('message', (m) => parentPort.postMessage(typeof m === 'number' ? m : { id: m.id, text: REPLY }));
