// `veletas gui` as an analysis board, in a real browser (headless Chromium from the OS
// packages, driven by puppeteer-core), against a scripted engine whose analysis is known:
// the evaluation bar and the "wins" column say whose chance they show; a disc never hides a
// shooter; an analysis line clicked is played out on the board as a variation; variations
// tried by clicks from the game's position and from a browsed one are kept as a tree (shown
// again, stepped with the arrow keys, deleted, kept over a reload), and never change the
// game; Undo while the engine thinks stops its search; a game won on the board says which
// claim decided it; a person who lost on time sees no time left on the clock; on a laptop's window (1366 × 768, and 1280 × 720) the board, its bar and the graph fit
// without scrolling, a variation's "browsing" bar shown too; a whole game reviewed fills the
// move list's win rates, best lines and the graph, and Stop ends the review and its engine; the
// page is usable on a phone's screen (390 × 844). No console errors.
// Screenshots go to OUT_DIR/screenshots.
//
// Usage: node gui_analysis_test.js VELETAS_BINARY OUT_DIR
// The browser: $CHROMIUM, else /usr/bin/chromium.
'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const {launchBrowser, startServer, parsePieces} = require('./browser_support')

const [binArg, outArg] = process.argv.slice(2)
if (!binArg || !outArg) {
  console.error('usage: node gui_analysis_test.js VELETAS_BINARY OUT_DIR')
  process.exit(2)
}
const veletas = path.resolve(binArg)
const out = path.resolve(outArg)
const shots = path.join(out, 'screenshots')
fs.rmSync(out, {recursive: true, force: true})
fs.mkdirSync(shots, {recursive: true})

// The line the scripted engine gives in every position: Black's shooter d4 to d7 shooting
// back at d4 (the square it leaves, where a disc would cover the shooter), then two more turns.
const LINE = ['d4-d7/d4', 'f6-f1/f6', 'b2-b7/b2']
const ANALYSER = 'analyser=sh -c \'while read id cmd rest; do case "$cmd" in ' +
  `analyze) printf "=%s \\ninfo move ${LINE[0]} visits 12 winrate 7000 order 0 pv ${LINE.join(' ')}\\n" "$id"; ` +
  'read stop; printf "\\n";; *) printf "=%s\\n\\n" "$id";; esac; done\''

