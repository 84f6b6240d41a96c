/**
 * Local stand-ins for the OpenAI-compatible servers people run their judges on, each on 127.0.0.1 with
 * the known differences from OpenAI that matter to a judge or an embedder (built on the scripted
 * server of `openai-server.ts`):
 *
 * - Ollama, as versions before its OpenAI-compatible endpoint honoured `response_format` behaved
 *   (ollama/ollama#10001: json_schema silently ignored, the reply is free text), with a reasoning model
 *   that thinks aloud between `<think>` tags in `content` (deepseek-r1 on Ollama, RooCodeInc/Roo-Code#1566),
 *   and an embeddings endpoint that answers float arrays to the SDK's base64 request and ignores
 *   `dimensions` (BerriAI/litellm#42426: 768-dimension vectors arriving as 192 through the openai SDK).
 *   Today's Ollama lists `response_format`, `encoding_format` and `dimensions` as supported
 *   (ollama/ollama docs/api/openai-compatibility.mdx); older installs are what the judge must survive.
 * - vLLM, which rejects a JSON schema its grammar backend cannot compile with a 400 (vllm-project/vllm#26421,
 *   "The provided JSON schema contains features not supported by xgrammar"), in the top-level
 *   `{ object: 'error', message }` body of its older versions, and puts a reasoning model's thinking in
 *   `reasoning_content` (vllm-project/vllm reasoning parsers).
 * - LM Studio, which accepts only `json_schema` or `text` as `response_format.type`
 *   (lmstudio-ai/lmstudio-bug-tracker#189, #307: `400 {"error":"'response_format.type' must be
 *   'json_schema'"}`), ignores `encoding_format` on embeddings (lmstudio-ai/lmstudio-bug-tracker#756) and
 *   sends no usage in streams (lmstudio-ai/lmstudio-bug-tracker#676, #713).
 */
import { startOpenAIServer, type OpenAIServer, type RecordedRequest, type ReplyScript, type ScriptedReply, type ServerQuirks } from './openai-server.js'

export type LocalServerKind = 'ollama' | 'vllm' | 'lmstudio'

/** The quirks of each server (see the module comment for sources). */
export const LOCAL_SERVER_QUIRKS: Record<LocalServerKind, ServerQuirks> = {
  ollama: { embeddingsIgnoreEncodingFormat: true, embeddingsIgnoreDimensions: true, nativeDimensions: 8, reasoningField: 'think-tags' },
  vllm: { errorShape: 'top-level', reasoningField: 'reasoning_content' },
  lmstudio: { errorShape: 'string', embeddingsIgnoreEncodingFormat: true },
}

/** How each server treats a `response_format` before the script's reply is sent. */
function structuredOutputGate(kind: LocalServerKind, req: RecordedRequest): ScriptedReply | undefined {
  const format = req.body?.response_format?.type as string | undefined
  if (format === undefined) return undefined
  if (kind === 'vllm' && format === 'json_schema') return { status: 400, errorMessage: 'The provided JSON schema contains features not supported by xgrammar.' }
  if (kind === 'lmstudio' && format !== 'json_schema' && format !== 'text')
    return { status: 400, errorMessage: "'response_format.type' must be 'json_schema' or 'text'" }
  return undefined
}

/** A local server of the given kind; `reply` answers what the server lets through. */
export async function startLocalServer(kind: LocalServerKind, reply: ReplyScript = () => ({})): Promise<OpenAIServer> {
  return startOpenAIServer({
    quirks: LOCAL_SERVER_QUIRKS[kind],
    reply: (req, index) => structuredOutputGate(kind, req) ?? reply(req, index),
  })
}
