// The page of `veletas gui`. It knows no rules: the server sends the board (the SVG of
// `veletas render`), the legal targets of each click and the game's state; the page draws
// the targets, refuses clicks elsewhere before sending anything, and polls the game.
'use strict'

const SVG_NS = 'http://www.w3.org/2000/svg'
const token = new URLSearchParams(location.search).get('token')
const $ = (id) => document.getElementById(id)

const state = {
  config: null, // {engines: [names]}
  game: null, // the server's view of the game
  picks: [], // the clicks of the turn being entered
  steps: null, // the targets of the next click
  flipped: false,
  busy: false, // a turn is being sent
  hover: null, // the analysis candidate under the pointer
}

function url(path) {
  return token ? `${path}?token=${encodeURIComponent(token)}` : path
}

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: 'POST',
    headers: {'Content-Type': 'application/json'},
    body: JSON.stringify(body),
  }
  const response = await fetch(url(path), options)
  const data = await response.json()
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`)
  return data
}

function refuse(message) {
  $('refused').textContent = message
  const board = $('board')
  board.classList.remove('refuse')
  void board.offsetWidth
  board.classList.add('refuse')
}

// ---- the board ----

function squareName(file, rank) {
  return String.fromCharCode(97 + file) + (rank + 1)
}

// The centre of a square in the picture's units, the board turned when flipped.
function squareBox(name) {
  const [left, top, cell] = state.game.layout
  const n = state.game.size
  let file = name.charCodeAt(0) - 97
  let rank = parseInt(name.slice(1), 10) - 1
  if (state.flipped) {
    file = n - 1 - file
    rank = n - 1 - rank
  }
  return {x: left + file * cell, y: top + (n - 1 - rank) * cell, cell}
}

function drawBoard() {
  const game = state.game
  const holder = $('board')
  holder.innerHTML = game.svg
  const svg = holder.querySelector('svg')
  svg.removeAttribute('width')
  svg.removeAttribute('height')
  svg.setAttribute('aria-label', `the board, ${game.to_move} to move`)
  if (state.flipped) flip(svg)
  const overlay = document.createElementNS(SVG_NS, 'g')
  overlay.setAttribute('class', 'overlay')
  const targets = new Set(state.steps ? state.steps.targets : [])
  for (const name of state.picks) {
    if (name === '-') continue
    const {x, y, cell} = squareBox(name)
    overlay.appendChild(shape('rect', {class: 'picked', x: x + 3, y: y + 3, width: cell - 6, height: cell - 6, rx: 4}))
  }
  for (let file = 0; file < game.size; file++) {
    for (let rank = 0; rank < game.size; rank++) {
      const name = squareName(file, rank)
      const {x, y, cell} = squareBox(name)
      if (targets.has(name)) {
        const occupied = svg.querySelector(`.pieces [data-square="${name}"]`)
        overlay.appendChild(occupied
          ? shape('circle', {class: 'target-ring', cx: x + cell / 2, cy: y + cell / 2, r: cell / 2 - 2})
          : shape('circle', {class: 'target-dot', cx: x + cell / 2, cy: y + cell / 2, r: cell / 7}))
      }
      const hit = shape('rect', {class: 'hit', x, y, width: cell, height: cell, 'data-square': name})
      if (targets.has(name)) hit.classList.add('target')
      overlay.appendChild(hit)
    }
  }
  const analysis = drawAnalysis()
  if (analysis) svg.appendChild(analysis)
  svg.appendChild(overlay)
}

// The squares of a turn in notation: the shooter's move (from, to) and the squares
// placed on (the shot, or a setup's squares).
function turnSquares(move) {
  const m = /^([a-j]\d+)-([a-j]\d+)\/([a-j]\d+)$/.exec(move)
  if (m) return {from: m[1], to: m[2], placed: [m[3]]}
  if (move === 'swap') return {placed: []}
  return {placed: move.split(/[,/]/)}
}

function center(name) {
  const {x, y, cell} = squareBox(name)
  return [x + cell / 2, y + cell / 2]
}

// The analysis on the board: for each candidate (or only the one under the pointer) an
// arrow for the shooter's move and a disc with its win rate where it places a stone.
function drawAnalysis() {
  const analysis = state.game.analysis
  if (!analysis || analysis.candidates.length === 0) return null
  const layer = document.createElementNS(SVG_NS, 'g')
  layer.setAttribute('class', 'analysis-layer')
  const shown = state.hover === null ? analysis.candidates.slice(0, 5) : [analysis.candidates[state.hover]]
  shown.slice().reverse().forEach((candidate) => {
    const best = candidate === analysis.candidates[0]
    const squares = turnSquares(candidate.move)
    if (squares.from) {
      const [x1, y1] = center(squares.from)
      const [x2, y2] = center(squares.to)
      layer.appendChild(shape('line', {class: 'analysis-arrow', x1, y1, x2, y2, 'stroke-width': best ? 5 : 3}))
    }
    for (const name of squares.placed) {
      const [cx, cy] = center(name)
      layer.appendChild(shape('circle', {class: `analysis-spot${best ? ' best' : ''}`, cx, cy, r: 13}))
      const label = shape('text', {class: 'analysis-label', x: cx, y: cy + 4})
      label.textContent = String(Math.round(candidate.winrate * 100))
      layer.appendChild(label)
    }
  })
  return layer
}

function renderAnalysis() {
  const game = state.game
  const analysis = game.analysis
  const table = $('analysis')
  const body = table.querySelector('tbody')
  body.textContent = ''
  $('analysis-engine').hidden = state.config.engines.length < 2
  $('analyse').disabled = !!game.outcome || game.thinking || !!(analysis && analysis.running)
  if (!analysis) {
    table.hidden = true
    $('analysis-state').textContent = ''
    $('pv').textContent = ''
    return
  }
  $('analysis-state').textContent = analysis.error ? analysis.error
    : analysis.running ? `${analysis.engine} is analysing…` : `${analysis.engine}'s view`
  table.hidden = analysis.candidates.length === 0
  analysis.candidates.forEach((candidate, i) => {
    const row = document.createElement('tr')
    if (i === 0) row.className = 'best'
    for (const text of [candidate.move, `${(candidate.winrate * 100).toFixed(1)}%`, String(candidate.visits)]) {
      const cell = document.createElement('td')
      cell.textContent = text
      row.appendChild(cell)
    }
    row.addEventListener('mouseenter', () => { state.hover = i; drawBoard(); $('pv').textContent = candidate.pv.join(' ') })
    row.addEventListener('mouseleave', () => { state.hover = null; drawBoard(); $('pv').textContent = '' })
    body.appendChild(row)
  })
  if (state.hover !== null && state.hover >= analysis.candidates.length) state.hover = null
}

