// Measures how long a viewer page (`veletas view`) takes to open in headless Chromium: from
// the start of navigation to the page being ready (data parsed, list and first game drawn),
// as the page itself sees it (performance.now() at ready), over several fresh pages; and
// how long jumping to the last game and to its last turn takes. A measurement, not a test.
//
// Usage: node viewer_open_time.js PAGE.html [RUNS]
// The browser: $CHROMIUM, else /usr/bin/chromium.
'use strict'

const fs = require('node:fs')
const path = require('node:path')
const {launchBrowser} = require('./browser_support')

const [file, runsArg] = process.argv.slice(2)
if (!file) {
  console.error('usage: node viewer_open_time.js PAGE.html [RUNS]')
  process.exit(2)
}
const runs = Number(runsArg || 5)
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] }

async function main() {
  const {browser, close: closeBrowser} = await launchBrowser()
  const ready = [], wall = [], jump = []
  try {
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage()
      await page.setViewport({width: 1400, height: 900})
      const errors = []
      page.on('pageerror', (e) => errors.push(e.message))
      await page.evaluateOnNewDocument(() => {
        document.addEventListener('DOMContentLoaded', () => {
          new MutationObserver(() => {
            if (document.body.dataset.ready === 'true' && !window.readyAt) window.readyAt = performance.now()
          }).observe(document.body, {attributes: true})
        })
      })
      const start = Date.now()
      await page.goto('file://' + path.resolve(file), {waitUntil: 'load', timeout: 120000})
      await page.waitForSelector('body[data-ready="true"]', {timeout: 120000})
      wall.push(Date.now() - start)
      ready.push(await page.evaluate(() => window.readyAt || performance.now()))
      const t = await page.evaluate(() => {
        const t0 = performance.now()
        const list = document.getElementById('list')
        list.scrollTop = list.scrollHeight
        list.dispatchEvent(new Event('scroll'))
        document.dispatchEvent(new KeyboardEvent('keydown', {key: 'End'}))
        return performance.now() - t0
      })
      jump.push(t)
      if (errors.length) throw new Error(errors.join('; '))
      await page.close()
    }
  } finally {
    await closeBrowser()
  }
  const size = fs.statSync(file).size
  console.log(`${file}: ${(size / 1e6).toFixed(1)} MB; open to ready: median ${median(ready).toFixed(0)} ms ` +
    `(page clock), ${median(wall)} ms (wall, incl. load event) over ${runs} runs [${ready.map((x) => x.toFixed(0)).join(', ')}]; ` +
    `scroll list + jump to last turn: ${median(jump).toFixed(1)} ms`)
}

main().catch((e) => { console.error(e && e.stack ? e.stack : e); process.exit(1) })
