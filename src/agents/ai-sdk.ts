/**
 * The Vercel AI SDK: a `generateText` result (its `steps`), the `steps` array itself (what `await
 * streamText(...).steps` gives), each step's `content` parts in order. Internal.
 *
 * @module
 */
import { isRecord, TrajectoryBuilder } from './builder.js'
import type { Trajectory } from './types.js'

/** Whether `value` looks like an AI SDK step result: a `content` array and the step's tool lists. */
export function isAiSdkStep(value: unknown): boolean {
  return isRecord(value) && Array.isArray(value.content) && Array.isArray(value.toolCalls) && Array.isArray(value.toolResults)
}

function readStep(b: TrajectoryBuilder, step: Record<string, unknown>, where: string): void {
  b.beginStep()
  ;(step.content as unknown[]).forEach((part, i) => {
    if (!isRecord(part)) return
    const at = `${where}.content[${i}]`
    switch (part.type) {
      case 'text':
        if (typeof part.text === 'string') b.text(part.text)
        break
      case 'tool-call':
        // A call the SDK could not parse (`invalid: true`) keeps its raw text as input: it is kept as text,
        // with the parse error, so toHaveValidToolArguments reports it.
        b.call(part.toolName, part.input ?? part.args, part.toolCallId, at)
        break
      case 'tool-result':
        // Results belong to the step of their call: the step ends with the step result, not here.
        b.result('output' in part ? part.output : part.result, part.toolCallId, part.toolName, false, false)
        break
      case 'tool-error':
        b.result(describeError(part.error) ?? 'tool error', part.toolCallId, part.toolName, true, false)
        break
      default:
        // Reasoning, sources, files and approval requests are not part of the trajectory.
        break
    }
  })
  b.endStep()
}

function describeError(error: unknown): string | undefined {
  if (error instanceof Error) return error.message
  if (typeof error === 'string') return error
  return error === undefined ? undefined : JSON.stringify(error)
}

/** Reads `steps` (one step each, in order). */
export function readAiSdkSteps(steps: readonly unknown[]): Trajectory {
  const b = new TrajectoryBuilder()
  steps.forEach((step, i) => readStep(b, step as Record<string, unknown>, `steps[${i}]`))
  return b.build('ai-sdk')
}