function shape(tag, attributes) {
  const element = document.createElementNS(SVG_NS, tag)
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value)
  return element
}

// Turns the board half around: pieces and marks move to the mirrored squares, the
// coordinates are relabelled in place.
function flip(svg) {
  const [left, top, cell] = state.game.layout
  const n = state.game.size
  const cx = left + (n * cell) / 2
  const cy = top + (n * cell) / 2
  for (const group of svg.querySelectorAll('.marks, .pieces, .lines')) {
    group.setAttribute('transform', `rotate(180 ${cx} ${cy})`)
  }
  const texts = svg.querySelectorAll('.coordinates text')
  for (const text of texts) {
    const label = text.textContent
    if (/^[a-z]$/.test(label)) text.textContent = String.fromCharCode(97 + n - 1 - (label.charCodeAt(0) - 97))
    else text.textContent = String(n + 1 - parseInt(label, 10))
  }
}

async function onBoardClick(event) {
  const hit = event.target.closest('.hit')
  if (!hit || !state.game) return
  const name = hit.getAttribute('data-square')
  if (!state.steps) {
    refuse(state.game.outcome ? 'The game is over.' : 'Wait for the engine to move.')
    return
  }
  if (state.picks.includes(name) && !state.steps.targets.includes(name)) {
    cancelTurn()
    return
  }
  if (!state.steps.targets.includes(name)) {
    refuse(`${name} is not possible now: pick ${state.steps.prompt}.`)
    return
  }
  await pick(name)
}

async function pick(name) {
  if (state.busy) return
  state.busy = true
  $('refused').textContent = ''
  const picks = state.picks.concat([name])
  try {
    const steps = await api(`/api/games/${state.game.id}/steps`, {picks})
    if (steps.complete) {
      state.picks = []
      state.steps = null
      const game = await api(`/api/games/${state.game.id}/play`, {move: steps.complete})
      showGame(game)
    } else {
      state.picks = picks
      state.steps = steps
      render()
    }
  } catch (e) {
    refuse(e.message)
  } finally {
    state.busy = false
  }
}

