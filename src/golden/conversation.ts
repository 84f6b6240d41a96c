/**
 * Agent and multi-turn cases: what a task returns when it is an agent (an SDK result, a messages array, a
 * trajectory, or a `TaskResult` carrying one), the part of the run the checks score (the last turn or the
 * whole conversation), and `turnByTurn`, the task wrapper that plays a case's conversation one user turn
 * at a time.
 *
 * @module
 */
import { describeValue, formatMessage } from '../errors.js'
import { isRecord, SUPPORTED_SHAPES, TrajectoryError } from '../agents/builder.js'
import { readTrajectory } from '../agents/read.js'
import type { Trajectory, TrajectoryItem } from '../agents/types.js'
import { sharedMark } from '../process-state.js'
import type { ConversationMessage, GoldenCase, GoldenTask, TaskResult } from './types.js'

/** The roles a conversation in a dataset may use. */
export const CONVERSATION_ROLES = ['system', 'user', 'assistant'] as const

/** What the checks score in a multi-turn run. */
export type ConversationScore = 'last-turn' | 'conversation'

/** Options of {@link turnByTurn}. */
export interface TurnByTurnOptions {
  /**
   * What the checks score: `'last-turn'` (default) the reply to the last user message and the tool calls
   * made for it; `'conversation'` every reply (joined, one per line) and every tool call of every turn.
   */
  score?: ConversationScore
}

const TURN_BY_TURN = sharedMark('turn-by-turn-task')

interface TurnByTurnMark {
  task: GoldenTask<any, any, any>
  score: ConversationScore
}

/**
 * Makes a golden task play each case's conversation (`messages`) one user turn at a time: the task is
 * called once per user message with the conversation so far (system messages, the earlier user messages
 * and the task's own earlier replies, then the new user message), and returns its reply (text, a
 * `TaskResult`, or what the SDK returned: the reply is its final assistant text). Assistant messages of
 * the dataset are not sent: the task's replies take their place. A case with an `input` instead of
 * `messages` is one user turn.
 *
 * The checks score the last turn (default) or, with `score: 'conversation'`, every turn. A keyword that
 * the last reply must contain tests that the bot remembers what the user said in an earlier turn.
 *
 * @example
 * ```ts
 * describeGolden('support bot remembers', {
 *   dataset: [{ messages: [
 *     { role: 'user', content: 'My order is A17.' },
 *     { role: 'user', content: 'What was my order number again?' },
 *   ], keywords: ['A17'] }],
 *   task: turnByTurn(async (messages) => (await openai.chat.completions.create({ model, messages })).choices[0].message.content ?? ''),
 * })
 * ```
 */
export function turnByTurn<I = unknown, E = unknown, M = Record<string, unknown>>(
  task: (messages: ConversationMessage[], c: GoldenCase<I, E, M>) => unknown,
  options: TurnByTurnOptions = {},
): GoldenTask<I, E, M> {
  const fail = (reason: string, fix: string): never => {
    throw new TypeError(formatMessage(`Failed to set up turnByTurn: ${reason}. ${fix}`))
  }
  if (typeof task !== 'function')
    fail(`the task must be a function (messages, case) => reply, got ${describeValue(task)}`, 'Pass the function that answers one turn.')
  if (!isRecord(options)) fail(`the options must be an object, got ${describeValue(options)}`, "Pass for example { score: 'conversation' }.")
  const unknown = Object.keys(options).filter((k) => k !== 'score')
  if (unknown.length > 0) fail(`unknown option ${unknown.map((k) => `"${k}"`).join(', ')}`, 'The only option is score.')
  const score = options.score ?? 'last-turn'
  if (score !== 'last-turn' && score !== 'conversation')
    fail(`"score" must be 'last-turn' or 'conversation', got ${describeValue(score)}`, "Pass { score: 'last-turn' } (default) or { score: 'conversation' }.")
  const wrapped = (async () => {
    throw new TypeError(
      formatMessage('Failed to run a turnByTurn task: it was called outside a golden suite. Pass it as the task of describeGolden, compareGolden or evaluate.'),
    )
  }) as unknown as GoldenTask<I, E, M>
  Object.defineProperty(wrapped, TURN_BY_TURN, { value: { task, score } satisfies TurnByTurnMark })
  return wrapped
}

