// A test file that fails to load: Jest never runs its hooks, so the afterAll that stops its replay session
// never runs either.
import { test } from '@jest/globals'
import './this-module-does-not-exist.mjs'

test('never runs', () => {})
