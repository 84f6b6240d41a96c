// The child run's fixtures and usage records live in the parent's temporary root.
import { configure } from 'expect-llm'

configure({ replay: { rootDir: process.env.CHILD_ROOT, dir: process.env.CHILD_ROOT } })
