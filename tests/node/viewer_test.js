// The HTML viewer (`veletas view`) in a real browser: headless Chromium from the OS packages,
// driven by puppeteer-core (which downloads no browser). Builds a viewer from real record
// files (the example game, a modern no-corners match with a swap, a classic 10x10 match),
// steps through games with keys, buttons and clicks, and checks at every step that the
// board in the page holds exactly the pieces of the position the engine reports for that
// turn (`loadgame FILE TURN GAME` then `position`, over the protocol), that the page draws
// the same SVG elements as `veletas render`, that it makes no network request and logs no
// error. Screenshots go to OUT_DIR/screenshots.
//
// Usage: node viewer_test.js VELETAS_BINARY OUT_DIR
//   e.g. node viewer_test.js ../../target/release/veletas ../../target/viewer-test
// The browser: $CHROMIUM, else /usr/bin/chromium.
'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const {execFileSync, spawn} = require('node:child_process')
const {launchBrowser} = require('./browser_support')

const [binArg, outArg] = process.argv.slice(2)
if (!binArg || !outArg) {
  console.error('usage: node viewer_test.js VELETAS_BINARY OUT_DIR')
  process.exit(2)
}
const veletas = path.resolve(binArg)
const fake = path.join(path.dirname(veletas), 'veletas-fake-engine')
const repo = path.resolve(__dirname, '..', '..')
const out = path.resolve(outArg)
const shots = path.join(out, 'screenshots')
fs.rmSync(out, {recursive: true, force: true})
fs.mkdirSync(shots, {recursive: true})

