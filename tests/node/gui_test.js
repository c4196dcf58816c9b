// `veletas gui` in a real browser: headless Chromium from the OS packages, driven by
// puppeteer-core. Starts `veletas gui --no-browser --port 0`, reads the URL from its first
// line, and plays a whole 7x7 classic game by clicks (a person as Black, seeded random
// choices among the targets the page shows) against our engine at a small playout budget.
// After every turn the page's board must hold exactly the pieces that `loadgame` +
// `position` give for the game's record (saved through the page's own "Save record" link);
// an illegal click sends nothing and changes nothing; undo takes back a turn pair; at the
// end the --record file holds the game. Then whole 10x10 games by clicks against our engine
// (classic, and modern with the swap offered and declined): the result the page shows must be
// the one recorded, and the record must replay (`loadgame` + `final_score`) to it. A game
// against the fake engine crashing at its second move must end with the reason shown, and the
// server must keep serving. The page follows each game by its stream of Server-Sent Events,
// and polls in a browser without EventSource.
// No console errors. Screenshots go to OUT_DIR/screenshots; the
// start-up figures are printed.
//
// Usage: node gui_test.js VELETAS_BINARY OUT_DIR
// The browser: $CHROMIUM, else /usr/bin/chromium.
'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const {spawn} = require('node:child_process')
const {launchBrowser, startServer, parsePieces} = require('./browser_support')

const [binArg, outArg] = process.argv.slice(2)
if (!binArg || !outArg) {
  console.error('usage: node gui_test.js VELETAS_BINARY OUT_DIR')
  process.exit(2)
}
const veletas = path.resolve(binArg)
const fake = path.join(path.dirname(veletas), 'veletas-fake-engine')
const out = path.resolve(outArg)
const shots = path.join(out, 'screenshots')
fs.rmSync(out, {recursive: true, force: true})
fs.mkdirSync(shots, {recursive: true})
const recordFile = path.join(out, 'games.txt')

