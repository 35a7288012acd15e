// Shared by Node and the browser page: round-trip latency, sequential and with 100 in flight.
// `echo()` is one bare postMessage round trip (`echo2k()` answered with 2 KB); `trivial()` a backend call; `tool()` a read_file tool call.
export async function measure(calls, { sequential = 2000, batches = 30, inflight = 100 } = {}) {
  const out = {};
  for (const [name, fn] of Object.entries(calls)) {
    for (let i = 0; i < 200; i++) await fn(); // warm-up
    let t = performance.now();
    for (let i = 0; i < sequential; i++) await fn();
    const seqUs = ((performance.now() - t) * 1000) / sequential;
    t = performance.now();
    for (let b = 0; b < batches; b++) await Promise.all(Array.from({ length: inflight }, fn));
    const parUs = ((performance.now() - t) * 1000) / (batches * inflight);
    out[name] = { sequential_us: +seqUs.toFixed(1), inflight_us: +parUs.toFixed(1) };
  }
  return out;
}
