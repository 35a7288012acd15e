// A worker that dies while loading, before it can answer anything.
throw new Error('boom at load');
