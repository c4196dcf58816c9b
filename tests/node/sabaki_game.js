// Drives whole Veletas games through @sabaki/gtp, a third-party GTP controller, and checks
// the engine's replies: framing as a real client parses it, errors, undo, and the result.
//
// Usage: node sabaki_game.js ENGINE [ENGINE_ARGS...]
//   e.g. node sabaki_game.js ../../target/release/veletas --seed 1 --player random
'use strict'

const assert = require('node:assert/strict')
const {Controller} = require('@sabaki/gtp')

async function send(engine, line) {
  const [name, ...args] = line.split(' ')
  const response = await engine.sendCommand({name, args})
  return response
}

async function ok(engine, line) {
  const response = await send(engine, line)
  assert.equal(response.error, false, `${line} failed: ${response.content}`)
  return response.content
}

async function fails(engine, line, prefix) {
  const response = await send(engine, line)
  assert.equal(response.error, true, `${line} should fail`)
  assert.ok(response.content.startsWith(prefix), `${line}: '${response.content}' should start with '${prefix}'`)
}

async function playGame(engine, size) {
  await ok(engine, `boardsize ${size}`)
  await ok(engine, 'clear_board')
  await fails(engine, 'final_score', 'cannot score')
  let colour = 'b'
  let turns = 0
  for (;;) {
    const score = await send(engine, 'final_score')
    if (!score.error) {
      assert.match(score.content, /^[BW]\+$/)
      return {turns, score: score.content}
    }
    const before = await ok(engine, 'position')
    const move = await ok(engine, `genmove ${colour}`)
    assert.match(move, /^[a-j](10|[1-9])([,/-]|$)/, `unexpected move '${move}'`)
    // Take it back and play it again by hand: the client sees the same position.
    await ok(engine, 'undo')
    assert.equal(await ok(engine, 'position'), before)
    assert.equal(await ok(engine, `is_legal ${colour} ${move}`), 'true')
    await fails(engine, `play ${colour === 'b' ? 'w' : 'b'} ${move}`, 'illegal move')
    await ok(engine, `play ${colour} ${move}`)
    colour = colour === 'b' ? 'w' : 'b'
    turns += 1
    assert.ok(turns < 200, 'the game must end')
  }
}

async function main() {
  const [command, ...args] = process.argv.slice(2)
  assert.ok(command, 'usage: node sabaki_game.js ENGINE [ENGINE_ARGS...]')
  const engine = new Controller(command, args)
  engine.start()
  try {
    assert.equal(await ok(engine, 'protocol_version'), '2')
    assert.equal(await ok(engine, 'name'), 'veletas')
    const commands = (await ok(engine, 'list_commands')).split('\n')
    for (const c of ['boardsize', 'clear_board', 'play', 'genmove', 'undo', 'showboard', 'final_score', 'legal_moves']) {
      assert.ok(commands.includes(c), `list_commands lacks ${c}`)
    }
    await fails(engine, 'boardsize 8', 'unacceptable size')
    await fails(engine, 'frobnicate', 'unknown command')
    const board = await ok(engine, 'showboard')
    assert.ok(board.split('\n').length > 7, 'showboard draws a diagram')
    for (const size of [7, 9]) {
      const {turns, score} = await playGame(engine, size)
      console.log(`${size}x${size}: ${score} after ${turns} turns`)
    }
    await fails(engine, 'undo 1', 'syntax error')
  } finally {
    await engine.stop()
  }
  console.log('sabaki client: 1 passed, 0 failed')
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
