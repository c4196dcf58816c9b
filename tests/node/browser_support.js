// What the browser tests share: a headless Chromium in a throw-away profile, `veletas gui`
// started on a free port, and a position string read as a board.
'use strict'

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const readline = require('node:readline')
const {spawn} = require('node:child_process')
const puppeteer = require('puppeteer-core')

// Launches headless Chromium ($CHROMIUM, else /usr/bin/chromium) in a fresh profile; resolves
// with {browser, close}, close() ending the browser and removing the profile.
async function launchBrowser() {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veletas-chromium-'))
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    userDataDir,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      `--user-data-dir=${userDataDir}`],
  })
  const close = async () => {
    await browser.close()
    fs.rmSync(userDataDir, {recursive: true, force: true})
  }
  return {browser, close}
}

// Starts `veletas gui` (the binary `veletas`) with `args` on a free port; resolves with
// {child, url, ms} once its first line (the URL) is read, ms the time that took.
function startServer(veletas, args) {
  const started = Date.now()
  const child = spawn(veletas, ['gui', '--no-browser', '--port', '0', ...args], {stdio: ['ignore', 'pipe', 'pipe']})
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (text) => process.stderr.write(`[gui] ${text}`))
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({input: child.stdout})
    lines.once('line', (url) => resolve({child, url, ms: Date.now() - started}))
    child.once('exit', (code) => reject(new Error(`veletas gui exited (${code}) before printing its URL`)))
  })
}

// A position string's pieces: square -> letter.
function parsePieces(text) {
  const ranks = text.split(' ')[0].split('/')
  const pieces = {}
  ranks.forEach((rank, i) => {
    let file = 0
    for (const m of rank.matchAll(/(\d+)|([sbwBW])/g)) {
      if (m[1]) { file += Number(m[1]); continue }
      pieces[String.fromCharCode(97 + file) + (ranks.length - i)] = m[2]
      file += 1
    }
  })
  return pieces
}

module.exports = {launchBrowser, startServer, parsePieces}
