/** The whole conformance suite: run it against any backend factory. */
import { backendSuite } from './backend.suite.ts';
import { batchSuite } from './batch.suite.ts';
import { anthropicDialectSuite } from './dialect-anthropic.suite.ts';
import { geminiDialectSuite } from './dialect-gemini.suite.ts';
import { geminiUpstreamSuite } from './dialect-gemini-upstream.suite.ts';
import { mcpFilesystemDialectSuite } from './dialect-mcp-filesystem.suite.ts';
import { mcpFilesystemUpstreamSuite } from './dialect-mcp-filesystem-upstream.suite.ts';
import { checkpointSuite } from './checkpoints.suite.ts';
import { guardSuite } from './guard.suite.ts';
import { previewSuite } from './preview.suite.ts';
import type { BackendFactory } from './harness.ts';
import { pathSuite } from './paths.suite.ts';
import { ignoreToolSuite } from './tools-ignore.suite.ts';
import { mediaToolSuite } from './tools-media.suite.ts';
import { editToolSuite } from './tools-edit.suite.ts';
import { readWriteToolSuite } from './tools-read-write.suite.ts';
import { toolRunSuite } from './tools-run.suite.ts';
import { searchToolSuite } from './tools-search.suite.ts';
import { sessionSuite } from './sessions.suite.ts';
import { applyPatchSuite } from './tools-apply-patch.suite.ts';
import { watchSuite } from './watch.suite.ts';
import { forkMergeSuite } from './fork-merge.suite.ts';

export type { BackendFactory } from './harness.ts';

export function conformanceSuite(make: BackendFactory): void {
  pathSuite(make);
  backendSuite(make);
  batchSuite(make);
  readWriteToolSuite(make);
  editToolSuite(make);
  searchToolSuite(make);
  ignoreToolSuite(make);
  mediaToolSuite(make);
  toolRunSuite(make);
  sessionSuite(make);
  applyPatchSuite(make);
  anthropicDialectSuite(make);
  geminiDialectSuite(make);
  geminiUpstreamSuite(make);
  mcpFilesystemDialectSuite(make);
  mcpFilesystemUpstreamSuite(make);
  checkpointSuite(make);
  guardSuite(make);
  previewSuite(make);
  watchSuite(make);
  forkMergeSuite(make);
}
