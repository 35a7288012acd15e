// memfs needs a Node-style Buffer. Use the host's native one where it exists (Node, workerd with
// nodejs_compat): the npm polyfill re-prototypes every array it makes, which is many times slower.
// Elsewhere (browsers, plain workerd) fall back to the polyfill.
import { Buffer as PolyfillBuffer } from 'buffer/index.js';

const native = globalThis.Buffer;
export const Buffer = typeof native === 'function' && typeof native.from === 'function' ? native : PolyfillBuffer;
export default { Buffer };