function markOf(task: GoldenTask<any, any, any>): TurnByTurnMark | undefined {
  return (task as unknown as Record<symbol, TurnByTurnMark | undefined>)[TURN_BY_TURN]
}

/** A task's return value, read: the text the text checks score and, for agents, the trajectory. */
export interface ReadResult {
  result: TaskResult & { output: string }
  /** Set when the task returned a trajectory (an SDK result, messages...) or `TaskResult.trajectory`. */
  trajectory?: Trajectory
}

/**
 * The final assistant text of a run: the text after the last user message or tool result (empty when the
 * run ended on a tool call or result, i.e. with no answer).
 */
export function finalText(trajectory: Trajectory): string {
  const items = trajectory.items
  return items
    .slice(items.findLastIndex((item) => item.type === 'user' || item.type === 'tool-result') + 1)
    .flatMap((item) => (item.type === 'text' ? [item.text] : []))
    .join('\n')
}

/** What a task returned cannot be read (as opposed to the task throwing). */
export class TaskReturnError extends TypeError {
  constructor(message: string) {
    super(message)
    this.name = 'TaskReturnError'
  }
}

function taskError(c: GoldenCase, reason: string, fix: string): TaskReturnError {
  return new TaskReturnError(formatMessage(`Failed to run the golden task for case "${c.id}": ${reason}. ${fix}`))
}

const RETURN_FIX =
  'Return the answer text, { output, trajectory?, tools?, context?, retrieved?, usage?, latencyMs? }, ' +
  `or what your SDK returned for an agent (${SUPPORTED_SHAPES.join('; ')}).`

function read(c: GoldenCase, value: unknown, where: string): Trajectory {
  try {
    return readTrajectory(value)
  } catch (error) {
    if (error instanceof TrajectoryError) throw taskError(c, `${where}: ${error.reason}`, error.fix)
    throw error
  }
}

/**
 * Reads what a task returned: a string, a `TaskResult` (`output`, or a `trajectory` whose final
 * assistant text is the output), or a trajectory shape (`readTrajectory`: an OpenAI completion or
 * messages array, an AI SDK result, an Anthropic response, LangChain messages, plain items).
 */
export function readTaskResult(value: unknown, c: GoldenCase): ReadResult {
  if (typeof value === 'string') return { result: { output: value } }
  if (isRecord(value) && !Array.isArray(value) && (typeof value.output === 'string' || 'trajectory' in value) && !isSdkResult(value)) {
    const given = value as unknown as TaskResult
    if (given.output !== undefined && typeof given.output !== 'string')
      throw taskError(c, `it returned a result whose "output" is ${describeValue(given.output)}`, 'Give "output" as the answer text.')
    if (given.trajectory === undefined) return { result: given as ReadResult['result'] }
    const trajectory = read(c, given.trajectory, 'the "trajectory" it returned cannot be read')
    return { result: { ...given, output: given.output ?? finalText(trajectory) }, trajectory }
  }
  if (isRecord(value) || Array.isArray(value)) {
    try {
      const trajectory = readTrajectory(value)
      return { result: { output: finalText(trajectory) }, trajectory }
    } catch (error) {
      if (!(error instanceof TrajectoryError)) throw error
      throw taskError(c, `it returned ${describeValue(value)}, which is neither text, a TaskResult nor a trajectory (${error.reason})`, RETURN_FIX)
    }
  }
  throw taskError(c, `it returned ${describeValue(value)}`, RETURN_FIX)
}

/** An SDK result that has an `output` of its own (an AI SDK `generateText` result): a trajectory, not a `TaskResult`. */
function isSdkResult(value: Record<string, unknown>): boolean {
  const proto: unknown = Object.getPrototypeOf(value)
  if (proto === Object.prototype || proto === null) return false
  try {
    readTrajectory(value)
    return true
  } catch {
    // Not a trajectory: a TaskResult made by a class.
  }
  return false
}

