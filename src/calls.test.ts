// The call table against the objects it describes: a method or tool added without an entry fails here
// (and `satisfies` in calls.ts already refuses to compile).
import { describe, expect, it } from 'vitest';
import { BACKEND_CALLS, BACKEND_METHODS, DIALECT_TOOL_CALLS, TOOL_CALLS, toolCall } from './calls.ts';
import { DIALECT_NAMES } from './tools/dialects/names.ts';
import { createStateBackend } from './backend/state-backend.ts';
import { RemoteBackend } from './client/remote-backend.ts';
import { createTools } from './tools/create-tools.ts';
import { TOOL_NAMES } from './tools/definitions.ts';

/** Every method an object has, own or inherited. */
function methodsOf(value: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = value; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (key !== 'constructor' && typeof (value as Record<string, unknown>)[key] === 'function') names.add(key);
    }
  }
  return [...names].sort();
}

describe('the call table', () => {
  it("lists exactly the in-process backend's methods", () => {
    expect(methodsOf(createStateBackend())).toEqual(Object.keys(BACKEND_CALLS).sort());
    expect([...BACKEND_METHODS].sort()).toEqual(Object.keys(BACKEND_CALLS).sort());
  });

  it('lists exactly the tools createTools defines', () => {
    const names = createTools(createStateBackend()).definitions.map((d) => d.name);
    expect(Object.keys(TOOL_CALLS).sort()).toEqual([...names].sort());
    expect([...TOOL_NAMES].sort()).toEqual([...names].sort());
  });

  it("lists exactly each dialect's tools", () => {
    expect(Object.keys(DIALECT_TOOL_CALLS)).toEqual([...DIALECT_NAMES]);
    for (const dialect of DIALECT_NAMES) {
      const names = createTools(createStateBackend(), { dialect }).definitions.map((d) => d.name);
      expect(Object.keys(DIALECT_TOOL_CALLS[dialect]).sort(), dialect).toEqual([...names].sort());
      for (const name of names) expect(toolCall(name, dialect), `${dialect} ${name}`).toBe(DIALECT_TOOL_CALLS[dialect][name as never]);
    }
    expect(toolCall('write_file', 'no-such-dialect')).toBeUndefined();
  });

  it('the worker client forwards every backend method, and has only its own extras besides', () => {
    const extras = ['close', 'createToolSession'];
    expect(methodsOf(RemoteBackend.prototype)).toEqual([...BACKEND_METHODS, ...extras].sort());
  });

  it('only calls that change state are marked mutating (reads and searches are not)', () => {
    const mutating = Object.entries(BACKEND_CALLS)
      .filter(([, info]) => info.mutates)
      .map(([name]) => name);
    expect(mutating.sort()).toEqual(['applyBatch', 'edit', 'merge', 'mkdir', 'remove', 'rename', 'restore', 'rollback', 'uploadFiles', 'writeFile']);
    const tools = Object.entries(TOOL_CALLS)
      .filter(([, info]) => info.mutates)
      .map(([name]) => name);
    expect(tools.sort()).toEqual(['edit_file', 'write_file']);
  });
});
