import {
  countLine,
  differenceLines,
  formatCall,
  formatPattern,
  renderSteps,
  argsCheck,
  matchCall,
  toolCalls,
  assertSchema,
  type CallMatch,
  type CallPattern,
} from './_engine.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { asUsage, checkToolName, hint, lines, partialEquals, trajectoryOf, type Signature } from './utils.js'

/**
 * Passes when the agent called the tool `name` at least once, and, with `args`, with arguments that match:
 *
 * - an object (or array) is a **partial deep match**, like `toMatchObject`: the listed keys must be there
 *   with these values, other keys are ignored; asymmetric matchers work (`expect.any(Number)`,
 *   `expect.stringMatching(/^A\d+$/)`, `expect.closeTo(29.99)`);
 * - a Standard Schema (zod, valibot, ArkType, ...) or a JSON Schema (an object with `$schema`, or with
 *   `type: 'object'` and `properties`) must validate the arguments.
 *
 * The received value is anything `readTrajectory` reads: an OpenAI chat completion or messages array, a
 * Responses API response or input items, an AI SDK `generateText` result or steps, an Anthropic message or
 * conversation, LangChain messages, or a plain item array. The failure message lists every call, marks the
 * nearest one (same tool) and says which argument differs.
 *
 * @example
 * ```ts
 * expect(completion).toCallTool('lookupOrder')
 * expect(result).toCallTool('refundOrder', { orderId: 'A17', amount: expect.any(Number) })
 * expect(messages).toCallTool('refundOrder', z.object({ amount: z.number().max(100) }))
 * expect(messages).not.toCallTool('deleteAccount')
 * ```
 */
export function toCallTool(this: MatcherContext, received: unknown, name: unknown, args?: unknown): MatcherResult {
  const sig: Signature = { name: 'toCallTool', received: 'trajectory', expected: 'name', ...(args !== undefined ? { secondArgument: 'args' } : {}) }
  checkToolName(this, sig, name)
  const trajectory = trajectoryOf(this, sig, received)
  const check = argsCheck(args)
  if (check.kind === 'schema') asUsage(this, sig, () => assertSchema(check.schema))
  const pattern: CallPattern = { name, args: check }
  const equals = partialEquals(this, sig)
  const calls = toolCalls(trajectory)
  const results: CallMatch[] = asUsage(this, sig, () => calls.map((call) => matchCall(call, pattern, equals)))
  const matched = results.findIndex((r) => r.nameMatches && r.argsMatch)
  const pass = matched !== -1

  return {
    pass,
    message: () => {
      const wanted = check.kind === 'any' ? name : formatPattern(pattern, undefined, 200)
      const expected = `Expected: ${this.isNot ? 'no call to' : 'a call to'} ${wanted}${check.kind === 'partial' ? ' (arguments contain these values)' : ''}`
      const sameName = results.flatMap((r, i) => (r.nameMatches ? [i] : []))
      // The call to look at: the matching one under .not, else the first call to the same tool.
      const focus = pass ? matched : sameName[0]
      const receivedLine = pass
        ? `Received: call ${matched + 1} is ${formatCall(calls[matched]!)}`
        : calls.length === 0
          ? `Received: no tool calls (${countLine(trajectory)})`
          : sameName.length === 0
            ? `Received: no call to ${name} among ${countLine(trajectory)}`
            : `Received: ${sameName.length === 1 ? 'the call' : `${sameName.length} calls`} to ${name} with other arguments (${countLine(trajectory)})`
      const callLines = calls.flatMap((call, i) => {
        const row = `${i === focus ? '  > ' : '    '}${String(i + 1).padStart(String(calls.length).length)}  ${formatCall(call)}`
        const detail = !pass && i === focus ? differenceLines(results[i]!.differences).map((d) => `         ${d}`) : []
        return [row, ...detail]
      })
      return lines(hint(this, sig), '', expected, receivedLine, '', calls.length > 0 ? ['Calls:', ...callLines] : ['Trajectory:', ...renderSteps(trajectory)])
    },
  }
}
