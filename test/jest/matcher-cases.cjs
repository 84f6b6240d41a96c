// Every synchronous matcher, used through Jest's global `expect` after `setupFilesAfterEnv:
// ['expect-llm/jest']`. Shared by the CommonJS and ESM runs so both builds prove the same things.
const { stripVTControlCharacters } = require('node:util')

function failure(fn) {
  try {
    fn()
  } catch (error) {
    return stripVTControlCharacters(error.message)
  }
  throw new Error('expected the assertion to fail, but it passed')
}

module.exports = function defineMatcherCases({ describe, test, expect }) {
  describe('lexical matchers under Jest', () => {
    test('toHaveRougeLAbove passes, fails and negates', () => {
      expect('The cat sat on the mat.').toHaveRougeLAbove('The cat sat on the mat.', 1)
      expect('A dog barked.').not.toHaveRougeLAbove('The cat sat on the mat.', 0.5)
      expect(failure(() => expect('A dog barked.').toHaveRougeLAbove('The cat sat on the mat.', 0.5))).toContain('Expected ROUGE-L F-measure: >= 0.5')
    })

    test('toHaveRougeNAbove passes, fails and negates', () => {
      expect('the cat sat').toHaveRougeNAbove('the cat sat', 2, 1)
      expect('sat cat the').not.toHaveRougeNAbove('the cat sat', 2, 0.5)
      expect(failure(() => expect('sat cat the').toHaveRougeNAbove('the cat sat', 2, 0.5))).toContain('ROUGE-2')
    })

    test('toHaveTokenF1Above passes, fails and negates', () => {
      expect('The Eiffel Tower').toHaveTokenF1Above(['Eiffel Tower', 'la tour Eiffel'], 1)
      expect('Big Ben').not.toHaveTokenF1Above('Eiffel Tower', 0.5)
      expect(failure(() => expect('Big Ben').toHaveTokenF1Above('Eiffel Tower', 0.5))).toContain('0.5')
    })

    test('toHaveBleuAbove passes, fails and negates', () => {
      expect('The cat is on the mat.').toHaveBleuAbove('The cat is on the mat.', 0.99)
      expect('A dog.').not.toHaveBleuAbove('The cat is on the mat.', 0.5)
      expect(failure(() => expect('A dog.').toHaveBleuAbove('The cat is on the mat.', 0.5))).toContain('0.5')
    })

    test('toHaveChrFAbove passes, fails and negates', () => {
      expect('The cat is on the mat.').toHaveChrFAbove('The cat is on the mat.', 1)
      expect('A dog.').not.toHaveChrFAbove('The cat is on the mat.', 0.5)
      expect(failure(() => expect('A dog.').toHaveChrFAbove('The cat is on the mat.', 0.5))).toContain('chrF2')
    })

    test('toHaveTerBelow passes, fails and negates', () => {
      expect('The cat is on the mat.').toHaveTerBelow('the cat is on the mat.', 0)
      expect('A dog.').not.toHaveTerBelow('The cat is on the mat.', 0.5)
      expect(failure(() => expect('A dog.').toHaveTerBelow('The cat is on the mat.', 0.5))).toContain('reference words')
    })

    test('toHaveEditSimilarityAbove passes, fails and negates', () => {
      expect('AB-1234-X').toHaveEditSimilarityAbove('AB-1234-Y', 0.85)
      expect('ZZ').not.toHaveEditSimilarityAbove('AB-1234-Y', 0.5)
      expect(failure(() => expect('ZZ').toHaveEditSimilarityAbove('AB-1234-Y', 0.5))).toContain('0.5')
    })

    test('toMatchAnswer passes, fails and negates', () => {
      expect('The Eiffel Tower.').toMatchAnswer('eiffel tower')
      expect('Big Ben').not.toMatchAnswer(['Eiffel Tower', 'Tour Eiffel'])
      expect(failure(() => expect('Big Ben').toMatchAnswer('Eiffel Tower'))).toContain('eiffel tower')
    })

    test('toContainAnswer passes, fails and negates', () => {
      expect('It opened in 1889, in Paris.').toContainAnswer('1889')
      expect('It opened in 1889.').not.toContainAnswer('1890')
      expect(failure(() => expect('It opened in 1889.').toContainAnswer('1890'))).toContain('1890')
    })

    test('toContainKeywords passes, fails and negates', () => {
      expect('Refunds are possible within 30 days.').toContainKeywords(['refunds', '30 days'])
      expect('Refunds are possible.').not.toContainKeywords(['30 days'])
      expect(failure(() => expect('Refunds are possible.').toContainKeywords(['refunds', '30 days']))).toContain('30 days')
    })

    test('toMatchSchema passes with a JSON Schema, fails on a wrong type, and negates', () => {
      const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }
      expect('```json\n{"city": "Paris"}\n```').toMatchSchema(schema)
      expect('{"city": 42}').not.toMatchSchema(schema)
      expect(failure(() => expect('{"city": 42}').toMatchSchema(schema))).toContain('/city')
    })

    test('toBeConcise passes, fails and negates', () => {
      expect('Short answer.').toBeConcise({ maxWords: 5 })
      expect('one two three four five six').not.toBeConcise({ maxWords: 5 })
      expect(failure(() => expect('one two three four five six').toBeConcise({ maxWords: 5 }))).toContain('6')
    })

    test('toRetrieve passes, fails and negates', () => {
      expect(['refunds', 'shipping', 'passwords']).toRetrieve(['shipping'], { k: 2 })
      expect(['refunds', 'shipping', 'passwords']).not.toRetrieve(['passwords'], { k: 2 })
      expect(failure(() => expect(['refunds', 'shipping', 'passwords']).toRetrieve(['passwords'], { k: 2 }))).toContain('passwords')
    })

    test('a wrong input type is a clear error, not a crash', () => {
      expect(failure(() => expect(42).toHaveRougeLAbove('x', 0.5))).toContain(
        '[expect-llm] Failed to run toHaveRougeLAbove: the received value must be a string',
      )
    })
  })

  describe('agent matchers under Jest', () => {
    // An OpenAI chat loop's messages: look the order up, refund it, confirm.
    const call = (id, name, args) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } })
    const run = [
      { role: 'user', content: 'Please refund order A17.' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'lookupOrder', { orderId: 'A17' })] },
      { role: 'tool', tool_call_id: 'c1', content: '{"total":30}' },
      { role: 'assistant', content: null, tool_calls: [call('c2', 'refundOrder', { orderId: 'A17', amount: 30 })] },
      { role: 'tool', tool_call_id: 'c2', content: '{"refundId":"R-1"}' },
      { role: 'assistant', content: 'Refunded: R-1.' },
    ]
    const tools = [
      {
        type: 'function',
        function: { name: 'lookupOrder', parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] } },
      },
      { type: 'function', function: { name: 'refundOrder', parameters: { type: 'object', properties: { amount: { type: 'number', maximum: 20 } } } } },
    ]

    test("toCallTool matches arguments with Jest's asymmetric matchers, fails and negates", () => {
      expect(run).toCallTool('refundOrder', { orderId: expect.stringMatching(/^A\d+$/), amount: expect.any(Number) })
      expect(run).not.toCallTool('refundOrder', { amount: expect.any(String) })
      expect(failure(() => expect(run).toCallTool('refundOrder', { amount: 25 }))).toContain('/amount: expected 25, received 30')
    })

    test('toCallTools passes in order, fails on an extra call, and negates', () => {
      expect(run).toCallTools(['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }], { order: 'strict', extra: 'forbid' })
      expect(run).not.toCallTools(['refundOrder', 'lookupOrder'])
      expect(failure(() => expect(run).toCallTools(['refundOrder'], { extra: 'forbid' }))).toContain('call 1, lookupOrder, is not an expected call')
    })

    test('toHaveValidToolArguments passes, fails on a schema violation, and negates', () => {
      expect(run.slice(0, 3)).toHaveValidToolArguments(tools)
      expect(run).not.toHaveValidToolArguments(tools)
      expect(failure(() => expect(run).toHaveValidToolArguments(tools))).toContain('/amount: must be <= 20, got 30')
    })

    test('toUseAtMostSteps passes, fails and negates', () => {
      expect(run).toUseAtMostSteps(3, { repeatedCalls: 'forbid' })
      expect(run).not.toUseAtMostSteps(2)
      expect(failure(() => expect(run).toUseAtMostSteps(2))).toContain('Received: 3 steps, 2 tool calls')
    })

    test('a value that is not a trajectory is a clear error', () => {
      expect(failure(() => expect('Refunded.').toCallTool('refundOrder'))).toContain(
        '[expect-llm] Failed to run toCallTool: a string ("Refunded.") is not a trajectory shape expect-llm knows.',
      )
    })
  })
}
