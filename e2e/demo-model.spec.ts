/// <reference lib="dom" />
// The playground's real-model path (Agent tab → "Use a real model"), through agentvfs/ai and
// the AI SDK's OpenAI-compatible provider. The endpoint is played by page.route: a recorded
// Chat Completions conversation of several tool calls (one failing), checked request by request.
import { expect, test, type Page, type Request } from '@playwright/test';
import { DEMO_E2E_URL } from './demo-port.ts';

test.use({ baseURL: DEMO_E2E_URL, viewport: { width: 1280, height: 800 } });

const ENDPOINT = 'http://model.test/v1';
const KEY = 'sk-playground-secret-4f7c2a';
const DONE = 'Done: README.md now says the library is small and fast, and NOTES.md records it.';

const completion = (n: number, message: object, finish_reason: string) => ({
  id: `chatcmpl-${n}`,
  object: 'chat.completion',
  created: 1_764_000_000,
  model: 'test-model',
  choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason }],
  usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 },
});
const toolCall = (id: string, name: string, args: object) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
// Recorded in the shape POST /chat/completions returns, one response per request.
const script = [
  completion(
    1,
    {
      tool_calls: [
        toolCall('call_read', 'read_file', { path: '/README.md' }),
        // Not read in this session: refused (ENOTREAD), nothing written.
        toolCall('call_unread', 'edit_file', { path: '/src/cart.ts', old_string: 'Cart', new_string: 'Basket' }),
      ],
    },
    'tool_calls',
  ),
  completion(
    2,
    { tool_calls: [toolCall('call_edit', 'edit_file', { path: '/README.md', old_string: 'A small storefront', new_string: 'A small, fast storefront' })] },
    'tool_calls',
  ),
  completion(3, { tool_calls: [toolCall('call_write', 'write_file', { path: '/NOTES.md', content: 'README edited by a model.\n' })] }, 'tool_calls'),
  completion(4, { content: DONE }, 'stop'),
];

/** What the page sends: the parts of a Chat Completions request this test reads. */
interface ChatRequest {
  model: string;
  tools: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; tool_call_id?: string; content: unknown }>;
}

/** The Agent tab's real-model form, opened and pointed at the recorded endpoint. */
async function openModelForm(page: Page): Promise<void> {
  await page.getByTestId('tab-agent').click();
  await page.getByText('Use a real model (OpenAI-compatible endpoint)').click();
  await page.locator('#model-url').fill(ENDPOINT);
  await page.locator('#model-name').fill('test-model');
}

const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST, OPTIONS' };

