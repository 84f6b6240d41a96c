/**
 * Negative numbers as option values for the command lines (`expect-llm mutate`, `fixtures`, `report`).
 *
 * Node's `util.parseArgs` refuses `--seed -3` as ambiguous: in strict mode a value that starts with a dash
 * might be a forgotten value followed by another option, and only `--seed=-3` is taken. No option of ours
 * is a dash followed by a digit, so a negative number after an option that takes a value is that value
 * (`-3`, `-0.5`, `-.5`, and `-30d` for an age, which the command then refuses with its own message).
 * `parseArgs` has no setting for this; this step rewrites such pairs to the `--name=value` form before
 * parsing, and leaves everything else (an option after an option, anything after `--`) to `parseArgs`.
 *
 * @module
 */

/** A negative number as a command line writes it, with any unit after it: `-3`, `-0.5`, `-.5`, `-30d`. */
const NEGATIVE_NUMBER = /^-\.?\d/

/** What {@link joinNegativeValues} reads of a `parseArgs` options object: which long options take a value. */
export type ValueOptions = Readonly<Record<string, { readonly type: 'string' | 'boolean' }>>

/**
 * The arguments with every `--name <negative number>` pair, where `name` takes a value, joined into
 * `--name=<negative number>`; the rest unchanged.
 *
 * @example
 * ```ts
 * joinNegativeValues(['t.test.ts', '--seed', '-3'], { seed: { type: 'string' } }) // ['t.test.ts', '--seed=-3']
 * ```
 */
export function joinNegativeValues(args: readonly string[], options: ValueOptions): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--') return [...out, ...args.slice(i)]
    const next = args[i + 1]
    const takesValue = arg.startsWith('--') && Object.hasOwn(options, arg.slice(2)) && options[arg.slice(2)]?.type === 'string'
    if (takesValue && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`${arg}=${next}`)
      i++
    } else out.push(arg)
  }
  return out
}
