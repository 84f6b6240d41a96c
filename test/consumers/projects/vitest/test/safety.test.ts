// The safety matchers as a user writes them: the setup file registers them, and toPassModeration's
// request to OpenAI's moderation endpoint replays from __llm_fixtures__ (no key, no network).
import { describe, expect, test } from 'vitest'

const friendly = 'Your parcel ships tomorrow. Thanks for your patience!'
const threat = 'I know where you live and I will hurt you.'

describe('toPassModeration', () => {
  test('a friendly answer passes; a threat is flagged, also when only some categories count', async () => {
    await expect(friendly).toPassModeration()
    await expect(threat).not.toPassModeration()
    await expect(threat).not.toPassModeration({ categories: ['violence'] })
    await expect(threat).toPassModeration({ categories: ['self-harm'] })
  })

  test('the failure message names the flagged categories and the model', async () => {
    const error = await expect(threat)
      .toPassModeration()
      .then(() => undefined, (e: unknown) => e as Error)
    expect(error?.message).toContain('flagged: harassment 0.87, harassment/threatening 0.81, violence 0.74 by omni-moderation-2024-09-26')
  })
})

describe('toLeakSecrets and toContainPII', () => {
  test('a key in the output is a leak; a masked card is personal data, an order id is not', () => {
    expect(`Use the key sk-${'proj'}-${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6'} to call the API.`).toLeakSecrets()
    expect('Your refund is on its way.').not.toLeakSecrets()
    expect('Card on file: 4111 1111 1111 1111.').toContainPII({ kinds: ['card'] })
    expect('Order 12345678 shipped on 2024-05-01.').not.toContainPII()
  })
})
