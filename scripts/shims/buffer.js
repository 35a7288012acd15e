// memfs needs a Node-style Buffer. Use the host's native one where it exists (Node, workerd with
// nodejs_compat). Elsewhere (browsers, plain workerd) agentvfs's storage (src/storage/memfs-store.ts)
// only ever calls Buffer.allocUnsafe(n) and Buffer.from(arrayBuffer, offset, length), and memfs's
// Node only allocUnsafe(0) at load: plain Uint8Arrays do, without the npm polyfill (25 kB minified,
// and it re-prototypes every array it makes). Anything else is a clear error, not a wrong result.
class PortableBuffer extends Uint8Array {
  static allocUnsafe(size) {
    return new Uint8Array(size);
  }

  static alloc(size) {
    return new Uint8Array(size);
  }

  static from(value, offset, length) {
    // (By tag, not instanceof: a buffer may come from another realm, a frame or a host's encoder.)
    const tag = Object.prototype.toString.call(value);
    if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return new Uint8Array(value, offset, length);
    if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength)); // a copy, as Buffer.from(view)
    if (typeof value === 'string' && (offset === undefined || /^utf-?8$/i.test(offset))) return new TextEncoder().encode(value);
    throw new TypeError('agentvfs: Buffer.from() with this argument is not available without a native Buffer.');
  }

  static isBuffer(value) {
    return value instanceof Uint8Array;
  }
}

const native = globalThis.Buffer;
export const Buffer = typeof native === 'function' && typeof native.from === 'function' ? native : PortableBuffer;
export default { Buffer };
