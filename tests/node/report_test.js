// The HTML report (`veletas ratings --format html`) and the live page (`--live`) in a real
// browser: headless Chromium from the OS packages, driven by puppeteer-core. Plays a small
// round robin of random movers, checks that the standings table of the report matches
// `veletas ratings --format json` of the same file, that a crosstable cell filters the game
// list to that pair, that a game opens in the viewer; then runs a short match with
// `--live` and loads the page while a game is running and again at the end. No console
// errors, no network. Screenshots go to OUT_DIR/screenshots.
//
// Usage: node report_test.js VELETAS_BINARY OUT_DIR
'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const {execFileSync, spawn} = require('node:child_process')
const {launchBrowser} = require('./browser_support')

const [binArg, outArg] = process.argv.slice(2)
if (!binArg || !outArg) {
  console.error('usage: node report_test.js VELETAS_BINARY OUT_DIR')
  process.exit(2)
}
const veletas = path.resolve(binArg)
const fake = path.join(path.dirname(veletas), 'veletas-fake-engine')
const out = path.resolve(outArg)
const shots = path.join(out, 'screenshots')
fs.rmSync(out, {recursive: true, force: true})
fs.mkdirSync(shots, {recursive: true})
const run = (args) => execFileSync(veletas, args, {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']})
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// ---- a real tournament record ----
const record = path.join(out, 'tournament.txt')
const engines = [['random-a', 1], ['random-b', 2], ['greedy', 3], ['random-c', 4]]
  .flatMap(([name, seed]) => ['--engine', `${name}=${veletas} --player ${name === 'greedy' ? 'greedy' : 'random'} --seed ${seed}`])
run(['tournament', ...engines, '--games-per-pair', '4', '--size', '7', '--movetime', '0.05', '-j', '2',
  '--record', record, '-q', '--event', 'Report test'])
const report = path.join(out, 'report.html')
run(['ratings', '--format', 'html', record, '-o', report])
const expected = JSON.parse(run(['ratings', '--format', 'json', record]))


// The JSON gives ratings and errors to a tenth, the page to a whole Elo: rounding the tenth
// again may land one away from the page (212.46 is 212 on the page, 212.5 in the JSON, 213
// when rounded again), so a whole number within half an Elo of the JSON's value is right.
function wholeNear(text, x, what) {
  const shown = Number(text.replace(/^[<>~]/, ''))
  assert.ok(Number.isInteger(shown) && Math.abs(shown - x) <= 0.5 + 1e-9, `${what}: page ${text}, JSON ${x}`)
}

async function main() {
  const {browser, close: closeBrowser} = await launchBrowser()
  const problems = []
  let checks = 0
  const watch = (page) => {
    page.on('console', (msg) => { if (msg.type() === 'error' || msg.type() === 'warn') problems.push(`console: ${msg.text()}`) })
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    page.on('request', (r) => { if (!/^(file|data):/.test(r.url())) problems.push(`network request: ${r.url()}`) })
  }
  try {
    // ---- the report ----
    const page = await browser.newPage()
    await page.setViewport({width: 1400, height: 900})
    watch(page)
    await page.goto('file://' + report)
    await page.waitForSelector('body[data-ready="true"]')
    await page.screenshot({path: path.join(shots, 'report-standings.png')})
    const rows = await page.$$eval('table.standings tbody tr', (trs) => trs.map((tr) =>
      Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [td.className, td.textContent.trim()]))))
    assert.equal(rows.length, expected.engines.length, 'a row per engine')
    rows.forEach((row, i) => {
      const e = expected.engines[i]
      assert.equal(row.rank, String(e.rank))
      assert.equal(row.name, e.name)
      assert.ok(row.rating.startsWith(e.mark), `${e.name}'s mark`)
      wholeNear(row.rating.slice(e.mark.length), e.rating, `${e.name}'s rating`)
      wholeNear(row.error, e.error, `${e.name}'s error`)
      assert.equal(row.games, String(e.games))
      assert.equal(row.score, `${e.score.toFixed(1)}%`)
      assert.equal(row.black, `${e.black.wins}/${e.black.games}`)
      assert.equal(row.white, `${e.white.wins}/${e.white.games}`)
      checks += 8
    })
    // The games tab is hidden until asked for.
    assert.equal(await page.$eval('main', (m) => getComputedStyle(m).display), 'none')

    // A crosstable cell: the pair of ranks 1 and 2.
    const [a, b] = [expected.engines[0].name, expected.engines[1].name]
    const cell = expected.crosstable[0][1]
    await page.click(`table.crosstable button.pair[data-pair-a="${a}"][data-pair-b="${b}"]`)
    await page.waitForSelector('#list .grid-row')
    assert.notEqual(await page.$eval('main', (m) => getComputedStyle(m).display), 'none', 'the games are shown')
    const listed = await page.$$eval('#list .grid-row', (rs) => rs.map((r) => [...r.querySelectorAll('span')].map((s) => s.textContent)))
    assert.equal(listed.length, cell.wins + cell.losses, 'the pair\'s games, all of them')
    for (const [, black, white] of listed) {
      assert.deepEqual([black, white].sort(), [a, b].sort(), 'only games of the pair')
      checks += 1
    }
    assert.match(await page.$eval('#pair-chip', (c) => c.textContent), new RegExp(`${a}.*${b}`))
    // Open the second game of the list.
    await page.click('#list .grid-row:nth-child(2)')
    const number = Number(listed[1][0])
    assert.equal(await page.$eval('#board', (d) => Number(d.dataset.game)), number, 'the clicked game is open')
    await page.keyboard.press('End')
    assert.ok(await page.$eval('#board', (d) => Number(d.dataset.turn)) > 0)
    assert.ok(await page.$$eval('#board svg g.piece', (g) => g.length) > 0, 'the board has pieces')
    await page.screenshot({path: path.join(shots, 'report-pair-game.png')})
    // Clearing the pair shows every game again; the standings tab comes back.
    await page.click('#pair-clear')
    assert.equal(await page.$eval('#list-inner', (d) => parseInt(d.style.height) / 28), expected.games)
    await page.click('#tabs button[data-tab="report"]')
    assert.equal(await page.$eval('main', (m) => getComputedStyle(m).display), 'none')
    checks += 6

    // ---- the live page while a match runs ----
    const live = path.join(out, 'live.html')
    const matchRecord = path.join(out, 'match.txt')
    const child = spawn(veletas, ['match',
      '--engine', `slow=${fake} --seed 1 --slow-at 4 --delay 3`, '--engine', `quick=${fake} --seed 2`,
      '--games', '2', '-j', '2', '--size', '7', '--movetime', '6', '--record', matchRecord,
      '--live', live, '--report', path.join(out, 'match.html'), '-q'], {stdio: 'ignore'})
    const exited = new Promise((resolve) => child.on('exit', resolve))
    const livePage = await browser.newPage()
    await livePage.setViewport({width: 1100, height: 900})
    watch(livePage)
    let running = 0
    for (let i = 0; i < 60 && running === 0; i++) {
      await sleep(250)
      if (!fs.existsSync(live)) continue
      await livePage.goto('file://' + live)
      running = await livePage.$$eval('#running .game', (g) => g.length)
    }
    assert.ok(running > 0, 'the live page shows a game in progress')
    assert.match(await livePage.$eval('.state', (s) => s.textContent), /Live/)
    const turns = await livePage.$$eval('#running .game', (gs) => gs.map((g) => Number(g.dataset.turns)))
    assert.ok(turns.every((t) => t >= 0) && (await livePage.$$eval('#running .game svg', (s) => s.length)) === running)
    await livePage.screenshot({path: path.join(shots, 'live-running.png'), fullPage: true})
    assert.equal(await exited, 0, 'the match ends well')
    await livePage.goto('file://' + live)
    assert.match(await livePage.$eval('.state', (s) => s.textContent), /Finished/)
    assert.equal(await livePage.$$eval('#running .game', (g) => g.length), 0)
    const summary = await livePage.$eval('#report', (r) => r.textContent)
    assert.match(summary, /Score of slow vs quick/)
    assert.match(summary, /2 of 2/)
    await livePage.screenshot({path: path.join(shots, 'live-finished.png'), fullPage: true})
    checks += 6
  } finally {
    await closeBrowser()
  }
  assert.deepEqual(problems, [], 'no console errors, no network')
  console.log(`report test: ${checks} checks passed; screenshots in ${shots}`)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