test('a model on an OpenAI-compatible endpoint edits the playground’s files through agentvfs/ai, and the key is kept nowhere', async ({ page }) => {
  const logged: string[] = [];
  const errors: string[] = [];
  page.on('console', (m) => {
    logged.push(m.text());
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));

  const requests: Array<{ authorization: string | undefined; body: ChatRequest }> = [];
  await page.route(`${ENDPOINT}/**`, async (route) => {
    const request: Request = route.request();
    if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/v1/chat/completions') return route.fulfill({ status: 404, headers: cors });
    requests.push({ authorization: (await request.allHeaders()).authorization, body: request.postDataJSON() as ChatRequest });
    const next = script[requests.length - 1];
    if (!next) return route.fulfill({ status: 400, headers: cors, json: { error: { message: 'the script has no more responses' } } });
    return route.fulfill({ status: 200, headers: cors, json: next });
  });

  await page.goto('/');
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  await openModelForm(page);
  await page.locator('#model-key').fill(KEY);
  await page.locator('#model-task').fill('Say in the README that the library is fast, and leave a note.');
  await page.getByTestId('model-run').click();
  await expect(page.getByTestId('model-status')).toHaveText('Finished.', { timeout: 20_000 });

  // The files changed in the playground's backend (in its worker).
  const files = await page.evaluate(async () => {
    const { backend } = (globalThis as unknown as { agentvfs: { backend: { readText(p: string): Promise<string> } } }).agentvfs;
    return { readme: await backend.readText('/README.md'), notes: await backend.readText('/NOTES.md'), cart: await backend.readText('/src/cart.ts') };
  });
  expect(files.readme).toContain('A small, fast storefront library');
  expect(files.notes).toBe('README edited by a model.\n');
  expect(files.cart).not.toContain('Basket');

  // Every request: the six tools, the key as a bearer token; each result under the id of its call.
  expect(requests).toHaveLength(script.length);
  for (const { authorization, body } of requests) {
    expect(authorization).toBe(`Bearer ${KEY}`);
    expect(body.model).toBe('test-model');
    expect(body.tools.map((t) => t.function.name)).toEqual(['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep']);
  }
  const toolMessages = (i: number) => Object.fromEntries(requests[i]!.body.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content]));
  expect(toolMessages(1).call_read).toMatch(/^ {5}1\t# tiny-shop\n/);
  expect(toolMessages(1).call_unread).toMatch(/^Error: ENOTREAD: \/src\/cart\.ts has not been read/);
  expect(toolMessages(2).call_edit).toMatch(/^Edited \/README\.md: 1 replacement\./);
  expect(toolMessages(3).call_write).toMatch(/^Created \/NOTES\.md/);

  // The transcript shows the model's calls and its answer.
  const transcript = await page.evaluate(() =>
    (globalThis as unknown as { agentvfs: { transcript: { entries: Array<Record<string, unknown>> } } }).agentvfs.transcript.entries.map((e) => ({ ...e })),
  );
  expect(transcript.filter((e) => e.kind === 'call').map((e) => [e.source, e.tool, e.ok])).toEqual([
    ['model', 'read_file', true],
    ['model', 'edit_file', false],
    ['model', 'edit_file', true],
    ['model', 'write_file', true],
  ]);
  expect(transcript.some((e) => e.kind === 'event' && e.text === DONE)).toBe(true);

  // The key is in no storage, no console message, no transcript entry.
  const stored = await page.evaluate(() => {
    const dump = (s: Storage) => Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i)!)}`).join('\n');
    return { local: dump(localStorage), session: dump(sessionStorage) };
  });
  expect(stored.local).toContain(ENDPOINT); // the base URL and model are remembered…
  expect(stored.local).not.toContain(KEY); // …the key is not
  expect(stored.session).not.toContain(KEY);
  expect(logged.join('\n')).not.toContain(KEY);
  expect(JSON.stringify(transcript)).not.toContain(KEY);
  expect(errors).toEqual([]);
});

test('Stop agent while a model’s write waits for approval: the dialog closes, nothing is written, the run stops', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  let requests = 0;
  await page.route(`${ENDPOINT}/**`, async (route) => {
    if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    const next = script[requests++];
    return next ? route.fulfill({ status: 200, headers: cors, json: next }) : route.fulfill({ status: 400, headers: cors, json: {} });
  });
  await page.goto('/');
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  await page.evaluate(() => (globalThis as unknown as { agentvfs: { workspace: { reset(): Promise<void> } } }).agentvfs.workspace.reset());
  await page.getByTestId('ask-before-writes').check();
  await openModelForm(page);
  await page.getByTestId('model-run').click();
  await expect(page.getByTestId('model-stop')).toBeVisible();
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog.locator('h2')).toHaveText('Allow edit_file to change /README.md?');
  await page.getByTestId('approval-stop').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('model-status')).toHaveText(
    'Stopped. Whatever was written before the Stop stays; the write waiting for approval was not made.',
  );
  await expect(page.getByTestId('model-stop')).toBeHidden();
  const readme = await page.evaluate(() =>
    (globalThis as unknown as { agentvfs: { backend: { readText(p: string): Promise<string> } } }).agentvfs.backend.readText('/README.md'),
  );
  expect(readme).not.toContain('fast');
  expect(requests).toBe(2); // no request after the Stop
  const calls = await page.evaluate(() =>
    (globalThis as unknown as { agentvfs: { transcript: { entries: Array<{ kind: string; tool?: string; code?: string }> } } }).agentvfs.transcript.entries
      .filter((e) => e.kind === 'call')
      .map((e) => `${e.tool} ${e.code ?? 'ok'}`),
  );
  expect(calls.at(-1)).toBe('edit_file ECANCELED');
  expect(errors).toEqual([]);
});

test('Stop while the model answers, with no write waiting: the run stops and says only that', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // The second request is answered only after the Stop: the run is stopped while it waits for the model.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let requests = 0;
  await page.route(`${ENDPOINT}/**`, async (route) => {
    if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    const n = requests++;
    if (n === 1) await held;
    return route.fulfill({ status: 200, headers: cors, json: script[n] ?? {} }).catch(() => {}); // (the page may have dropped it)
  });
  await page.goto('/');
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  await page.evaluate(() => (globalThis as unknown as { agentvfs: { workspace: { reset(): Promise<void> } } }).agentvfs.workspace.reset());
  await openModelForm(page);
  await page.getByTestId('model-run').click();
  await expect.poll(() => requests).toBe(2);
  await page.getByTestId('model-stop').click();
  await expect(page.getByTestId('model-status')).toHaveText('Stopped. Whatever was written before the Stop stays.');
  release();
  const events = await page.evaluate(() =>
    (globalThis as unknown as { agentvfs: { transcript: { entries: Array<{ kind: string; text?: string }> } } }).agentvfs.transcript.entries
      .filter((e) => e.kind === 'event')
      .map((e) => e.text),
  );
  expect(events).toContain('Stopped by you.');
  expect(events.some((t) => /waiting for approval/.test(t ?? ''))).toBe(false);
  expect(errors).toEqual([]);
});

test('an endpoint the page cannot reach: the status says where to look, not only "Failed to fetch"', async ({ page }) => {
  await page.route(`${ENDPOINT}/**`, (route) => route.abort('connectionrefused'));
  await page.goto('/');
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  await openModelForm(page);
  await page.getByTestId('model-run').click();
  await expect(page.getByTestId('model-status')).toHaveText(
    /^Failed: .*the page could not reach the endpoint\. Check the URL, that the server runs, and that it allows requests from this page \(CORS\)\.$/,
  );
});