// A small seeded generator (mulberry32), so that a failing game can be replayed.
let seed = 20261202
function random() {
  seed = (seed + 0x6d2b79f5) | 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const choose = (list) => list[Math.floor(random() * list.length)]

// Our engine over the protocol, for the expected positions.
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

// The longest a test waits for the page or the server to reach a state (a wait for a state, never
// a fixed sleep): far more than any takes on a loaded machine.
const STATE_WAIT = 60000

async function main() {
  const engineCommand = `veletas=${veletas} --playouts 200 --seed 7`
  const crashCommand = `crasher=${fake} --seed 3 --crash-at 2`
  const randomCommand = `random=${fake} --seed 5`
  // Our engine on the time per move the game gives it, long enough for its thinking to show.
  const thinkerCommand = `thinker=${veletas} --seed 9`
  // A fast engine for the match.
  const quickCommand = `quick=${veletas} --player random --seed 11`
  // An engine that cannot start (it exits at once): refused in the dialog.
  const brokenCommand = 'broken=false'
  const t0 = Date.now()
  const server = await startServer(veletas, ['--record', recordFile, '--engine', engineCommand, '--engine', crashCommand,
    '--engine', randomCommand, '--engine', thinkerCommand, '--engine', quickCommand, '--engine', brokenCommand])
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/, 'the first line is the URL')
  const {browser, close: closeBrowser} = await launchBrowser()
  const engine = new Engine()
  const problems = []
  let requests = 0
  const figures = {}
  try {
    // (`page` is the tab the helpers below act on: a second tab takes its place a while.)
    let page = await browser.newPage()
    page.setDefaultTimeout(60000)
    await page.setViewport({width: 1200, height: 820})
    page.on('console', (msg) => { if (msg.type() === 'error' || msg.type() === 'warn') problems.push(`console: ${msg.text()}`) })
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    // A stream of live updates is aborted by the page when it moves to another game.
    page.on('requestfailed', (r) => {
      if (!/\/events(\?|$)/.test(r.url())) problems.push(`request failed: ${r.url()}`)
    })
    page.on('request', (r) => {
      if (!r.url().startsWith(server.url) && !r.url().startsWith('data:')) problems.push(`foreign request: ${r.url()}`)
      if (r.url().includes('/api/games/') && r.method() === 'POST') requests += 1
    })
    // The engine processes the server runs: its children (a zombie is one too).
    const engineProcesses = () => fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).filter((entry) => {
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === server.child.pid
      } catch (e) {
        return false
      }
    }).length
    // Waits until the server runs at most `most` engine processes.
    const enginesEnd = async (most, label) => {
      let count = engineProcesses()
      for (const deadline = Date.now() + STATE_WAIT; Date.now() < deadline && count > most;) {
        await new Promise((r) => setTimeout(r, 50))
        count = engineProcesses()
      }
      assert.ok(count <= most, `${label}: the server still runs ${count} engine processes, not at most ${most}`)
    }
    const t1 = Date.now()
    await page.goto(server.url, {waitUntil: 'load'})
    await page.waitForSelector('dialog[open]')
    figures.dialog = Date.now() - t1
    await page.screenshot({path: path.join(shots, 'new-game.png')})

    // ---- a 7x7 classic game: the person plays Black against our engine ----
    await page.select('select[name=size]', '7')
    await page.click('input[name=rules][value=classic]')
    await page.select('select[name=black]', 'person')
    await page.select('select[name=white]', '0')
    const t2 = Date.now()
    await page.click('#start')
    await page.waitForSelector('#board svg .hit')
    figures.board = Date.now() - t2
    figures.total = Date.now() - t0
    // The page follows the game by its stream of Server-Sent Events, not by polling.
    await page.waitForFunction(() => document.body.dataset.updates === 'events', {timeout: STATE_WAIT})

    const view = () => page.evaluate(() => {
      const pieces = {}
      for (const g of document.querySelectorAll('#board svg g.piece')) pieces[g.dataset.square] = g.dataset.piece
      const targets = [...document.querySelectorAll('#board .hit.target')].map((h) => h.dataset.square)
      const all = [...document.querySelectorAll('#board .hit')].map((h) => h.dataset.square)
      return {
        pieces, targets, all,
        version: document.body.dataset.version,
        picks: document.body.dataset.picks,
        moves: [...document.querySelectorAll('#moves li .move')].map((span) => span.textContent),
        prompt: document.getElementById('prompt').textContent,
        status: document.getElementById('status').textContent,
        noMove: !document.getElementById('no-move').hidden,
        save: document.getElementById('save').href,
        over: /wins/.test(document.getElementById('status').textContent),
      }
    })
    // Waits until the person is to move (a prompt) or the game is over.
    const settled = async () => {
      await page.waitForFunction(() => {
        const status = document.getElementById('status').textContent
        return document.getElementById('prompt').textContent !== '' || /wins/.test(status)
      }, {timeout: 30000})
      return view()
    }
    // The board is drawn anew at every change (analysis reports too): find the square again
    // if it went away between looking it up and measuring it.
    const clickSquare = async (square) => {
      for (let i = 0; ; i++) {
        const hit = await page.$(`#board .hit[data-square="${square}"]`)
        const box = hit && await hit.boundingBox()
        if (box) return page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
        assert.ok(i < 20, `square ${square} is on the board`)
      }
    }
    // The page's board against `loadgame` + `position` of the record the page saves.
    let checked = 0
    // The best candidate hovered draws its line: the list may be drawn anew by a late report or
    // poll after the mouse entered its row, so the row under the mouse is entered again (as the
    // mouse would) until the line is drawn and listed.
    const hoveredLine = async (label) => {
      await page.waitForFunction(() => {
        const drawn = () => document.querySelectorAll('#board .pv-spot').length > 0 && document.getElementById('pv').textContent !== ''
        const row = document.querySelector('#analysis tbody tr')
        if (!drawn() && row) row.dispatchEvent(new MouseEvent('mouseenter'))
        return drawn()
      }, {timeout: STATE_WAIT, polling: 100}).catch(async (e) => {
        const dump = await page.evaluate(() => document.getElementById('analysis-area').innerHTML)
        assert.fail(`${label}: ${e.message}: ${dump}`)
      })
    }
    const checkBoard = async (where) => {
      const shown = await view()
      const text = await page.evaluate(async (href) => (await fetch(href)).text(), shown.save)
      const file = path.join(out, 'current.txt')
      fs.writeFileSync(file, text)
      const loaded = await engine.ask(`loadgame ${file}`)
      assert.ok(loaded.startsWith('='), `${where}: loadgame: ${loaded}`)
      const position = (await engine.ask('position')).replace(/^= /, '')
      assert.deepEqual(shown.pieces, parsePieces(position), `${where}: the page's board differs from ${position}`)
      checked += 1
      return shown
    }

    // The clicks of one person's turn: a target at each step (or "no move" now and then).
    const playTurn = async (screenshot) => {
      const movesBefore = (await view()).moves.length
      for (let step = 0; ; step++) {
        const now = await view()
        if (now.moves.length > movesBefore || now.over) break
        assert.ok(step < 12, 'a turn takes a few clicks')
        if (now.noMove && (now.targets.length === 0 || random() < 0.1)) {
          await page.click('#no-move')
        } else {
          assert.ok(now.targets.length > 0, `targets to click: ${now.prompt}`)
          await clickSquare(choose(now.targets))
        }
        if (step === 0 && screenshot) {
          await page.waitForFunction((p) => document.body.dataset.picks !== p, {}, now.picks)
          await page.screenshot({path: path.join(shots, screenshot)})
        }
        // The click is handled when the picks change or a turn is added to the list (the
        // turn complete). Not when the view's version moves on: a redraw of the same position
        // (the engine's thinking process ending, an analysis report) may come while the click's
        // step is still on its way, and the next click, chosen among the old targets, would
        // then land on the picks it had not seen (the shooter picked again: the turn cancelled).
        try {
          await page.waitForFunction((p, n) => document.body.dataset.picks !== p ||
            document.querySelectorAll('#moves li .move').length !== n, {}, now.picks, now.moves.length)
        } catch (e) {
          // What the page shows, to tell a click refused from one lost.
          const shown = await page.evaluate(() => JSON.stringify({data: {...document.body.dataset},
            prompt: document.getElementById('prompt').textContent, refused: document.getElementById('refused').textContent}))
          throw new Error(`${e.message}: the click of step ${step} changed nothing; the page shows ${shown}; problems: ${problems}`)
        }
      }
    }
    // A new game; `times` sets each side's fields (movetime_black, clock_white, ...).
    const newGame = async (size, rules, black, white, times = {}) => {
      const previous = await page.evaluate(() => document.body.dataset.game)
      await page.click('#new-game')
      await page.waitForSelector('dialog[open]')
      await page.select('select[name=size]', size)
      await page.click(`input[name=rules][value=${rules}]`)
      await page.select('select[name=black]', black)
      await page.select('select[name=white]', white)
      const fields = {movetime_black: '1', movetime_white: '1', clock_black: '', clock_white: '', byoyomi_black: '',
        byoyomi_white: '', games: '1', ...times}
      for (const [name, value] of Object.entries(fields)) {
        if (name === 'screenshot') continue
        await page.$eval(`input[name=${name}]`, (input, v) => { input.value = v }, value)
      }
      if (times.screenshot) await page.screenshot({path: path.join(shots, times.screenshot)})
      await page.click('#start')
      await page.waitForFunction((g) => document.body.dataset.game !== g, {}, previous)
    }
    // The record file's games, once it holds `count` of them.
    const recordedGames = async (count) => {
      let text = ''
      for (const deadline = Date.now() + STATE_WAIT; Date.now() < deadline && (text.match(/\[Result /g) || []).length < count;) {
        text = fs.existsSync(recordFile) ? fs.readFileSync(recordFile, 'utf8') : ''
        if ((text.match(/\[Result /g) || []).length < count) await new Promise((r) => setTimeout(r, 50))
      }
      return text
    }
    // The person's turns by clicks until the game is over, the board checked before each one.
    const playToEnd = async (label) => {
      let now = await settled()
      let turns = 0
      while (!now.over) {
        assert.ok(turns < 200, `${label}: the game ends`)
        await checkBoard(`${label}, before turn ${now.moves.length + 1}`)
        await playTurn(null)
        turns += 1
        now = await settled()
      }
      await checkBoard(`${label}, at the end`)
      return {state: now, turns}
    }
    // A finished game: the result the page shows is the one of game `number` of the --record
    // file, whose moves are the page's, and which replays (`loadgame` + `final_score`) to it.
    const checkResult = async (label, over, number) => {
      // A game ended by the rules says who wins; one ended otherwise adds how (resignation, ...).
      const shown = over.status.match(/^(Black|White) wins(?: \(([\w ]+)\))?/)
      assert.ok(shown, `${label}: the page shows the result: ${over.status}`)
      const result = shown[1] === 'Black' ? 'B+' : 'W+'
      const termination = shown[2] || 'normal'
      const record = (await recordedGames(number)).split(/(?=\[Event )/)[number - 1]
      assert.ok(record, `${label}: game ${number} of the record file`)
      assert.match(record, new RegExp(`\\[Result "${result.replace('+', '\\+')}"\\]`), `${label}: the recorded result`)
      assert.match(record, new RegExp(`\\[Termination "${termination}"\\]`), `${label}: the recorded termination`)
      const movetext = record.split('\n\n').slice(1).join(' ').replace(/\{[^}]*\}/g, ' ')
      const moves = movetext.split(/\s+/).filter((t) => t && !/^\d+\.$/.test(t) && !/^([BW]\+|\*)$/.test(t))
      assert.deepEqual(moves, over.moves, `${label}: the recorded moves are the page's`)
      const loaded = await engine.ask(`loadgame ${recordFile} ${over.moves.length} ${number}`)
      assert.ok(loaded.startsWith('='), `${label}: loadgame: ${loaded}`)
      assert.deepEqual(parsePieces((await engine.ask('position')).replace(/^= /, '')), over.pieces,
        `${label}: the record replays to the page's board`)
      assert.equal(await engine.ask('final_score'), `= ${result}`, `${label}: the record replays to the result shown`)
      return {result, termination, record}
    }

    let state = await settled()
    let turns = 0
    const delays = []
    let analysed = false
    let undone = false
    let illegalChecked = false
    while (!state.over) {
      assert.ok(turns < 200, 'the game ends')
      await checkBoard(`before turn ${state.moves.length + 1}`)
      // An illegal click: a square that is not a target sends nothing and changes nothing.
      if (!illegalChecked && state.moves.length >= 2) {
        const wrong = state.all.find((sq) => !state.targets.includes(sq) && !(sq in state.pieces))
        const before = requests
        await clickSquare(wrong)
        await page.waitForFunction(() => document.getElementById('refused').textContent !== '')
        const after = await view()
        assert.equal(requests, before, 'an illegal click sends no request')
        // (The view's version may move on meanwhile: the engine's thinking process ends after
        // its move, and the stream brings that at once.)
        assert.deepEqual(after.moves, state.moves, 'an illegal click changes nothing')
        assert.equal(after.picks, state.picks, 'an illegal click picks nothing')
        assert.deepEqual(after.pieces, state.pieces)
        illegalChecked = true
      }
      // Analysis on request, once: the candidates are listed and drawn; the toggle stops it.
      if (state.moves.length === 4 && !analysed) {
        analysed = true
        await page.click('#analyse')
        await page.waitForFunction(() => document.querySelectorAll('#analysis tbody tr').length > 0 &&
          document.querySelectorAll('#board .analysis-spot').length > 0, {timeout: STATE_WAIT})
        // The person's first click of the turn meanwhile: the redraws of the same position
        // that the reports bring keep it (the board shows its targets, not the turn's first).
        assert.ok(state.targets.length > 0, `targets to click: ${state.prompt}`)
        await clickSquare(choose(state.targets))
        await page.waitForFunction((p) => document.body.dataset.picks !== p, {}, state.picks)
        const picked = await view()
        // A later report than the first (its visits grew): the analysis runs on.
        const firstReport = await page.$eval('#analysis-state', (e) => e.textContent)
        await page.waitForFunction((t) => document.getElementById('analysis-state').textContent !== t,
          {timeout: STATE_WAIT}, firstReport)
        const redrawn = await view()
        assert.notEqual(redrawn.version, picked.version, 'a later report redraws the page')
        assert.equal(redrawn.picks, picked.picks, 'a redraw of the same position keeps the picks')
        assert.deepEqual(redrawn.targets, picked.targets, "a redraw of the same position shows the picks' targets")
        // The list is drawn anew at every report: hover once the analysis is stopped.
        await page.click('#analyse')
        await page.waitForFunction(() => !/…/.test(document.getElementById('analysis-state').textContent) &&
          document.querySelectorAll('#analysis tbody tr').length > 0, {timeout: STATE_WAIT})
        // (The row may be drawn anew under the mouse: hoveredLine enters the new one.)
        await page.hover('#analysis tbody tr').catch(() => {})
        await hoveredLine('hovering the best candidate')
        await page.screenshot({path: path.join(shots, 'analysis.png')})
        await page.mouse.move(1, 1)
        state = await view()
      }
      await playTurn(state.moves.length === 2 ? 'targets.png' : null)
      turns += 1
      state = await settled()
      // The engine's reply: how long after the server read it the board showed it.
      if (!state.over) delays.push(Number(await page.evaluate(() => document.body.dataset.delay)))
      // Undo once, mid-game: the person's turn and the engine's reply are taken back.
      if (!undone && state.moves.length >= 6 && !state.over) {
        const before = state.moves.length
        await page.click('#undo')
        await page.waitForFunction((n) => document.querySelectorAll('#moves li').length === n, {}, before - 2)
        state = await settled()
        await checkBoard('after undo')
        undone = true
      }
    }
    await checkBoard('at the end')
    await page.screenshot({path: path.join(shots, 'game-over.png')})
    assert.ok(undone, 'undo was tried')
    assert.ok(illegalChecked, 'an illegal click was tried')
    const final = await view()
    // The record file holds the finished game, and its last position is the page's board.
    const text = await recordedGames(1)
    assert.match(text, /\[Result "[BW]\+"\]/, 'the record file holds the finished game')
    assert.ok((await engine.ask(`loadgame ${recordFile}`)).startsWith('='))
    const position = (await engine.ask('position')).replace(/^= /, '')
    assert.deepEqual(final.pieces, parsePieces(position), 'the record file ends on the page\'s board')
    console.log(`7x7 classic: ${final.moves.length} turns, ${turns} by the person, board checked ${checked} times`)
    delays.sort((a, b) => a - b)
    figures.delay = `median ${delays[Math.floor(delays.length / 2)]} ms, max ${delays[delays.length - 1]} ms ` +
      `over ${delays.length} replies`

    // ---- modern 7x7: the person plays White, swaps, and so plays Black to the end ----
    await newGame('7', 'modern', '0', 'person')
    state = await settled()
    assert.equal(state.moves.length, 1, 'the engine placed its setup')
    await page.waitForSelector('#swap:not([hidden])')
    await page.screenshot({path: path.join(shots, 'modern-swap-offered.png')})
    await page.click('#swap')
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 3)
    state = await settled()
    assert.equal(state.moves[1], 'swap')
    assert.match(await page.$eval('#player-black .name', (e) => e.textContent), /person/, 'the person now plays Black')
    let modernTurns
    ({state, turns: modernTurns} = await playToEnd('modern'))
    await page.screenshot({path: path.join(shots, 'modern-over.png')})
    // The record names the players as they played after the swap, so the result is theirs.
    assert.match(await recordedGames(2),
      /\[Black "person"\]\n\[White "veletas"\]\n\[Size "7"\]\n\[Rules "modern"\]\n\[Swap "white swapped: veletas made/)
    console.log(`7x7 modern with the swap: ${state.moves.length} turns, ${modernTurns} by the person`)

    // ---- 10x10 classic against the fake engine: setup by clicks, a few turns, resign ----
    // Each side its own time: the person 10 minutes with byo-yomi, the engine 5 minutes + 5 s.
    await newGame('10', 'classic', 'person', '2', {clock_black: '600', byoyomi_black: '30/5', clock_white: '300+5',
      screenshot: 'new-game-times.png'})
    assert.match(await page.$eval('#player-white .clock', (e) => e.textContent), /^5:0\d$/, 'a 5 minute clock')
    assert.match(await page.$eval('#player-black .clock', (e) => e.textContent), /^10:[23]\d$/,
      'a 10 minute clock and a 30 s period')
    for (let i = 0; i < 4; i++) {
      state = await settled()
      await checkBoard(`10x10, before turn ${state.moves.length + 1}`)
      await playTurn(i === 2 ? 'ten-by-ten.png' : null)
    }
    state = await settled()
    await checkBoard('10x10, before resigning')
    page.once('dialog', (dialog) => dialog.accept())
    await page.click('#resign')
    await page.waitForFunction(() => /resignation/.test(document.getElementById('status').textContent))
    const games = await recordedGames(3)
    assert.match(games, /\[Termination "resignation"\]/, 'the resigned game is recorded')

    // ---- a whole 10x10 classic game by clicks: the person (Black) against our engine ----
    const started10 = Date.now()
    await newGame('10', 'classic', 'person', '0')
    let tenTurns
    ({state, turns: tenTurns} = await playToEnd('10x10 classic'))
    await page.screenshot({path: path.join(shots, 'ten-by-ten-over.png')})
    const tenResult = await checkResult('10x10 classic', state, 4)
    assert.match(tenResult.record, /\[Black "person"\]\n\[White "veletas"\]\n\[Size "10"\]\n/)
    assert.ok(!/\[Rules /.test(tenResult.record), 'classic rules are the default: no Rules tag')
    console.log(`10x10 classic, whole: ${state.moves.length} turns, ${tenTurns} by the person, ` +
      `${tenResult.result} (${tenResult.termination}), ${((Date.now() - started10) / 1000).toFixed(1)} s`)

    // ---- a whole 10x10 modern game: our engine (Black) sets up, the person (White) is offered the
    // swap and places its own setup instead, then plays to the end ----
    const startedModern10 = Date.now()
    await newGame('10', 'modern', '0', 'person')
    state = await settled()
    assert.equal(state.moves.length, 1, 'the engine placed its setup')
    await page.waitForSelector('#swap:not([hidden])')
    await checkBoard('10x10 modern, the swap offered')
    await page.screenshot({path: path.join(shots, 'ten-by-ten-modern-swap-offered.png')})
    await playTurn('ten-by-ten-modern-setup.png')
    state = await settled()
    assert.notEqual(state.moves[1], 'swap', 'the person placed a setup')
    assert.match(state.moves[1], /^([a-j]\d+,){3}[a-j]\d+\/[a-j]\d+$/, `White's modern setup: ${state.moves[1]}`)
    assert.ok(await page.$eval('#swap', (b) => b.hidden), 'no swap once White has placed')
    assert.match(await page.$eval('#player-white .name', (e) => e.textContent), /person/, 'the person still plays White')
    let modernTenTurns
    ({state, turns: modernTenTurns} = await playToEnd('10x10 modern'))
    await page.screenshot({path: path.join(shots, 'ten-by-ten-modern-over.png')})
    const modernTenResult = await checkResult('10x10 modern', state, 5)
    assert.match(modernTenResult.record, /\[Black "veletas"\]\n\[White "person"\]\n\[Size "10"\]\n\[Rules "modern"\]\n/)
    assert.ok(!/\[Swap /.test(modernTenResult.record), 'no swap recorded')
    console.log(`10x10 modern, swap declined, whole: ${state.moves.length} turns, ${modernTenTurns + 1} by the person, ` +
      `${modernTenResult.result} (${modernTenResult.termination}), ${((Date.now() - startedModern10) / 1000).toFixed(1)} s`)

    // ---- engine against engine: our engine and the fake one play a whole game, watched ----
    await newGame('7', 'classic', '0', '2')
    await page.waitForFunction(() => /wins/.test(document.getElementById('status').textContent), {timeout: 60000})
    state = await checkBoard('engine against engine, at the end')
    assert.ok(state.moves.length >= 4, 'both engines played')
    await page.screenshot({path: path.join(shots, 'engine-vs-engine.png')})
    console.log(`engine against engine: ${state.moves.length} turns`)

    // ---- our engine against itself at 1 s a move, both engines' thinking shown ----
    await newGame('7', 'classic', '3', '3', {movetime_black: '1', movetime_white: '1'})
    await page.waitForFunction(() => /thinking/.test(document.getElementById('analysis-state').textContent) &&
      document.querySelectorAll('#board .analysis-spot').length >= 3 && document.querySelectorAll('#moves li').length >= 3,
    {timeout: 60000, polling: 20})
    await page.screenshot({path: path.join(shots, 'thinking.png')})
    const thinkers = new Set()
    for (const deadline = Date.now() + 4 * STATE_WAIT; Date.now() < deadline && thinkers.size < 2 &&
      !/wins/.test(await page.$eval('#status', (e) => e.textContent));) {
      const who = await page.$eval('#analysis-state', (e) => e.textContent)
      const colour = await page.evaluate(() => document.querySelector('.player.to-move')?.id)
      if (/thinking/.test(who) && colour) thinkers.add(colour)
      await new Promise((r) => setTimeout(r, 40))
    }
    assert.deepEqual([...thinkers].sort(), ['player-black', 'player-white'], "both engines' thinking was shown")
    await page.waitForFunction(() => /wins/.test(document.getElementById('status').textContent), {timeout: 60000})
    state = await checkBoard('our engine against itself, at the end')
    // Analyse on the finished game's position says there is nothing to analyse.
    await page.click('#analyse')
    await page.waitForFunction(() => /game is over/.test(document.getElementById('analysis-state').textContent))
    await page.click('#analyse')
    const points = Number(await page.evaluate(() => document.body.dataset.graphPoints))
    assert.ok(points >= state.moves.length / 2, `the win-rate graph has ${points} points for ${state.moves.length} turns`)
    // A click on the graph shows that turn's position: the pieces of the record cut there.
    // The view may be drawn again (a live update after the game's end) between finding the graph
    // and measuring it: a detached element has no box, so look again until one has.
    let box = null
    for (const deadline = Date.now() + STATE_WAIT; Date.now() < deadline && !box;) {
      const graph = await page.$('#graph svg')
      box = graph && await graph.boundingBox()
      if (!box) await new Promise((r) => setTimeout(r, 40))
    }
    assert.ok(box, 'the win-rate graph is drawn')
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2)
    await page.waitForFunction(() => document.body.dataset.browse !== '')
    await page.waitForFunction(() => document.querySelectorAll('#board svg .hit').length > 0)
    const turn = Number(await page.evaluate(() => document.body.dataset.browse))
    assert.ok(turn > 0 && turn < state.moves.length, `the graph's middle is a turn of the game: ${turn}`)
    const cut = `[Size "7"]\n\n${state.moves.slice(0, turn).map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ` : '') + m).join(' ')} *\n`
    fs.writeFileSync(path.join(out, 'cut.txt'), cut)
    assert.ok((await engine.ask(`loadgame ${path.join(out, 'cut.txt')}`)).startsWith('='))
    const browsed = (await engine.ask('position')).replace(/^= /, '')
    assert.deepEqual((await view()).pieces, parsePieces(browsed), `the board after turn ${turn}`)
    // Analyse the browsed position, hover its best turn: the line drawn on the board.
    // The reports of the analysis asked for: running, with visits. (The position may hold an
    // earlier analysis, listed until the new one starts, which starts with no candidates: had
    // that start been taken for a later report, the analysis would be stopped with none.)
    await page.click('#analyse')
    const reported = (t) => /^\S+'s view… [1-9]\d* visits$/.test(document.getElementById('analysis-state').textContent) &&
      document.querySelectorAll('#analysis tbody tr').length > 0 && document.getElementById('analysis-state').textContent !== t
    await page.waitForFunction(reported, {timeout: STATE_WAIT}, '')
    const firstReport = await page.$eval('#analysis-state', (e) => e.textContent)
    await page.waitForFunction(reported, {timeout: STATE_WAIT}, firstReport)
    await page.click('#analyse')
    await page.waitForFunction(() => !/…/.test(document.getElementById('analysis-state').textContent), {timeout: STATE_WAIT})
      .catch(async (e) => {
        const dump = await page.evaluate(() => [document.getElementById('analysis-state').textContent,
          document.getElementById('analyse').getAttribute('aria-pressed'), document.body.dataset.browse])
        throw new Error(`${e.message}: ${JSON.stringify(dump)}`)
      })
    await page.hover('#analysis tbody tr').catch(() => {})
    await hoveredLine('hovering the best candidate of the browsed position')
    await page.screenshot({path: path.join(shots, 'graph-browse.png')})
    await page.mouse.move(1, 1)
    await page.keyboard.press('End')
    await page.waitForFunction(() => document.body.dataset.browse === '')
    console.log(`our engine against itself, thinking shown: ${state.moves.length} turns, ${points} graph points`)

    // ---- the saved record keeps the win rates; loaded again, they fill the graph ----
    const saved = await page.evaluate(async () => (await fetch(document.getElementById('save').href)).text())
    // (A turn's comment: its win rate and visits, its time, its best line, e.g. {62%/900 1.004s pv=d4;e5}.)
    const rated = saved.match(/\{\d+(\.\d+)?%\/\d+ \d+(\.\d+)?s( pv=[^}]*)?\}/g) || []
    assert.ok(rated.length >= points - 1, `the saved record has ${rated.length} win rates for ${points} graph points`)
    assert.ok(!/%\/0 /.test(saved), `a turn chosen without search (0 visits) has no win rate: ${saved}`)
    assert.ok((saved.match(/\{[^}]*\d+(\.\d+)?s( pv=[^}]*)?\}/g) || []).length === state.moves.length, `every turn has its time: ${saved}`)
    await page.click('#new-game')
    await page.waitForSelector('dialog[open]')
    await page.$eval('textarea[name=start]', (t, text) => { t.value = text }, saved)
    await page.select('select[name=black]', 'person')
    await page.select('select[name=white]', 'person')
    const beforeSaved = await page.evaluate(() => document.body.dataset.game)
    await page.click('#start')
    await page.waitForFunction((g) => document.body.dataset.game !== g, {}, beforeSaved)
    await page.waitForFunction((n) => Number(document.body.dataset.graphPoints) === n, {timeout: STATE_WAIT}, rated.length)
    await page.screenshot({path: path.join(shots, 'loaded-graph.png')})
    await page.$eval('textarea[name=start]', (t) => { t.value = '' })
    console.log(`saved and loaded again: ${rated.length} win rates in the record, as many graph points`)

    // ---- the move list's marks: the same game, its win rates saying turn 5 was a blunder ----
    // Black's chance is 50 % before turn 5 (Black's) and 10 % after it: only that turn lost a lot.
    const annotated = state.moves.map((m, i) => {
      const rate = i + 1 <= 5 ? 50 : i % 2 === 0 ? 10 : 90
      return `${i % 2 === 0 ? `${i / 2 + 1}. ` : ''}${m} {${rate}.00%/100}`
    }).join(' ')
    await page.click('#new-game')
    await page.waitForSelector('dialog[open]')
    await page.$eval('textarea[name=start]', (t, text) => { t.value = text }, `[Size "7"]\n\n${annotated} *\n`)
    await page.select('select[name=black]', 'person')
    await page.select('select[name=white]', 'person')
    const beforeMarks = await page.evaluate(() => document.body.dataset.game)
    await page.click('#start')
    await page.waitForFunction((g) => document.body.dataset.game !== g, {}, beforeMarks)
    const marks = await page.$$eval('#moves li', (items) => items.map((li) => li.className.replace('shown', '').trim() +
      (li.querySelector('.mark') ? ` ${li.querySelector('.mark').textContent}` : '')))
    assert.deepEqual(marks.map((m, i) => [i + 1, m]).filter(([, m]) => m !== ''), [[5, 'blunder ??']],
      `only turn 5 is marked, as a blunder: ${JSON.stringify(marks)}`)
    await page.screenshot({path: path.join(shots, 'move-marks.png')})
    await page.$eval('textarea[name=start]', (t) => { t.value = '' })

    // ---- the fake engine crashes at its second move: the game ends with the reason ----
    await newGame('7', 'classic', '1', 'person')
    for (let i = 0; i < 4; i++) {
      state = await settled()
      if (state.over) break
      await playTurn(null)
    }
    state = await settled()
    assert.ok(state.over, 'the crash ends the game')
    assert.match(state.status, /White wins \(crash\)/, state.status)
    assert.match(state.status, /black: ended during 'genmove black'/, state.status)
    await page.screenshot({path: path.join(shots, 'engine-crashed.png')})

    // ---- a match of three games between two fast engines, colours exchanged ----
    const recordedBefore = (fs.readFileSync(recordFile, 'utf8').match(/\[Result /g) || []).length
    await newGame('7', 'classic', '4', '2', {games: '3', movetime_black: '0.2', movetime_white: '0.2'})
    await page.waitForFunction(() => /^[123]\/3 /.test(document.body.dataset.series || ''))
    // The end of a game of the match stays on screen (its final position and result) before
    // the next game is shown.
    await page.waitForFunction(() => /^1\/3 /.test(document.body.dataset.series) &&
      /wins/.test(document.getElementById('status').textContent), {timeout: 60000})
    await page.screenshot({path: path.join(shots, 'match-game-over.png')})
    await page.waitForFunction(() => /^3\/3 /.test(document.body.dataset.series) &&
      /wins/.test(document.getElementById('status').textContent), {timeout: 60000})
    await page.screenshot({path: path.join(shots, 'match.png')})
    const series = await page.evaluate(() => document.body.dataset.series)
    const [won1, won2] = series.split(' ')[1].split('-').map(Number)
    assert.equal(won1 + won2, 3, `three games scored: ${series}`)
    assert.match(await page.$eval('#series-text', (e) => e.textContent), /^Match, over after 3 games: quick \d – \d random$/, 'a finished match says so')
    assert.ok(await page.$eval('#stop-match', (b) => b.hidden), 'no Stop match once the match is over')
    const matchRecords = (await recordedGames(recordedBefore + 3)).split(/(?=\[Event )/).slice(recordedBefore)
    assert.equal(matchRecords.length, 3, 'each game of the match is recorded')
    matchRecords.forEach((game, i) => {
      assert.match(game, new RegExp(`\\[Round "${i + 1}"\\]`))
      assert.match(game, i % 2 === 0 ? /\[Black "quick"\]\n\[White "random"\]/ : /\[Black "random"\]\n\[White "quick"\]/)
    })
    // Every game of the match stays to be looked at: its first, from the match's list.
    const matchGames = await page.$$eval('#series-games a', (links) => links.map((a) => a.getAttribute('href')))
    assert.equal(matchGames.length, 3, `the match's games are listed: ${matchGames}`)
    // (The list is drawn anew at every render: the link is looked up and clicked in one step.)
    await page.evaluate(() => document.querySelector('#series-games a').click())
    await page.waitForFunction((hash) => location.hash === hash && /^1\/3 /.test(document.body.dataset.series) &&
      /wins/.test(document.getElementById('status').textContent), {}, matchGames[0])
    await enginesEnd(0, 'after the match')
    console.log(`a match of three games: ${series}`)
    // Stop match: the game being played is closed (no result, not recorded), no other starts.
    await newGame('7', 'classic', '3', '0', {games: '2'})
    await page.waitForFunction(() => /thinking/.test(document.querySelector('.player.to-move .flag')?.textContent || ''),
      {timeout: STATE_WAIT})
    await page.click('#stop-match')
    await page.waitForFunction(() => / stopped$/.test(document.body.dataset.series) &&
      /Closed before its end/.test(document.getElementById('status').textContent))
    assert.match(await page.$eval('#series-text', (e) => e.textContent), /^Match, stopped after 0 of 2 games: thinker 0 – 0 veletas$/)
    // No engine outlives its game, a stopped one's neither (nor is left a zombie).
    await enginesEnd(0, 'after Stop match')
    // (A game is recorded when it ends, before its engines are: none was, once they are gone.)
    assert.equal((fs.readFileSync(recordFile, 'utf8').match(/\[Result /g) || []).length, recordedBefore + 3,
      'the stopped game is not recorded')

    // ---- every game has its address: a reload and a second tab go on with the game ----
    await newGame('7', 'classic', 'person', '0')
    await playTurn(null)
    state = await settled()
    const gameId = await page.evaluate(() => document.body.dataset.game)
    assert.equal(await page.evaluate(() => location.hash), `#/games/${gameId}`, "the game's address")
    await page.reload({waitUntil: 'load'})
    await page.waitForFunction((g) => document.body.dataset.game === g, {timeout: STATE_WAIT}, gameId)
    assert.deepEqual((await settled()).moves, state.moves, 'the reloaded page shows the game')
    assert.equal(await page.$('dialog[open]'), null, 'no dialog after a reload')
    await playTurn(null)
    state = await settled()
    await checkBoard('after a reload, a turn and the answer')
    const first = page
    const second = await browser.newPage()
    second.setDefaultTimeout(60000)
    await second.setViewport({width: 1366, height: 768})
    second.on('pageerror', (e) => problems.push(`page error (second tab): ${e.message}`))
    second.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console (second tab): ${msg.text()}`) })
    await second.goto(`${server.url}#/games/${gameId}`, {waitUntil: 'load'})
    await second.waitForFunction((n) => document.querySelectorAll('#moves li').length === n, {timeout: STATE_WAIT},
      state.moves.length)
    // A turn in the second tab: the first follows it.
    page = second
    await playTurn(null)
    state = await settled()
    await checkBoard('a turn in a second tab')
    await second.screenshot({path: path.join(shots, 'second-tab.png')})
    page = first
    await page.waitForFunction((n) => document.querySelectorAll('#moves li').length === n, {timeout: STATE_WAIT},
      state.moves.length)
    // The start page lists the open games; a click goes back to one.
    await second.goto(server.url, {waitUntil: 'load'})
    await second.waitForSelector(`#open-games a[href="#/games/${gameId}"]`)
    assert.equal(await second.$('dialog[open]'), null, 'with games open, the start page opens no dialog')
    await second.screenshot({path: path.join(shots, 'start-page.png')})
    await second.click(`#open-games a[href="#/games/${gameId}"]`)
    await second.waitForFunction((g) => document.body.dataset.game === g, {}, gameId)
    await second.close()
    console.log(`game ${gameId}: reloaded, and played on from a second tab; listed on the start page`)

    // ---- errors where the user looks: in the dialog, which stays open ----
    const problemsBefore = problems.length
    await page.click('#new-game')
    await page.waitForSelector('dialog[open]')
    await page.select('select[name=black]', 'person')
    await page.select('select[name=white]', '0')
    await page.$eval('input[name=clock_black]', (input) => { input.value = 'abc' })
    await page.click('#start')
    await page.waitForFunction(() => /black's time: clock/.test(document.getElementById('dialog-error').textContent))
    assert.ok(await page.$('dialog[open]'), 'a bad clock keeps the dialog open')
    await page.$eval('input[name=clock_black]', (input) => { input.value = '' })
    await page.select('select[name=white]', '5')
    await page.click('#start')
    await page.waitForFunction(() => /white's engine broken cannot play/.test(document.getElementById('dialog-error').textContent))
    await page.screenshot({path: path.join(shots, 'engine-refused.png')})
    assert.ok(await page.$('dialog[open]'), 'an engine that cannot start keeps the dialog open')
    assert.equal(await page.evaluate(() => document.body.dataset.game), gameId, 'no game started')
    await page.select('select[name=white]', '0')
    await page.click('#dialog-cancel')
    // The two refusals are answered 400, which the browser logs as loads that failed.
    const unexpected = problems.splice(problemsBefore).filter((p) => !/status of 400 \(Bad Request\)/.test(p))
    problems.push(...unexpected)

    // ---- a position set up piece by piece, then played from ----
    await page.click('#new-game')
    await page.waitForSelector('dialog[open]')
    await page.$eval('textarea[name=start]', (t) => { t.value = '' })
    await page.click('#from summary')
    await page.click('#open-editor')
    await page.waitForSelector('#editor:not([hidden])')
    await page.select('#editor-size', '7')
    await page.click('#editor-clear')
    // The editor starts from the position shown (the last game's): Black to move here.
    await page.click('input[name=editor-to-move][value=b]')
    // The header's buttons act on a game: off while a position is set up.
    assert.deepEqual(await page.evaluate(() => ['new-game', 'undo', 'resign', 'flip'].map((id) => document.getElementById(id).disabled)
      .concat(document.getElementById('save').classList.contains('disabled'))), [true, true, true, true, true])
    await page.click('.palette button[data-piece="s"]')
    const place = async (square) => {
      const before = await page.evaluate(() => document.querySelectorAll('#board g.piece').length)
      await clickSquare(square)
      await page.waitForFunction((n) => document.querySelectorAll('#board g.piece').length === n + 1, {}, before)
    }
    await place('c5')
    await place('e3')
    // Two shooters are no possible position: said, and it cannot be used.
    await page.waitForFunction(() => document.body.dataset.editor === '' &&
      document.getElementById('editor-use').disabled && /shooters/.test(document.getElementById('editor-verdict').textContent))
    await page.screenshot({path: path.join(shots, 'position-setup-refused.png')})
    await place('b2')
    const setUp = '7/7/2s4/7/4s2/1s5/7 b'
    await page.waitForFunction((p) => document.body.dataset.editor === p, {timeout: STATE_WAIT}, setUp).catch(async (e) => {
      throw new Error(`${e.message}: the editor has ${await page.evaluate(() => document.body.dataset.editor + ' / ' + document.getElementById('editor-string').value + ' / ' + document.getElementById('editor-verdict').textContent)}`)
    })
    await page.screenshot({path: path.join(shots, 'position-setup.png')})
    await page.click('#editor-use')
    await page.waitForSelector('dialog[open]')
    assert.equal(await page.$eval('textarea[name=start]', (t) => t.value), setUp)
    await page.$eval('input[name=games]', (i) => { i.value = '1' })
    await page.select('select[name=black]', 'person')
    await page.select('select[name=white]', '0')
    const beforeSetUp = await page.evaluate(() => document.body.dataset.game)
    await page.click('#start')
    await page.waitForFunction((g) => document.body.dataset.game !== g, {}, beforeSetUp)
    assert.equal(await page.evaluate(() => document.body.dataset.position), setUp, 'the game starts from the setup')
    state = await settled()
    assert.deepEqual(state.pieces, parsePieces(setUp))
    await playTurn(null)
    state = await settled()
    await checkBoard('from the setup, after a turn and the answer')

    // ---- a record file loaded, continued after its fourth turn ----
    await page.click('#new-game')
    await page.waitForSelector('dialog[open]')
    await (await page.$('#record-file')).uploadFile(recordFile)
    await page.waitForFunction(() => /\[Result /.test(document.querySelector('textarea[name=start]').value))
    await page.$eval('input[name=turn]', (t) => { t.value = '4' })
    await page.select('select[name=black]', 'person')
    await page.select('select[name=white]', 'person')
    const beforeLoad = await page.evaluate(() => document.body.dataset.game)
    await page.click('#start')
    await page.waitForFunction((g) => document.body.dataset.game !== g, {}, beforeLoad)
    state = await checkBoard('a loaded record after turn 4')
    assert.deepEqual(state.moves, final.moves.slice(0, 4), 'the first game of the file, cut after turn 4')
    await page.$eval('textarea[name=start]', (t) => { t.value = '' })
    await page.$eval('input[name=turn]', (t) => { t.value = '' })

    // ---- a browser without EventSource: the page polls, and the engine's turn still shows ----
    const polling = await browser.newPage()
    polling.setDefaultTimeout(60000)
    polling.on('pageerror', (e) => problems.push(`page error (polling): ${e.message}`))
    polling.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console (polling): ${msg.text()}`) })
    await polling.evaluateOnNewDocument(() => { delete window.EventSource })
    await polling.goto(server.url, {waitUntil: 'load'})
    await polling.waitForSelector('#open-games')
    await polling.click('#new-game')
    await polling.waitForSelector('dialog[open]')
    await polling.select('select[name=size]', '7')
    await polling.click('input[name=rules][value=classic]')
    await polling.select('select[name=black]', '2')
    await polling.select('select[name=white]', 'person')
    await polling.click('#start')
    await polling.waitForFunction(() => document.querySelectorAll('#moves li').length >= 1, {timeout: STATE_WAIT})
    assert.notEqual(await polling.evaluate(() => document.body.dataset.updates), 'events', 'without a stream, polled')
    await polling.close()

    const config = await page.evaluate(async () => (await fetch('/api/config')).status)
    assert.equal(config, 200, 'the server keeps serving')
    assert.deepEqual(problems, [], 'no console errors, failed or foreign requests')
    console.log(`start-up: URL printed after ${server.ms} ms; page and dialog ${figures.dialog} ms; ` +
      `Start to the first drawn board ${figures.board} ms; server start to board ${figures.total} ms ` +
      `(including the browser's start); engine's reply to the board drawn: ${figures.delay}`)
    console.log('gui test: 1 passed, 0 failed')
  } finally {
    engine.close()
    await closeBrowser()
    server.child.kill()
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
