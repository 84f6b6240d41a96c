/**
 * The `expect-llm` bin (`dist/cli.js`): runs {@link runCli} with the command line and sets the exit code.
 * @packageDocumentation
 */
import { formatMessage } from '../errors.js'
import { runCli } from '../replay/cli.js'

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(formatMessage(`Failed to run the command: ${(error as Error).message}`))
    process.exitCode = 1
  },
)