async function main() {
  const server = await startServer(veletas, ['--engine', ANALYSER, '--engine', `thinker=${veletas} --seed 9`,
    '--engine', `quick=${veletas} --player random --seed 11`])
  const {browser, close: closeBrowser} = await launchBrowser()
  const problems = []
  const watch = (page, label) => {
    page.on('console', (msg) => { if (msg.type() === 'error' || msg.type() === 'warn') problems.push(`${label} console: ${msg.text()}`) })
    page.on('pageerror', (e) => problems.push(`${label} page error: ${e.message}`))
    page.on('requestfailed', (r) => { if (!/\/events(\?|$)/.test(r.url())) problems.push(`${label} request failed: ${r.url()}`) })
  }
  try {
    let page = await browser.newPage()
    page.setDefaultTimeout(60000)
    await page.setViewport({width: 1366, height: 768})
    watch(page, 'desktop')
    const data = (key) => page.evaluate((k) => document.body.dataset[k], key)
    // Waits until `fn` holds in the page; if it never does, says what the page shows.
    const until = async (fn, ...args) => {
      try {
        await page.waitForFunction(fn, {timeout: 60000}, ...args)
      } catch (e) {
        const shown = await page.evaluate(() => JSON.stringify({data: {...document.body.dataset},
          prompt: document.getElementById('prompt').textContent, refused: document.getElementById('refused').textContent,
          analysis: document.getElementById('analysis-state').textContent, status: document.getElementById('status').textContent}))
        throw new Error(`${e.message}: waiting for ${fn}; the page shows ${shown}`)
      }
    }
    const pieces = () => page.evaluate(() => {
      const found = {}
      for (const g of document.querySelectorAll('#board svg g.piece')) found[g.dataset.square] = g.dataset.piece
      return found
    })
    const targets = () => page.evaluate(() => [...document.querySelectorAll('#board .hit.target')].map((h) => h.dataset.square))
    const clickSquare = async (square) => {
      for (let i = 0; ; i++) {
        const hit = await page.$(`#board .hit[data-square="${square}"]`)
        const box = hit && await hit.boundingBox()
        if (box) return page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
        assert.ok(i < 20, `square ${square} is on the board`)
      }
    }
    // One turn by clicks, `choose` picking among the targets at each step.
    const clickTurn = async (choose) => {
      const line = await data('line')
      const moves = await page.$$eval('#moves li:not(.variations)', (list) => list.length)
      for (let step = 0; step < 6; step++) {
        const now = await targets()
        assert.ok(now.length > 0, 'targets to click')
        const picks = await data('picks')
        const before = await page.evaluate(() => JSON.stringify(state.browse && state.browse.picks))
        await clickSquare(choose(now))
        await until((l, m, p, b) => document.body.dataset.line !== l ||
          document.querySelectorAll('#moves li:not(.variations)').length !== m || document.body.dataset.picks !== p ||
          JSON.stringify(state.browse && state.browse.picks) !== b, line, moves, picks, before)
        if (await data('line') !== line || await page.$$eval('#moves li:not(.variations)', (l) => l.length) !== moves) return
      }
      assert.fail('a turn takes a few clicks')
    }
    const api = (p) => page.evaluate(async (u) => (await fetch(u)).json(), p)
    // The board, its evaluation bar and the win-rate graph lie inside the window (1366 x 768, a
    // laptop's) as laid out, without scrolling: none is cut at the bottom or the side.
    const fitsInWindow = async (when) => {
      const boxes = await page.evaluate(() => ['board', 'eval-bar', 'graph-area'].map((id) => {
        const box = document.getElementById(id).getBoundingClientRect()
        return {id, hidden: box.height === 0, left: box.left + scrollX, top: box.top + scrollY,
          right: box.right + scrollX, bottom: box.bottom + scrollY, width: innerWidth, height: innerHeight}
      }))
      for (const b of boxes) {
        assert.ok(!b.hidden, `${when}: #${b.id} is shown`)
        assert.ok(b.left >= 0 && b.top >= 0 && b.right <= b.width && b.bottom <= b.height,
          `${when}: #${b.id} (${Math.round(b.left)},${Math.round(b.top)})-(${Math.round(b.right)},${Math.round(b.bottom)}) ` +
          `lies inside the ${b.width} x ${b.height} window`)
      }
    }

    // ---- a game between two persons, analysed by the scripted engine ----
    await page.goto(server.url, {waitUntil: 'load'})
    await page.waitForSelector('dialog[open]')
    await page.select('select[name=size]', '7')
    await page.select('select[name=black]', 'person')
    await page.select('select[name=white]', 'person')
    await page.click('#start')
    await page.waitForSelector('#board svg .hit')
    await clickSquare('d4')
    await until(() => document.querySelectorAll('#moves li').length === 1)
    await clickSquare('b2')
    await until(() => document.body.dataset.picks === 'b2')
    await clickSquare('f6')
    await until(() => document.querySelectorAll('#moves li').length === 2)
    const id = await data('game')
    const game = await api(`/api/games/${id}`)
    assert.deepEqual(game.moves, ['d4', 'b2,f6'])
    assert.equal(await data('eval'), '', 'no evaluation before an analysis')
    assert.ok(await page.$eval('#eval-bar', (bar) => !bar.hidden && /no analysis/.test(bar.title)), 'the bar says it has none')
    await fitsInWindow('a game shown')

    // The evaluation bar and the "wins" column: Black to move, 70% for Black.
    await page.select('#analysis-engine', '0')
    await page.click('#analyse')
    await until(() => document.body.dataset.eval === '0.700' && document.querySelectorAll('#board .analysis-spot').length > 0)
    assert.equal(await page.$eval('#analysis thead th.win', (th) => th.textContent), 'Black wins')
    assert.match(await page.$eval('#eval-bar', (bar) => bar.title), /^Black's chance of winning here: 70\.0% \(White's 30\.0%\), by analyser/)
    assert.equal(await page.$eval('#eval-text', (e) => e.textContent), '70%')
    // The disc of the shot at d4, where the shooter stands now, leaves the shooter visible:
    // it sits in the square's corner, away from the piece's centre.
    const covers = () => page.evaluate(() => {
      const list = []
      for (const disc of document.querySelectorAll('#board .analysis-spot, #board .pv-spot')) {
        const piece = document.querySelector(`#board .pieces [data-square="${disc.dataset.square}"]`)
        if (!piece) continue
        const p = piece.getBoundingClientRect()
        const d = disc.getBoundingClientRect()
        const [px, py] = [p.x + p.width / 2, p.y + p.height / 2]
        const inside = px > d.left && px < d.right && py > d.top && py < d.bottom
        list.push({square: disc.dataset.square, inside, corner: disc.classList.contains('corner')})
      }
      return list
    })
    let over = await covers()
    assert.ok(over.some((c) => c.square === 'd4'), `the disc on d4 is over the shooter: ${JSON.stringify(over)}`)
    assert.ok(over.every((c) => !c.inside && c.corner), `no disc covers a piece's centre: ${JSON.stringify(over)}`)
    await page.hover('#analysis tbody tr')
    await until(() => document.querySelectorAll('#board .pv-spot').length === 3)
    over = await covers()
    assert.ok(over.length > 0 && over.every((c) => !c.inside && c.corner), `the line's discs neither: ${JSON.stringify(over)}`)
    await page.screenshot({path: path.join(shots, 'analysis-board.png')})

    // ---- the analysis line clicked: played out on the board as a variation ----
    await page.click('#analysis tbody tr')
    await until((l) => document.body.dataset.line === l, LINE.join(' '))
    assert.equal(await data('browse'), '2', 'the variation leaves from the game\'s position after turn 2')
    await fitsInWindow('a variation shown, the "browsing" bar above the board')
    // A smaller laptop's window (1280 x 720): the same, the board smaller.
    await page.setViewport({width: 1280, height: 720})
    await until(() => innerWidth === 1280 && innerHeight === 720)
    await fitsInWindow('1280 x 720, a variation shown')
    await page.setViewport({width: 1366, height: 768})
    await until(() => innerWidth === 1366 && innerHeight === 768)
    const end = await pieces()
    assert.equal(end.d7, 's'); assert.equal(end.d4, 'b'); assert.equal(end.f1, 's'); assert.equal(end.f6, 'w')
    assert.equal(end.b7, 's'); assert.equal(end.b2, 'b')
    assert.equal(await page.$$eval('#moves li.variations .vmove', (l) => l.length), 3, 'the line in the move list')
    assert.deepEqual((await api(`/api/games/${id}`)).moves, game.moves, 'the game is not changed')
    // Analysed there too (Analyse is on): White to move, so the engine's 70% is White's.
    await until(() => document.body.dataset.eval === '0.300')
    assert.equal(await page.$eval('#analysis thead th.win', (th) => th.textContent), 'White wins')
    await page.click('#analyse')

    // ---- a variation of its own, a branch kept as a tree ----
    await page.keyboard.press('ArrowLeft')
    await until((l) => document.body.dataset.line === l, LINE.slice(0, 2).join(' '))
    assert.match(await page.$eval('#prompt', (p) => p.textContent), /^A variation from turn 2, 2 turns \(the game is not changed\)\. Click the shooter to move/)
    await clickTurn((list) => list[list.length - 1])
    const branch = (await data('line')).split(' ')
    assert.equal(branch.length, 3)
    assert.deepEqual(branch.slice(0, 2), LINE.slice(0, 2))
    assert.notEqual(branch[2], LINE[2], 'another third turn')
    assert.equal(await page.$$eval('#moves li.variations .vmove', (l) => l.length), 4)
    assert.equal(await page.$$eval('#moves li.variations .variation .variation', (l) => l.length), 1, 'a branch')
    const branchAfter = await page.$eval('#moves li.variations .variation .variation', (d) => d.previousElementSibling.dataset.line)
    assert.equal(branchAfter, LINE.join(' '), 'a branch comes after the turn it was tried instead of')
    await page.screenshot({path: path.join(shots, 'variations.png')})
    // Shown again from the move list, then deleted: the position before it is shown.
    await page.click(`#moves .vmove[data-line="${LINE.join(' ')}"]`)
    await until((l) => document.body.dataset.line === l, LINE.join(' '))
    await page.click(`#moves .vmove[data-line="${branch.join(' ')}"]`)
    await until((l) => document.body.dataset.line === l, branch.join(' '))
    await page.click('#delete-variation')
    await until((l) => document.body.dataset.line === l, LINE.slice(0, 2).join(' '))
    assert.equal(await page.$$eval('#moves li.variations .vmove', (l) => l.length), 3, 'the branch is gone, the line stays')
    // Back to the game, which is as it was.
    await page.keyboard.press('End')
    await until(() => document.body.dataset.browse === '' && document.body.dataset.line === '')
    assert.deepEqual(await pieces(), parsePieces(game.position), "the game's own position")
    // A reload keeps the variations; one is shown again and stepped along with the arrow keys.
    await page.reload({waitUntil: 'load'})
    await until((g) => document.body.dataset.game === g, id)
    await page.waitForSelector('#moves .vmove')
    await page.click(`#moves .vmove[data-line="${LINE[0]}"]`)
    await until((l) => document.body.dataset.line === l, LINE[0])
    await page.keyboard.press('ArrowRight')
    await until((l) => document.body.dataset.line === l, LINE.slice(0, 2).join(' '))
    // A variation from a browsed position: White's setup tried otherwise after turn 1.
    await page.click('#moves li:not(.variations)')
    await until(() => document.body.dataset.browse === '1' && document.body.dataset.line === '')
    assert.match(await page.$eval('#prompt', (p) => p.textContent), /^Browsing turn 1 of 2: .* Click a square for shooter 1 of 2 to try a turn\.$/)
    await clickTurn((list) => list[0])
    const setup = await data('line')
    assert.match(setup, /^[a-g]\d,[a-g]\d$/, 'a setup turn tried')
    assert.notEqual(setup, 'b2,f6')
    assert.equal(await page.$$eval('#moves li.variations', (l) => l.length), 2, 'variations after turn 1 and turn 2')
    const after = await api(`/api/games/${id}`)
    assert.deepEqual(after.moves, game.moves, 'no variation changed the game')
    // Only the analysis of the game's own position is in its graph, none of a variation's.
    assert.deepEqual(after.winrates, [null, null, 0.7], "the game's graph holds no variation's analysis")
    // The two persons' turns were valued by no analysis: no point, a tick each; the point is the
    // position analysed, after turn 2.
    assert.equal(await data('graphGaps'), '0 1', "the graph's gaps are the positions not analysed")
    assert.equal(await page.$$eval('#graph .graph-gap', (l) => l.length), 2, 'a tick each')
    assert.match(await page.$eval('#graph svg title', (t) => t.textContent), /^Black's chance of winning in the 1 position analysed, the line joined across the 2 not analysed/)
    console.log(`variations: a line played out (${LINE.length} turns), a branch tried, deleted, kept over a reload; ` +
      `a setup tried at turn 1 (${setup}); the game unchanged`)

    // ---- Undo while the engine thinks stops its search ----
    await page.keyboard.press('End')
    await page.click('#new-game')
    await page.waitForSelector('dialog[open]')
    await page.select('select[name=black]', 'person')
    await page.select('select[name=white]', '1')
    await page.$eval('input[name=movetime_white]', (input) => { input.value = '60' })
    const before = await data('game')
    await page.click('#start')
    await until((g) => document.body.dataset.game !== g, before)
    await clickSquare('d4')
    await until(() => /thinking/.test(document.getElementById('player-white').textContent) &&
      !document.getElementById('undo').disabled)
    await page.click('#undo')
    await until(() => document.querySelectorAll('#moves li').length === 0 &&
      !/thinking/.test(document.getElementById('player-white').textContent))
    const undone = await api(`/api/games/${await data('game')}`)
    assert.equal(undone.thinking, false)
    assert.equal(undone.outcome, null, 'the game goes on')
    assert.deepEqual(undone.moves, [])
    console.log('undo while the engine thinks: its turn is taken back and the engine stops')

    // ---- a game won on the board names the claim that decided it ----
    await page.click('#new-game')
    await page.waitForSelector('dialog[open]')
    await page.select('select[name=black]', '2')
    await page.select('select[name=white]', '2')
    // (Our random player answers at once: its second a move only bounds it, on a loaded machine too.)
    await page.$eval('input[name=movetime_black]', (input) => { input.value = '2' })
    await page.$eval('input[name=movetime_white]', (input) => { input.value = '2' })
    await page.$eval('input[name=thinking]', (input) => { input.checked = false })
    const previous = await data('game')
    await page.click('#start')
    await until((g) => document.body.dataset.game !== g, previous)
    await page.waitForFunction(() => /wins/.test(document.getElementById('status').textContent), {timeout: 60000})
    const status = await page.$$eval('#status div', (lines) => lines.map((l) => l.textContent))
    const turns = await page.$$eval('#moves li:not(.variations)', (l) => l.length)
    assert.match(status[0], /^(Black|White) wins$/, status.join(' / '))
    const winner = status[0].split(' ')[0]
    assert.match(status[1], new RegExp(`^${winner} claimed the shooters? on [a-g][1-7]( and [a-g][1-7])* ` +
      `with (its|Black's|White's) turn ${turns} \\([^)]+\\): \\d claims, 2 to win$`), status[1])
    await page.screenshot({path: path.join(shots, 'game-over-claim.png')})
    console.log(`game over: ${status[0]}; ${status[1]}`)

    // ---- the whole game reviewed: every position's win rate fills the move list and the graph ----
    const gameId = await data('game')
    // The server's child processes (its engines; a zombie is one too).
    const children = () => fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).filter((entry) => {
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === server.child.pid
      } catch (e) {
        return false
      }
    }).length
    await page.select('#analysis-engine', '1')
    await page.$eval('#review-seconds', (input) => { input.value = '0.2' })
    await page.click('#review')
    await until(() => document.body.dataset.review === 'running')
    await page.waitForFunction(() => document.body.dataset.review === 'done', {timeout: 180000})
    const reviewed = await api(`/api/games/${gameId}`)
    assert.equal(reviewed.review.done, turns, 'every position before a turn reviewed')
    assert.equal(reviewed.review.error, null)
    // (A turn our engine chooses without a search, such as a lone shot, has no win rate.)
    const rated = reviewed.winrates.filter((w) => w !== null).length
    assert.ok(rated >= turns / 2, `the review's win rates fill the graph (${rated} of ${turns} positions)`)
    assert.equal(reviewed.lines.filter((l) => l.length > 0).length, rated, 'a best line with each win rate')
    assert.equal(await page.$$eval('#graph .graph-point', (p) => p.length), rated, 'one point of the graph each')
    // A position no search valued (a lone shot chosen without one) is a gap, ticked, the line joined across it.
    const gaps = reviewed.winrates.slice(0, turns).flatMap((w, t) => (w === null ? [t] : []))
    assert.equal(await data('graphGaps'), gaps.join(' '), "the graph's gaps are the positions without a win rate")
    assert.equal(await page.$$eval('#graph .graph-gap', (l) => l.length), gaps.length, 'a tick each')
    // The move list shows a turn's win rate after it (the next position's) and its best line before it.
    const rates = await page.$$eval('#moves li:not(.variations) .rate', (r) => r.length)
    assert.equal(rates, reviewed.winrates.slice(1).filter((w) => w !== null).length, "the move list's rates")
    const firstLine = reviewed.lines.findIndex((l) => l.length > 0)
    assert.ok(firstLine >= 0, 'the review gives best lines')
    const lineTitle = await page.$eval(`#moves li:not(.variations):nth-of-type(${firstLine + 1})`, (li) => li.title)
    assert.ok(lineTitle.includes(`best line before it: 1. ${reviewed.lines[firstLine][0]}`), lineTitle)
    assert.match(await page.$eval('#review-state', (e) => e.textContent), new RegExp(`^Reviewed by thinker: ${turns} positions$`))
    await page.screenshot({path: path.join(shots, 'review.png')})
    // The saved record carries the review's win rates and best lines.
    const saved = await page.evaluate(async (u) => (await fetch(u)).text(), `/api/games/${gameId}/record`)
    assert.ok(/\{[^}]*\d%\/\d+[^}]*pv=[^}]+\}/.test(saved), 'the record has win rates and best lines')
    // Stop: a review of 5 s a position ends at once, its engine too.
    const idle = children()
    await page.$eval('#review-seconds', (input) => { input.value = '5' })
    await page.click('#review')
    await until(() => document.body.dataset.review === 'running' && document.getElementById('review').textContent === 'Stop review')
    await page.click('#review')
    await until(() => document.body.dataset.review === 'ended')
    assert.match(await page.$eval('#review-state', (e) => e.textContent), /stopped/)
    const deadline = Date.now() + 20000
    while (children() > idle) {
      assert.ok(Date.now() < deadline, `the review's engine ends once stopped (${children()} processes, ${idle} before)`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    console.log(`review: ${turns} positions, ${rated} win rates in the graph, best lines in the move list; Stop ends its engine`)

    // ---- a person who loses on time sees no time left on the clock, not the time at the turn's start ----
    await page.click('#new-game')
    await page.waitForSelector('dialog[open]')
    await page.select('select[name=black]', 'person')
    await page.select('select[name=white]', 'person')
    await page.$eval('input[name=clock_black]', (input) => { input.value = '3' })
    await page.$eval('input[name=clock_white]', (input) => { input.value = '3' })
    const beforeClock = await data('game')
    await page.click('#start')
    await until((g) => document.body.dataset.game !== g, beforeClock)
    await until(() => /time forfeit/.test(document.getElementById('status').textContent))
    assert.equal(await page.$eval('#player-black .clock', (c) => c.textContent), '0.0 s', 'the side that lost on time has none left')
    assert.equal(await page.$eval('#player-white .clock', (c) => c.textContent), '3.0 s', "the winner's clock as it stood")
    console.log('a person who lost on time: 0.0 s on the clock')

    // ---- a phone: the dialog and the game fit its screen ----
    const phone = await browser.newPage()
    phone.setDefaultTimeout(60000)
    await phone.setViewport({width: 390, height: 844, isMobile: true, hasTouch: true})
    watch(phone, 'phone')
    page = phone
    await phone.goto(server.url, {waitUntil: 'load'})
    await phone.waitForSelector('#open-games')
    await phone.click('#new-game')
    await phone.waitForSelector('dialog[open]')
    const fits = (selector) => phone.$eval(selector, (e) => {
      const r = e.getBoundingClientRect()
      return r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight ? '' : `${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`
    })
    assert.equal(await fits('dialog'), '', 'the dialog fits the screen')
    for (const field of ['select[name=white]', 'input[name=byoyomi_white]', 'input[name=games]']) {
      const r = await phone.$eval(field, (e) => { const b = e.getBoundingClientRect(); return b.right <= innerWidth && b.left >= 0 })
      assert.ok(r, `${field} is on the screen`)
    }
    await phone.screenshot({path: path.join(shots, 'phone-dialog.png')})
    await phone.select('select[name=black]', 'person')
    await phone.select('select[name=white]', 'person')
    const last = await phone.evaluate(() => document.body.dataset.game)
    await phone.$eval('#start', (b) => b.scrollIntoView())
    await phone.tap('#start')
    await phone.waitForFunction((g) => document.body.dataset.game !== g, {timeout: 60000}, last)
    await phone.waitForSelector('#board svg .hit')
    assert.equal(await fits('#board'), '', 'the board fits the screen')
    assert.equal(await fits('#eval-bar'), '', 'the evaluation bar fits beside it')
    assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'nothing is wider than the screen')
    const stacked = await phone.evaluate(() => document.getElementById('panel').getBoundingClientRect().top >=
      document.getElementById('board').getBoundingClientRect().bottom)
    assert.ok(stacked, 'the panel comes under the board')
    const hit = await phone.$('#board .hit[data-square="d4"]')
    await hit.tap()
    await phone.waitForFunction(() => document.querySelectorAll('#moves li').length === 1, {timeout: 60000})
    await phone.screenshot({path: path.join(shots, 'phone-game.png'), fullPage: true})
    console.log('phone: the dialog, the board and the bar fit 390 × 844; a turn by a tap')

    assert.deepEqual(problems, [], 'no console errors or failed requests')
    console.log('gui analysis test: 1 passed, 0 failed')
  } finally {
    await closeBrowser()
    server.child.kill()
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
