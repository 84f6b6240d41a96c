/**
 * Agent trajectories: what a tool-calling model run did, normalized across SDKs, and the checks the
 * agent matchers share.
 *
 * @module
 */
export { readTrajectory, toolCalls, TrajectoryError, SUPPORTED_SHAPES } from './read.js'
export { toolSchemas, checkToolArguments } from './tools.js'
export type { ArgumentCheck } from './tools.js'
export { argsCheck, isJsonSchemaArgs, matchCall, matchSequence, repeatedCalls } from './match.js'
export type { ArgsCheck, ArgumentDifference, AlignedRow, CallMatch, CallOrder, CallPattern, Equals, ExtraCalls, SequenceMatch } from './match.js'
export { transcript, formatCall, renderSteps } from './format.js'
export type { Trajectory, TrajectoryItem, TrajectorySource, UserItem, TextItem, ToolCallItem, ToolResultItem } from './types.js'
