// A bare Comlink call: the same library and message shape the worker facade uses, with no
// backend behind it. `echo(n)` returns n; `echo2k()` a 2 KB string, what a read_file tool call
// of a 2 KB file returns. The facade's overhead is the difference to these rows.
import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';

const REPLY = 'x'.repeat(2100);
expose({ echo: (n) => n, echo2k: () => REPLY }, nodeEndpoint(parentPort));
