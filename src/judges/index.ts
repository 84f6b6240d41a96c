export { openAIJudge } from './openai.js'
export type { OpenAIJudgeOptions } from './openai.js'
export { anthropicJudge, DEFAULT_ANTHROPIC_JUDGE_MODEL } from './anthropic.js'
export type { AnthropicJudgeOptions } from './anthropic.js'
export { aiSdkJudge } from './ai-sdk.js'
export type { AiSdkJudgeOptions } from './ai-sdk.js'
export { functionJudge, resolveJudge } from './resolve.js'
export { parseJudgeReply, normalizeScore, scaleRange, JudgeReplyError } from './parse.js'
export type { ParsedReply } from './parse.js'
export { renderPrompt, checkTemplate, PLACEHOLDERS, BUILT_IN_TEMPLATES } from './templates.js'
export type { TemplateFields, Placeholder } from './templates.js'
export { prepareJudgeCall, runJudge, MAX_SAMPLES } from './run.js'
export type { JudgeVerdict, PreparedJudgeCall } from './run.js'
export { DEFAULT_JUDGE_MODEL, DEFAULT_JUDGE_THRESHOLD, DEFAULT_FAITHFULNESS_THRESHOLD } from './types.js'
export type {
  AiSdkLanguageModel,
  AnthropicClientLike,
  BuiltInTemplate,
  Claim,
  Judge,
  JudgeFunction,
  JudgeFunctionResult,
  JudgeLike,
  JudgeOptions,
  JudgeRequest,
  JudgeResult,
  JudgeScale,
  JudgeSpec,
  JudgeUsage,
} from './types.js'
