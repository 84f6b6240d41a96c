// Runs the child files in name order (Jest's default order depends on file sizes and earlier timings).
const Sequencer = require('@jest/test-sequencer').default

module.exports = class ByName extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => a.path.localeCompare(b.path))
  }
}
