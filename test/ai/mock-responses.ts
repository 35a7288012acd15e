/** Model responses for the AI SDK's MockLanguageModelV4 (doGenerate): tool calls, or a final text. */
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** One response making these calls: [toolCallId, toolName, input]. */
export const toolCallsResponse = (...calls: [id: string, name: string, input: object][]) => ({
  content: calls.map(([toolCallId, toolName, input]) => ({ type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) })),
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
});

/** One response that ends the loop with `text`. */
export const textResponse = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: undefined },
  usage,
  warnings: [],
});
