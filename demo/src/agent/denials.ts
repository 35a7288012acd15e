// A write the person denied ("Ask before writes") is their decision, not a failed step: every run
// (the scripted agent, each dialect's run, the parallel subagents) counts denials with wasDenied
// and ends with these words, so no run calls a denial a failure and all of them say it alike.
import type { CallEntry } from '../transcript.ts';

/** The call wrote nothing because the person denied its write (EDENIED, whatever the dialect). */
export const wasDenied = (entry: CallEntry): boolean => entry.result.startsWith('Error: EDENIED');

/** "the write" / "the 3 writes", as a run's status names what the person denied. */
function denials(n: number): string {
  return n === 1 ? 'the write' : `the ${n} writes`;
}

/** The transcript's last word on a run that went on without the writes denied. */
export const finishedWithout = (denied: number): string => `Finished without ${denials(denied)} you denied: those files are unchanged (see the transcript).`;

/** The Agent tab's status for a run that did not do all of its task: denied writes, else a failed step. */
export const unfinishedStatus = (denied: number): string =>
  denied > 0 ? `Finished without ${denials(denied)} you denied; see the transcript.` : 'Stopped: a step failed; see the transcript.';