/** The items of the last turn: from the last user message on (the user message included). */
export function lastTurn(trajectory: Trajectory): Trajectory {
  const start = trajectory.items.findLastIndex((item) => item.type === 'user')
  if (start <= 0) return trajectory
  const items = trajectory.items.slice(start)
  const firstStep = items.find((i): i is Extract<TrajectoryItem, { step: number }> => 'step' in i)?.step ?? 0
  const shifted = items.map((i) => ('step' in i ? { ...i, step: i.step - firstStep } : i))
  const steps = shifted.reduce((n, i) => ('step' in i ? Math.max(n, i.step + 1) : n), 0)
  return { source: trajectory.source, items: shifted, steps }
}

/** The text of the user messages of a conversation, or of an input. */
function userTurns(c: GoldenCase): { system: ConversationMessage[]; turns: ConversationMessage[] } {
  if (c.messages) {
    return { system: c.messages.filter((m) => m.role === 'system'), turns: c.messages.filter((m) => m.role === 'user') }
  }
  const content = typeof c.input === 'string' ? c.input : (JSON.stringify(c.input) ?? String(c.input))
  return { system: [], turns: [{ role: 'user', content }] }
}

/** Joins the trajectories of several turns into one (of `source`), steps numbered across turns, each turn starting with its user message. */
function joinTurns(turns: Array<{ user: string; trajectory: Trajectory | undefined; output: string }>, source: Trajectory['source']): Trajectory {
  const items: TrajectoryItem[] = []
  let offset = 0
  for (const turn of turns) {
    const own: Pick<Trajectory, 'items' | 'steps'> = turn.trajectory
      ? lastTurn(turn.trajectory)
      : { items: turn.output ? [{ type: 'text', text: turn.output, step: 0 }] : [], steps: 1 }
    if (own.items[0]?.type !== 'user') items.push({ type: 'user', text: turn.user })
    for (const item of own.items) items.push('step' in item ? { ...item, step: item.step + offset } : item)
    offset += Math.max(own.steps, 1)
  }
  return { source, items, steps: offset }
}

/** One run of a task on a case: the result the checks see, and the part of the trajectory they score. */
export interface TaskRun {
  result: TaskResult & { output: string }
  /** The trajectory the tool and goal checks score (already cut to the last turn, or the whole conversation). */
  trajectory?: Trajectory
}

/**
 * Runs the task on a case: once with its input (for a conversation: the messages), or, for a
 * {@link turnByTurn} task, once per user turn. Task errors propagate; return-value errors are
 * `TypeError`s that name the case.
 */
export async function runTask(task: GoldenTask<any, any, any>, c: GoldenCase): Promise<TaskRun> {
  const mark = markOf(task)
  if (!mark) {
    const { result, trajectory } = readTaskResult(await task(c.input, c), c)
    return trajectory ? { result, trajectory: lastTurn(trajectory) } : { result }
  }
  const { system, turns } = userTurns(c)
  const history: ConversationMessage[] = [...system]
  const done: Array<{ user: string; trajectory: Trajectory | undefined; output: string; result: ReadResult['result'] }> = []
  for (const turn of turns) {
    history.push(turn)
    const { result, trajectory } = readTaskResult(
      await mark.task(
        history.map((m) => ({ ...m })),
        c,
      ),
      c,
    )
    done.push({ user: turn.content, trajectory, output: result.output, result })
    history.push({ role: 'assistant', content: result.output })
  }
  const last = done.at(-1)!
  const agent = done.find((d) => d.trajectory !== undefined)?.trajectory
  const usage = done.every((d) => d.result.usage)
    ? {
        inputTokens: done.reduce((s, d) => s + d.result.usage!.inputTokens, 0),
        outputTokens: done.reduce((s, d) => s + (d.result.usage!.outputTokens ?? 0), 0),
        ...(last.result.usage!.model ? { model: last.result.usage!.model } : {}),
      }
    : undefined
  const latencies = done.map((d) => d.result.latencyMs)
  const result: TaskRun['result'] = { ...last.result, output: mark.score === 'conversation' ? done.map((d) => d.output).join('\n') : last.output }
  // Usage the task reports counts only when every turn reports it (else the captured model calls count).
  if (usage) result.usage = usage
  else delete result.usage
  if (latencies.every((l) => typeof l === 'number')) result.latencyMs = (latencies as number[]).reduce((s, l) => s + l, 0)
  else delete result.latencyMs
  if (!agent) return { result }
  const whole = joinTurns(done, agent.source)
  return { result, trajectory: mark.score === 'conversation' ? whole : lastTurn(whole) }
}
