/**
 * Cancelling a tool call (RunOptions.signal) over persisted backends: a follower tab that took
 * over asks approve() through its own wrapper, in process and served from a worker; neither may
 * lose the call's signal, nor take a late answer to a cancelled question as the person's "always".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/client/connect.ts';
import { createTools as createClientTools } from '../../src/client/create-tools.ts';
import { createStateBackend, createTools, type ApprovalDecision, type ApprovalRequest, type Backend } from '../../src/index.ts';
import { openPersistent } from '../../src/persist/persistent.ts';
import { expose } from '../../src/worker/expose.ts';
import { hub } from './store-hub.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

/** A workspace opened by tab A, then by tab B following it; A closes, so B writes. */
async function followerThatTookOver() {
  const open = hub();
  const a = await openPersistent(createStateBackend({ files: { '/a.txt': 'a\n' } }), open());
  const b = await openPersistent(createStateBackend(), open(), { ifHeld: 'follow', durability: 'immediate' });
  await a.backend.close();
  expect(await (b.backend as { whenWritable?: Promise<boolean> }).whenWritable).toBe(true);
  return b.backend;
}

/** An approve() that keeps each question open until the test answers it. */
function heldQuestions() {
  const asked: ApprovalRequest[] = [];
  const answers: Array<(decision: ApprovalDecision) => void> = [];
  const approve = (request: ApprovalRequest) => (asked.push(request), new Promise<ApprovalDecision>((resolve) => answers.push(resolve)));
  return { asked, answers, approve };
}

describe('cancellation over a follower tab that took over', () => {
  for (const where of ['in process', 'served from a worker'] as const) {
    it(`${where}: cancelled while asked, nothing is written, even when the person then allows`, async () => {
      const served = await followerThatTookOver();
      let target: Backend = served;
      let make = createTools;
      if (where === 'served from a worker') {
        const { port1, port2 } = new MessageChannel();
        ports.push(port1, port2);
        expose(served, port1);
        target = connect(port2);
        make = createClientTools as typeof createTools;
      }
      const { asked, answers, approve } = heldQuestions();
      const tools = make(target, { approve });
      const controller = new AbortController();
      const call = tools.run('write_file', { path: '/x.txt', content: 'x' }, { signal: controller.signal });
      while (asked.length === 0) await tick();
      expect(asked[0]!.signal).toBeDefined();
      controller.abort();
      expect((await call).code).toBe('ECANCELED');
      answers[0]!({ allow: true });
      await tools.run('ls', {});
      expect(await served.exists('/x.txt')).toBe(false);
    });
  }

  it('a late "always" to a cancelled question is not remembered: the next write is asked', async () => {
    const served = await followerThatTookOver();
    const { asked, answers, approve } = heldQuestions();
    const tools = createTools(served, { approve });
    const controller = new AbortController();
    const call = tools.run('write_file', { path: '/x.txt', content: 'x' }, { signal: controller.signal });
    while (asked.length === 0) await tick();
    controller.abort();
    expect((await call).code).toBe('ECANCELED');
    answers[0]!({ allow: true, always: true });
    const next = tools.run('write_file', { path: '/y.txt', content: 'y' });
    while (asked.length === 1) await tick();
    answers[1]!({ allow: true });
    expect((await next).isError).toBe(false);
    expect(asked.map((r) => r.path)).toEqual(['/x.txt', '/y.txt']);
  });
});
