// Serves the built package to Chromium from a fake origin: no server, no bundler.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';

export const ORIGIN = 'http://agentvfs.test';
// A *.localhost origin is a secure context, which cross-origin isolation needs.
const ISOLATED_ORIGIN = 'http://agentvfs.localhost';
const dist = join(import.meta.dirname, '../dist');

/** `crossOriginIsolated`: every response carries COOP/COEP, so the page may use SharedArrayBuffer. */
export async function serveDist(page: Page, extra: Record<string, string> = {}, options: { crossOriginIsolated?: boolean } = {}): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const headers: Record<string, string> = options.crossOriginIsolated
    ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' }
    : {};
  const origin = options.crossOriginIsolated ? ISOLATED_ORIGIN : ORIGIN;
  await page.route(`${origin}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') return route.fulfill({ contentType: 'text/html', headers, body: '<!doctype html><title>agentvfs</title>' });
    if (path in extra) return route.fulfill({ contentType: 'text/javascript', headers, body: extra[path]! });
    if (path.startsWith('/dist/')) {
      try {
        return await route.fulfill({ contentType: 'text/javascript', headers, body: readFileSync(join(dist, path.slice(6))) });
      } catch {
        return route.fulfill({ status: 404 });
      }
    }
    return route.fulfill({ status: 404 });
  });
  await page.goto(`${origin}/`);
  return errors;
}
