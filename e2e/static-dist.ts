// Serves the built package to Chromium from a fake origin: no server, no bundler.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';

export const ORIGIN = 'http://agentvfs.test';
const dist = join(import.meta.dirname, '../dist');

export async function serveDist(page: Page, extra: Record<string, string> = {}): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>agentvfs</title>' });
    if (path in extra) return route.fulfill({ contentType: 'text/javascript', body: extra[path]! });
    if (path.startsWith('/dist/')) {
      try {
        return await route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(dist, path.slice(6))) });
      } catch {
        return route.fulfill({ status: 404 });
      }
    }
    return route.fulfill({ status: 404 });
  });
  await page.goto(`${ORIGIN}/`);
  return errors;
}
