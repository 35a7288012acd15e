import { describe, expect, it } from 'vitest';
import { isWellFormed } from '../text.ts';
import { createStateBackend } from './state-backend.ts';

describe('a path over maxPathLength', () => {
  it('is refused with its start quoted whole: no surrogate pair cut at the clip', async () => {
    const backend = createStateBackend({ limits: { maxPathLength: 100 } });
    // '/ab' then emoji: character 80 is the first half of a pair.
    const path = `/ab${'😀'.repeat(60)}`;
    const error = await backend.writeFile(path, 'x').catch((e: Error) => e);
    expect(error).toMatchObject({ code: 'EINVAL' });
    expect((error as Error).message).toContain(`over the limit of 100: /ab${'😀'.repeat(38)}… No file was changed.`);
    expect(isWellFormed((error as Error).message)).toBe(true);
    expect(await backend.glob('**')).toEqual([]);
  });
});
