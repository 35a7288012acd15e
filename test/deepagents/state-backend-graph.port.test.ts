/**
 * deepagents' StateBackend integration tests (deepagentsjs repository, libs/deepagents/src/
 * backends/state.int.test.ts), run against AgentvfsBackend inside a real LangGraph graph: the same
 * three cases and assertions. Adapted setup: the graph has no `files` channel (AgentvfsBackend keeps
 * no LangGraph state), and every node uses one AgentvfsBackend over one agentvfs backend, where
 * StateBackend made a new instance per node over the graph's state.
 */
import { END, MemorySaver, START, StateGraph, StateSchema } from '@langchain/langgraph';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentvfsBackend } from '../../src/langchain/index.ts';
import { closeAll, TARGETS } from './targets.ts';

afterEach(closeAll);

const GraphState = new StateSchema({ result: z.string() });

function makeGraph(node: () => Promise<{ result: string }>) {
  return new StateGraph(GraphState).addNode('test', node).addEdge(START, 'test').addEdge('test', END).compile({ checkpointer: new MemorySaver() });
}

describe.each(Object.keys(TARGETS))('StateBackend integration (real LangGraph graph), AgentvfsBackend with the backend %s', (where) => {
  const newBackend = () => new AgentvfsBackend(TARGETS[where]!());

  it('write-then-read in same node sees pending write', async () => {
    const backend = newBackend();
    const graph = makeGraph(async () => {
      await backend.write('/hello.txt', 'world');
      const read = await backend.read('/hello.txt');
      return { result: read.error ?? String(read.content) };
    });

    const result = await graph.invoke({}, { configurable: { thread_id: crypto.randomUUID() } });
    expect(result.result).toBe('world');
  });

  it('write-edit-read in same node sees edited content', async () => {
    const backend = newBackend();
    const graph = makeGraph(async () => {
      await backend.write('/doc.txt', 'hello world');
      await backend.edit('/doc.txt', 'hello', 'goodbye');
      const read = await backend.read('/doc.txt');
      return { result: read.error ?? String(read.content) };
    });

    const result = await graph.invoke({}, { configurable: { thread_id: crypto.randomUUID() } });
    expect(result.result).toBe('goodbye world');
  });

  it('write in node N is visible in node N+1 via committed state', async () => {
    const backend = newBackend();
    const graph = new StateGraph(GraphState)
      .addNode('write', async () => {
        await backend.write('/cross.txt', 'persisted');
        return {};
      })
      .addNode('read', async () => {
        const read = await backend.read('/cross.txt');
        return { result: read.error ?? String(read.content) };
      })
      .addEdge(START, 'write')
      .addEdge('write', 'read')
      .addEdge('read', END)
      .compile({ checkpointer: new MemorySaver() });
    const result = await graph.invoke({}, { configurable: { thread_id: crypto.randomUUID() } });
    expect(result.result).toBe('persisted');
  });
});