function cancelTurn() {
  state.picks = []
  state.steps = state.game ? state.game.steps : null
  $('refused').textContent = ''
  render()
}

// ---- the panel ----

// The time each side has used, the side to move's running on between polls.
function tick() {
  const game = state.game
  if (!game) return
  for (const [colour, i] of [['black', 0], ['white', 1]]) {
    const running = !game.outcome && game.to_move === colour
    const now = running ? game.turn_time + (Date.now() - state.shownAt) / 1000 : 0
    const clock = $(`player-${colour}`).querySelector('.clock')
    // Under a clock, the time left counting down; otherwise the time used.
    if (game.clocks) {
      const left = Math.max(0, game.clocks[i] - now)
      clock.textContent = formatTime(left)
      clock.classList.toggle('low', running && left < 10)
      clock.title = 'time left'
    } else {
      clock.textContent = formatTime(game.time_used[i] + now)
      clock.title = 'time used'
    }
  }
}

function formatTime(seconds) {
  const whole = Math.floor(seconds)
  const minutes = Math.floor(whole / 60)
  const tenths = Math.floor((seconds - whole) * 10)
  return minutes > 0 ? `${minutes}:${String(whole % 60).padStart(2, '0')}` : `${whole}.${tenths} s`
}

function render() {
  const game = state.game
  if (!game) return
  $('panel').hidden = false
  drawBoard()
  const names = {black: game.players[0], white: game.players[1]}
  for (const [colour, i] of [['black', 0], ['white', 1]]) {
    const element = $(`player-${colour}`)
    element.querySelector('.name').textContent = names[colour]
    const toMove = !game.outcome && game.to_move === colour
    element.classList.toggle('to-move', toMove)
    element.querySelector('.flag').textContent =
      toMove && game.thinking ? 'thinking…' : toMove && game.persons[i] ? 'your turn' : ''
  }
  state.shownAt = Date.now()
  tick()
  const status = $('status')
  status.textContent = ''
  game.status.forEach((line, i) => {
    const div = document.createElement('div')
    div.textContent = line
    if (i === 0 && game.outcome) div.className = 'result'
    status.appendChild(div)
  })
  const steps = state.steps
  $('prompt').textContent = steps ? `Click ${steps.prompt}.` : ''
  $('no-move').hidden = !(steps && steps.no_move)
  $('swap').hidden = !(steps && steps.swap)
  $('cancel').hidden = state.picks.length === 0
  $('undo').disabled = !game.can_undo
  $('resign').disabled = !!game.outcome || !game.persons.some((p) => p)
  $('save').href = url(`/api/games/${game.id}/record`)
  $('save').setAttribute('download', `veletas-game-${game.id}.txt`)
  const list = $('moves')
  list.textContent = ''
  let mover = 'black'
  game.moves.forEach((move, i) => {
    const li = document.createElement('li')
    const disc = document.createElement('span')
    disc.className = `disc small ${mover}`
    const number = document.createElement('span')
    number.className = 'number'
    number.textContent = `${i + 1}.`
    li.append(number, disc, document.createTextNode(move))
    list.appendChild(li)
    // White's swap leaves White to move again.
    if (move !== 'swap') mover = mover === 'black' ? 'white' : 'black'
  })
  list.scrollTop = list.scrollHeight
  document.body.dataset.version = String(game.version)
  renderAnalysis()
  document.body.dataset.picks = state.picks.join(' ')
  document.body.dataset.game = String(game.id)
  document.body.dataset.position = game.position
}

// Shows the server's view of the game. The turn being entered is kept unless the position
// changed (an analysis report changes the view but not the position).
function showGame(game) {
  const moved = !state.game || state.game.id !== game.id || state.game.position !== game.position ||
    state.game.moves.length !== game.moves.length || !game.steps
  state.game = game
  if (moved) {
    state.picks = []
    state.steps = game.steps
  }
  render()
  if (pollTimer !== null) schedulePoll()
  // How long after the turn was played (an engine's reply read) the board shows it.
  if (moved && game.moved_at > 0) document.body.dataset.delay = String(Date.now() - game.moved_at)
}