function run(args) {
  return execFileSync(veletas, args, {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']})
}

// ---- the record files ----
const example = path.join(repo, 'data', 'example-game.txt')
const modern = path.join(out, 'modern.txt')
run(['match', '--engine', `${fake} --seed 1 --swap --name swapper`, '--engine', `${fake} --seed 2 --name plain`,
  '--games', '2', '--size', '9', '--rules', 'modern', '--no-corners', '--movetime', '0.05', '--record', modern, '-q'])
const classic = path.join(out, 'classic10.txt')
run(['match', '--engine', `${veletas} --player random --seed 3`, '--engine', `${veletas} --player random --seed 4`,
  '--games', '2', '--size', '10', '--movetime', '0.05', '--record', classic, '-q'])
assert.match(fs.readFileSync(modern, 'utf8'), / swap /, 'the modern match holds a swap')
const start = path.join(repo, 'tests', 'data', 'svg', 'start-white-first.txt')
const files = [example, modern, classic, start]
const html = path.join(out, 'games.html')
run(['view', ...files, '-o', html])

// ---- the expected positions, from the engine's protocol ----
class Engine {
  constructor() {
    this.child = spawn(veletas, [], {stdio: ['pipe', 'pipe', 'ignore']})
    this.buffer = ''
    this.waiting = []
    this.child.stdout.setEncoding('utf8')
    this.child.stdout.on('data', (chunk) => {
      this.buffer += chunk
      let end
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        const reply = this.buffer.slice(0, end)
        this.buffer = this.buffer.slice(end + 2)
        const waiter = this.waiting.shift()
        if (waiter) waiter(reply)
      }
    })
  }
  ask(line) {
    return new Promise((resolve) => {
      this.waiting.push(resolve)
      this.child.stdin.write(line + '\n')
    })
  }
  close() {
    this.child.stdin.end('quit\n')
  }
}

// games: [{file, number, positions: [position string per turn]}] in the viewer's order.
async function expectedGames() {
  const engine = new Engine()
  const games = []
  for (const file of files) {
    for (let number = 1; ; number++) {
      if ((await engine.ask(`loadgame ${file} 0 ${number}`)).startsWith('?')) break
      const positions = []
      for (let turn = 0; ; turn++) {
        if ((await engine.ask(`loadgame ${file} ${turn} ${number}`)).startsWith('?')) break
        positions.push((await engine.ask('position')).replace(/^= /, ''))
      }
      games.push({file, number, positions})
    }
  }
  engine.close()
  return games
}

// A position string's pieces (square -> letter), side to move, size and claims.
function parsePosition(text) {
  const [board, side] = text.split(' ')
  const ranks = board.split('/')
  const size = ranks.length
  const pieces = {}
  ranks.forEach((rank, i) => {
    let file = 0
    for (const m of rank.matchAll(/(\d+)|([sbwBW])/g)) {
      if (m[1]) { file += Number(m[1]); continue }
      pieces[String.fromCharCode(97 + file) + (size - i)] = m[2]
      file += 1
    }
  })
  const claims = (c) => Object.values(pieces).filter((p) => p === c).length
  return {pieces, side, size, claims: {B: claims('B'), W: claims('W')}}
}
const TO_WIN = {7: 2, 9: 3, 10: 4}

async function main() {
  const games = await expectedGames()
  assert.equal(games.length, 6, 'six games: the example, two modern, two classic, one from a Start position')
  const {browser, close: closeBrowser} = await launchBrowser()
  const problems = []
  let checks = 0
  try {
    const page = await browser.newPage()
    await page.setViewport({width: 1400, height: 900})
    page.on('console', (msg) => { if (msg.type() === 'error' || msg.type() === 'warn') problems.push(`console: ${msg.text()}`) })
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`))
    page.on('request', (r) => { if (!/^(file|data):/.test(r.url())) problems.push(`network request: ${r.url()}`) })
    await page.goto('file://' + html, {waitUntil: 'load'})
    await page.waitForSelector('body[data-ready="true"]')

    // What the page shows now.
    const shown = () => page.evaluate(() => {
      const board = document.getElementById('board')
      const pieces = {}
      for (const g of board.querySelectorAll('svg g.piece')) {
        if (g.dataset.square in pieces) pieces[g.dataset.square] = 'twice'
        else pieces[g.dataset.square] = g.dataset.piece
      }
      const marks = (kind) => [...board.querySelectorAll(`svg g.mark.${kind}`)].map((m) => m.dataset.square)
      const current = document.querySelector('.mv.current')
      return {game: Number(board.dataset.game), turn: Number(board.dataset.turn), state: board.dataset.state, pieces,
        from: marks('from'), to: marks('to'), move: current ? current.textContent : null,
        status: document.getElementById('status').textContent, hash: location.hash}
    })
    // Checks that the page shows turn `turn` of game `index` (from 0) as the engine says.
    async function expect(index, turn, how) {
      const view = await shown()
      const game = games[index]
      const where = `${how}: game ${index + 1} (${path.basename(game.file)} #${game.number}) turn ${turn}`
      assert.equal(view.game, index + 1, `${where}: the page shows game ${view.game}`)
      assert.equal(view.turn, turn, `${where}: the page shows turn ${view.turn}`)
      const expected = parsePosition(game.positions[turn])
      assert.deepEqual(view.pieces, expected.pieces, `${where}: pieces differ from ${game.positions[turn]}`)
      if (view.state === 'B' || view.state === 'W') {
        assert.ok(expected.claims[view.state] >= TO_WIN[expected.size], `${where}: ${view.state} wins without a majority`)
      } else {
        assert.equal(view.state, expected.side, `${where}: side to move`)
      }
      assert.match(view.status, new RegExp(`Turn ${turn} of ${game.positions.length - 1}`), where)
      assert.match(view.status, new RegExp(`Black ${expected.claims.B}, .*White ${expected.claims.W} `), where)
      assert.equal(view.hash, `#game=${index + 1}&turn=${turn}`, where)
      // The last turn's marks follow the highlighted move.
      const move = turn > 0 ? view.move : null
      const m = /^([a-j]\d+)-([a-j]\d+)\/([a-j]\d+)$/.exec(move || '')
      if (m) {
        assert.deepEqual([view.from, view.to], [[m[1]], [m[2], m[3]]], `${where}: marks of ${move}`)
      } else {
        const squares = move && move !== 'swap' ? move.split(/[,/]/) : []
        assert.deepEqual([view.from, view.to.sort()], [[], squares.sort()], `${where}: marks of ${move}`)
      }
      checks += 1
      return view
    }
    const key = async (name) => { await page.keyboard.press(name) }
    const click = async (selector) => { await page.click(selector) }

    // Game 1 (the example game), from the start, with the right arrow to the end.
    await expect(0, 0, 'opened')
    const n0 = games[0].positions.length - 1
    for (let t = 1; t <= n0; t++) { await key('ArrowRight'); await expect(0, t, 'ArrowRight') }
    await key('ArrowRight'); await expect(0, n0, 'ArrowRight past the end')
    await page.screenshot({path: path.join(shots, 'example-end.png')})
    await key('ArrowLeft'); await expect(0, n0 - 1, 'ArrowLeft')
    await key('ArrowUp'); await expect(0, 0, 'ArrowUp')
    await key('ArrowLeft'); await expect(0, 0, 'ArrowLeft before the start')
    await key('End'); await expect(0, n0, 'End')
    await key('Home'); await expect(0, 0, 'Home')
    await key('ArrowDown'); await expect(0, n0, 'ArrowDown')
    for (const t of [5, 12, 1, 0]) { await click(`.mv[data-turn="${t}"]`); await expect(0, t, 'click on the move') }
    await click('#last'); await expect(0, n0, 'button last')
    await click('#prev'); await expect(0, n0 - 1, 'button previous')
    await click('#first'); await expect(0, 0, 'button first')
    await click('#next'); await expect(0, 1, 'button next')
    await click('.mv[data-turn="12"]'); await expect(0, 12, 'click')
    await page.screenshot({path: path.join(shots, 'example-turn-12.png')})

    // Every game: chosen in the list, stepped through with the next button (and keys).
    for (let index = 1; index < games.length; index++) {
      await click(`#list .grid-row[data-game="${index}"]`)
      await expect(index, 0, 'list click')
      const n = games[index].positions.length - 1
      for (let t = 1; t <= n; t++) {
        if (t % 2) await click('#next'); else await key('ArrowRight')
        await expect(index, t, t % 2 ? 'button next' : 'ArrowRight')
      }
      if (index === 2) {
        await click('.mv[data-turn="2"]'); await expect(index, 2, 'click after the swap')
        await page.screenshot({path: path.join(shots, 'modern-after-swap.png')})
        await click('.mv[data-turn="9"]'); await expect(index, 9, 'click')
        await page.screenshot({path: path.join(shots, 'modern-no-corners-turn-9.png')})
      }
    }
    // The last game starts from a Start position with White to move: numbered from "1...".
    const numbers = await page.$$eval('.move-row .n', (ns) => ns.map((n) => n.textContent).filter((t) => t))
    assert.deepEqual(numbers, ['1...', '2.', '3.'], 'move numbers of a game White starts')
    await click('.mv[data-turn="5"]')
    await expect(5, 5, 'click')
    await page.screenshot({path: path.join(shots, 'start-position-white-first.png')})
    await key('PageUp'); await expect(4, 0, 'PageUp: previous game')
    await key('End'); await expect(4, games[4].positions.length - 1, 'End')
    await page.screenshot({path: path.join(shots, 'classic-10x10-end.png')})
    await key('PageUp'); await expect(3, 0, 'PageUp: previous game')
    await key('PageDown'); await expect(4, 0, 'PageDown: next game')

    // The page draws the same elements as `veletas render` for the same turn.
    for (const [index, turns] of [[0, [0, 1, 2, 12, n0]], [2, [0, 1, 2, 3, 9, 20]], [4, [0, 1, 2, 30]]]) {
      for (const turn of turns) {
        const game = games[index]
        await click(`#list .grid-row[data-game="${index}"]`)
        await click(`.mv[data-turn="${turn}"]`)
        await expect(index, turn, 'click for the comparison with render')
        const svg = run(['render', '--record', game.file, '--game', String(game.number), '--turn', String(turn), '--no-status'])
        const diff = await page.evaluate((text) => {
          const canonical = (node) => [node.nodeName.toLowerCase(),
            [...node.attributes].map((a) => [a.name, a.value]).sort(), [...node.children].map(canonical)]
          const rust = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement
          const page = document.querySelector('#board svg')
          for (const selector of ['defs', '.board', '.grid', '.edge', '.coordinates', '.marks', '.pieces', '.lines']) {
            const a = JSON.stringify(canonical(rust.querySelector(selector)))
            const b = JSON.stringify(canonical(page.querySelector(selector)))
            if (a !== b) return `${selector}:\nrender: ${a}\npage:   ${b}`
          }
          const corners = (svg) => JSON.stringify([...svg.querySelectorAll('.missing-corner')].map(canonical))
          if (corners(rust) !== corners(page)) return 'missing corners differ'
          return null
        }, svg)
        assert.equal(diff, null, `game ${index + 1} turn ${turn}: the page and veletas render differ: ${diff}`)
      }
    }

    // The filter keeps the games of an engine; the list stays usable.
    await page.type('#filter', 'swapper')
    const rows = await page.$$eval('#list .grid-row', (r) => r.map((x) => Number(x.dataset.game)))
    assert.deepEqual(rows, [1, 2], 'the filter keeps the two games of swapper')
    await page.screenshot({path: path.join(shots, 'filtered.png')})
    await page.evaluate(() => { document.getElementById('filter').value = 'no such engine'; document.getElementById('filter').dispatchEvent(new Event('input')) })
    assert.equal(await page.$$eval('#list .grid-row', (r) => r.length), 0)

    // Opening at a linked turn.
    const linked = await browser.newPage()
    linked.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    await linked.goto('file://' + html + '#game=2&turn=7', {waitUntil: 'load'})
    await linked.waitForSelector('body[data-ready="true"]')
    const at = await linked.evaluate(() => [document.getElementById('board').dataset.game, document.getElementById('board').dataset.turn])
    assert.deepEqual(at, ['2', '7'], 'a link to a game and turn opens there')

    await page.bringToFront()
    // Per-turn annotations: the referee's times show on the moves; a record whose turns
    // carry win rates gets the win-rate graph, which a click navigates.
    await page.evaluate(() => { document.getElementById('filter').value = ''; document.getElementById('filter').dispatchEvent(new Event('input')) })
    await click(`#list .grid-row[data-game="3"]`)
    // Turns 1 and 2 are the opening's (no engine chose them): no annotation.
    assert.equal(await page.$eval('.mv[data-turn="1"]', (m) => m.title), '', 'an opening turn has no time')
    assert.match(await page.$eval('.mv[data-turn="3"]', (m) => m.title), /^\d+\.\d{3} s$/, 'a turn shows its time')
    assert.equal(await page.$eval('#graph', (g) => g.hidden), true, 'no graph without win rates')
    let k = 0
    const rated = fs.readFileSync(classic, 'utf8').split('\n\n[')[0].replace(/\{(\d+(?:\.\d+)?)s\}/g, (_, t) => {
      k += 1
      return `{${(k * 7) % 100}.5%/${k * 10} ${t}s}`
    }) + '\n\n'
    assert.ok(k > 20, 'the classic game has annotated turns')
    const ratedFile = path.join(out, 'rated.txt')
    fs.writeFileSync(ratedFile, rated)
    const ratedHtml = path.join(out, 'rated.html')
    run(['view', ratedFile, '-o', ratedHtml])
    const graphPage = await browser.newPage()
    graphPage.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    await graphPage.setViewport({width: 1400, height: 900})
    await graphPage.goto('file://' + ratedHtml, {waitUntil: 'load'})
    await graphPage.waitForSelector('body[data-ready="true"]')
    assert.equal(await graphPage.$eval('#graph', (g) => g.hidden), false, 'the graph is shown')
    assert.equal(await graphPage.$eval('#graph-line', (l) => Number(l.dataset.points)), k, 'one point per rated turn')
    // Turn 3 is Black's: 7.5% for Black; turn 4 White's 14.5%: 85.5% for Black (each the chance in
    // the position before the turn).
    assert.match(await graphPage.$eval('.mv[data-turn="3"]', (m) => m.title), /^Black 7\.50% before it \(10 visits\), /)
    assert.match(await graphPage.$eval('.mv[data-turn="4"]', (m) => m.title), /^Black 85\.50% before it \(20 visits\), /)
    // Each turn's win rate is drawn at the position it is of, the one before the turn (after
    // turn - 1 turns), as the GUI draws each position's: turn 3's at 2, the last's at turns - 1.
    const drawnAt = (await graphPage.$eval('#graph-line', (l) => l.dataset.turns)).split(' ').map(Number)
    assert.deepEqual(drawnAt, Array.from({length: k}, (_, i) => i + 2), 'the points sit at the positions before their turns')
    // The opening's two turns were valued by no search: no point, a tick each, and the caption says so.
    assert.equal(await graphPage.$eval('#graph-line', (l) => l.dataset.gaps), '0 1', 'the positions not searched')
    assert.equal(await graphPage.$$eval('#graph line.gap', (l) => l.length), 2, 'a tick for each')
    assert.match(await graphPage.$eval('#graph .caption', (c) => c.textContent), /the line joins them across the 2 positions no search valued/)
    assert.deepEqual(await graphPage.$$eval('#graph .graph-axis span', (s) => s.map((x) => x.textContent)),
      ['100%', '75%', '50%', '25%', '0%'], 'the graph has a percentage axis')
    // The marks (crate::marks, the GUI's thresholds): turn 9 lost Black 49.5 - (100 - 56.5) = 6
    // points of its chance (?!), turn 10 lost White 56.5 - (100 - 63.5) = 20 (??); turn 3 gained.
    assert.equal(await graphPage.$eval('.mv[data-turn="9"] .turn-mark', (m) => m.textContent), '?!')
    assert.equal(await graphPage.$eval('.mv[data-turn="10"] .turn-mark', (m) => m.textContent), '??')
    assert.match(await graphPage.$eval('.mv[data-turn="10"]', (m) => m.title), /, blunder: White lost 20\.0 points of its chance$/)
    assert.equal(await graphPage.$$eval('.mv[data-turn="3"] .turn-mark', (m) => m.length), 0, 'a turn that gained is not marked')
    const turns = k + 2
    const box = await graphPage.$eval('#graph-svg', (svg) => { const r = svg.getBoundingClientRect(); return [r.left, r.top, r.width, r.height] })
    await graphPage.mouse.click(box[0] + box[2] / 2, box[1] + box[3] / 2)
    const clicked = await graphPage.$eval('#board', (b) => Number(b.dataset.turn))
    assert.ok(Math.abs(clicked - turns / 2) <= 1, `a click in the graph's middle goes to the middle turn (${clicked} of ${turns})`)
    const mark = await graphPage.$eval('#graph-turn', (l) => Number(l.getAttribute('x1')))
    assert.ok(Math.abs(mark - (clicked / turns) * 300) < 0.01, 'the graph marks the turn shown')
    await graphPage.screenshot({path: path.join(shots, 'win-rate-graph.png')})
  } finally {
    await closeBrowser()
  }
  assert.deepEqual(problems, [], 'no console error, page error or network request')
  console.log(`viewer test: ok, ${checks} board checks over ${games.length} games; screenshots in ${shots}`)
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : e)
  process.exit(1)
})
