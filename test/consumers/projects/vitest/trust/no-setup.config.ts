// The setup file forgotten: what the README's Troubleshooting says the user sees.
import { defineConfig } from 'vitest/config'

export default defineConfig({ test: { include: ['trust/no-setup.trust.ts'] } })
