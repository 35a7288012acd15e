// Shared by Node and the browser page: round-trip latency, sequential and with 100 in flight.
// `echo()` is one bare postMessage round trip (`echo2k()` answered with 2 KB); `trivial()` a backend call; `tool()` a read_file tool call.
//
// Every function is warmed up first (JIT tiers on both threads, worker-side caches), then the
// measured calls are interleaved in rounds: a row measured first no longer pays for its own
// warm-up (which made `trivial`, measured first, look slower than `tool`), and a noisy stretch of
// the shared machine lands on every row alike. Each row reports the median over the rounds of the
// mean per call in that round (`sequential` calls and `batches` x `inflight` calls in all), so
// one stolen stretch moves a row less than it would move a plain mean.
export async function measure(calls, { sequential = 2000, batches = 30, inflight = 100, rounds = 10, warmup = 2000 } = {}) {
  const entries = Object.entries(calls);
  for (const [, fn] of entries) {
    for (let i = 0; i < warmup; i++) await fn();
    for (let b = 0; b < 5; b++) await Promise.all(Array.from({ length: inflight }, fn));
  }
  const seqUs = new Map(entries.map(([name]) => [name, []]));
  const parUs = new Map(entries.map(([name]) => [name, []]));
  const r = Math.max(1, Math.min(rounds, batches, sequential));
  for (let round = 0; round < r; round++) {
    const seqCalls = Math.floor(sequential / r) + (round < sequential % r ? 1 : 0);
    const parBatches = Math.floor(batches / r) + (round < batches % r ? 1 : 0);
    for (const [name, fn] of entries) {
      let t = performance.now();
      for (let i = 0; i < seqCalls; i++) await fn();
      seqUs.get(name).push(((performance.now() - t) * 1000) / seqCalls);
      t = performance.now();
      for (let b = 0; b < parBatches; b++) await Promise.all(Array.from({ length: inflight }, fn));
      parUs.get(name).push(((performance.now() - t) * 1000) / (parBatches * inflight));
    }
  }
  const median = (values) => {
    const s = [...values].sort((a, b) => a - b);
    const mid = s.length >> 1;
    return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  };
  const out = {};
  for (const [name] of entries) {
    out[name] = { sequential_us: +median(seqUs.get(name)).toFixed(1), inflight_us: +median(parUs.get(name)).toFixed(1) };
  }
  return out;
}
