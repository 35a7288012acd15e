/**
 * deepagents' backend protocol tests (deepagentsjs repository, libs/deepagents/src/backends/
 * protocol.test.ts), for AgentvfsBackend. Those cases check deepagents' result types and its
 * isSandboxBackend() on hand-made objects; here the same assertions run on what AgentvfsBackend
 * returns, and the assignments to deepagents' own types are checked by the compiler
 * (tsconfig.test.json). ExecuteResponse (2 cases) and FileOperationError's list (1 case) have no
 * AgentvfsBackend counterpart (there is no execute), nor do the other 8 isSandboxBackend cases,
 * which try deepagents' function on hand-made objects: see docs/langchain.md.
 */
import { type BackendProtocolV2, type FileDownloadResponse, type FileUploadResponse, isSandboxBackend } from 'deepagents';
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../src/index.ts';
import { AgentvfsBackend } from '../../src/langchain/index.ts';

const make = () => new AgentvfsBackend(createStateBackend({ files: { '/test.txt': new Uint8Array([1, 2, 3]), '/dir/inside.txt': 'x' } }));

describe('Protocol Types, from AgentvfsBackend', () => {
  it('is a BackendProtocolV2 (checked by the compiler)', () => {
    const backend: BackendProtocolV2 = make();
    expect(typeof backend.read).toBe('function');
  });

  describe('FileDownloadResponse', () => {
    it('should have correct shape for success', async () => {
      const [response]: FileDownloadResponse[] = await make().downloadFiles(['/test.txt']);

      expect(response!.path).toBe('/test.txt');
      expect(response!.content).not.toBeNull();
      expect(response!.error).toBeNull();
    });

    it('should have correct shape for error', async () => {
      const [response]: FileDownloadResponse[] = await make().downloadFiles(['/missing.txt']);

      expect(response!.path).toBe('/missing.txt');
      expect(response!.content).toBeNull();
      expect(response!.error).toBe('file_not_found');
    });
  });

  describe('FileUploadResponse', () => {
    it('should have correct shape for success', async () => {
      const [response]: FileUploadResponse[] = await make().uploadFiles([['/uploaded.txt', new Uint8Array([1])]]);

      expect(response!.path).toBe('/uploaded.txt');
      expect(response!.error).toBeNull();
    });

    it('should have correct shape for error (adapted: agentvfs has no read-only files yet, so a directory stands in)', async () => {
      const [response]: FileUploadResponse[] = await make().uploadFiles([['/dir', new Uint8Array([1])]]);

      expect(response!.path).toBe('/dir');
      expect(response!.error).toBe('is_directory');
    });
  });
});

describe('isSandboxBackend', () => {
  it('should return false for V2 backends without execute', () => {
    const nonSandboxBackend: BackendProtocolV2 = make();

    expect(isSandboxBackend(nonSandboxBackend)).toBe(false);
  });
});