// Polls the game's view: every 50 ms while an engine thinks or analyses, every 600 ms
// otherwise; a change made here (a turn, a new game) polls again at once.
let pollTimer = null
async function poll() {
  clearTimeout(pollTimer)
  pollTimer = null
  if (state.game && !state.busy) {
    try {
      const game = await api(`/api/games/${state.game.id}`)
      // A new game may have started while the answer was on its way.
      if (!state.busy && state.game && game.id === state.game.id && game.version !== state.game.version) showGame(game)
    } catch (e) {
      $('refused').textContent = `The server does not answer: ${e.message}`
    }
  }
  schedulePoll()
}

function schedulePoll(delay) {
  const busy = state.game && (state.game.thinking || (state.game.analysis && state.game.analysis.running))
  clearTimeout(pollTimer)
  pollTimer = setTimeout(poll, delay !== undefined ? delay : busy ? 50 : 600)
}

// ---- buttons and the new game dialog ----

async function command(name) {
  if (!state.game || state.busy) return
  try {
    showGame(await api(`/api/games/${state.game.id}/${name}`, {}))
  } catch (e) {
    refuse(e.message)
  }
}

function fillSeats() {
  for (const select of document.querySelectorAll('select.seat')) {
    select.textContent = ''
    const person = new Option('Person (you)', 'person')
    select.add(person)
    state.config.engines.forEach((name, i) => select.add(new Option(`Engine: ${name}`, String(i))))
  }
  const chooser = $('analysis-engine')
  chooser.textContent = ''
  state.config.engines.forEach((name, i) => chooser.add(new Option(name, String(i))))
  const form = $('new-game-form')
  form.black.value = 'person'
  form.white.value = state.config.engines.length > 0 ? '0' : 'person'
}

async function startGame(event) {
  event.preventDefault()
  const form = $('new-game-form')
  const seat = (value) => (value === 'person' ? null : parseInt(value, 10))
  const request = {
    size: parseInt(form.size.value, 10),
    rules: form.querySelector('input[name=rules]:checked').value,
    black: seat(form.black.value),
    white: seat(form.white.value),
    movetime: parseFloat(form.movetime.value) || 1,
  }
  if (form.clock.value.trim() !== '') request.clock = form.clock.value.trim()
  if (form.start.value.trim() !== '') request.start = form.start.value
  if (form.turn.value !== '') request.turn = parseInt(form.turn.value, 10)
  $('dialog').close()
  try {
    const game = await api('/api/games', request)
    state.flipped = request.black !== null && request.white === null
    state.game = null
    showGame(game)
    $('refused').textContent = ''
  } catch (e) {
    refuse(e.message)
  }
}

async function main() {
  // On the press, not the click: the board is drawn anew at every change (an engine's
  // move, an analysis report), and a click whose press and release fall on two drawings
  // of the board would be lost.
  $('board').addEventListener('pointerdown', (event) => { if (event.button === 0) onBoardClick(event) })
  $('no-move').addEventListener('click', () => state.steps && state.steps.no_move && pick('-'))
  $('swap').addEventListener('click', async () => {
    if (!state.game || !state.steps || !state.steps.swap) return
    try {
      showGame(await api(`/api/games/${state.game.id}/play`, {move: 'swap'}))
    } catch (e) {
      refuse(e.message)
    }
  })
  $('cancel').addEventListener('click', cancelTurn)
  $('analyse').addEventListener('click', async () => {
    if (!state.game) return
    try {
      const engine = parseInt($('analysis-engine').value || '0', 10)
      showGame(await api(`/api/games/${state.game.id}/analyse`, {engine, seconds: 5}))
    } catch (e) {
      refuse(e.message)
    }
  })
  $('undo').addEventListener('click', () => command('undo'))
  $('resign').addEventListener('click', () => {
    if (confirm('Resign this game?')) command('resign')
  })
  $('flip').addEventListener('click', () => {
    state.flipped = !state.flipped
    render()
  })
  $('new-game').addEventListener('click', () => $('dialog').showModal())
  $('dialog-cancel').addEventListener('click', () => $('dialog').close())
  $('new-game-form').addEventListener('submit', startGame)
  document.addEventListener('keydown', (event) => {
    if ($('dialog').open || event.ctrlKey || event.metaKey || event.altKey) return
    if (event.key === 'n') $('dialog').showModal()
    else if (event.key === 'f') $('flip').click()
    else if (event.key === 'u') $('undo').click()
    else if (event.key === 'a') $('analyse').click()
    else if (event.key === 'Escape') cancelTurn()
  })
  setInterval(tick, 100)
  state.config = await api('/api/config')
  fillSeats()
  $('dialog').showModal()
  poll()
}

main().catch((e) => refuse(e.message))
