/** The `tokenF1` check: SQuAD token F1 against the best reference. @module */
import { tokenF1 as squadTokenF1 } from '../metrics/squad.js'
import { hasReference, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const tokenF1: CheckDefinition = {
  name: 'tokenF1',
  defaultThreshold: null,
  optionKeys: ['threshold'],
  appliesTo: hasReference,
  run: ({ output, references }, { threshold }) => result(squadTokenF1(output, references), threshold),
}
