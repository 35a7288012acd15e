// A local stand-in for a model API: node:http on 127.0.0.1 (random port) that answers each
// request with the next scripted response, in the vendor's wire format, after checking the
// request as the vendor would (a check that fails is a 400 with the vendor's error shape, so the
// SDK throws, and is also recorded for the test to show).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any; // parsed JSON, as the vendor's API reads it
}

export interface Replay {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  received: Received[];
  /** Requests refused by `check`, with the reason. */
  refusals: string[];
  close(): Promise<void>;
}

/**
 * `respond(request, index)` returns the JSON body to answer the index-th request with, or throws
 * to refuse the request (with the error's message) as the real API would.
 */
export async function startReplay(respond: (request: Received, index: number) => unknown): Promise<Replay> {
  const received: Received[] = [];
  const refusals: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'),
      };
      received.push(request);
      let status = 200;
      let body: unknown;
      try {
        body = respond(request, received.length - 1);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        refusals.push(message);
        status = 400;
        body = { type: 'error', error: { type: 'invalid_request_error', message } };
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    refusals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
