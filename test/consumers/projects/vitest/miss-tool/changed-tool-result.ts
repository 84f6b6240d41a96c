// Run on purpose by the consumer check (vitest.miss-tool.config.ts), never by `vitest run`: an agent loop
// whose refund tool returns another refund id than when the loop was recorded (`npm run
// test:consumers:record` records R-100; replay gets R-999). The next model request then differs from its
// recording in the tool message, and the run must fail with a miss whose hint names that tool.
import { expect, test } from 'vitest'
import { refundLoop, replayTheGateway } from '../test/order-loop.js'

replayTheGateway()
const recording = process.env.EXPECT_LLM_REPLAY === 'record'

test('an agent loop whose tool result changed since it was recorded', async () => {
  const messages = await refundLoop(recording ? 'R-100' : 'R-999')
  expect(messages).toCallTool('refundOrder')
})
