// Property tests without a seed of their own draw a new one on every local run, to explore.
// CI (CI=true, set by .ci/run) pins one, so whether main is green does not depend on the draw.
// A failure prints its seed either way; FC_SEED=<seed> npm run test:unit replays it.
import fc from 'fast-check';

const pinned = process.env.FC_SEED ?? (process.env.CI ? '20261122' : undefined);
if (pinned !== undefined) fc.configureGlobal({ seed: Number(pinned) });
