// The page of `veletas gui`. It knows no rules: the server sends the board (the SVG of
// `veletas render`), the legal targets of each click and the game's state; the page draws
// the targets, refuses clicks elsewhere before sending anything, and follows the game by a
// stream of Server-Sent Events (polling it when the stream cannot be opened).
'use strict'

const SVG_NS = 'http://www.w3.org/2000/svg'
const token = new URLSearchParams(location.search).get('token')
const $ = (id) => document.getElementById(id)

const state = {
  config: null, // {engines: [names], pieces, marks: [[least loss, name, symbol]], the heaviest first}
  game: null, // the server's view of the game
  picks: [], // the clicks of the turn being entered
  steps: null, // the targets of the next click
  flipped: false,
  busy: false, // a turn is being sent
  hover: null, // the analysis candidate under the pointer
  // A position off the game's current one, shown instead of it: the one after the game's
  // first `turn` turns and then the variation `moves` (none: a position of the game), with
  // `picks`, the clicks of a turn being tried there, and `view`, the server's view of it.
  browse: null, // {turn, moves, picks, view}
  tree: null, // the variations tried in the game shown (variations.js)
  analysing: false, // the "Analyse" toggle: analyse every position shown
  editor: null, // the position being set up: {size, rules, extra, pieces, toMove, piece, layout, svg, verdict}
  running: null, // the id of the game last shown before its end (a match's game then shows its end a while)
  playing: 0, // bumped by every move through the positions: an analysis line being played out stops
}

// What the board shows: the game's current position, or the one browsed (a variation's too).
function shown() {
  const game = state.game
  if (state.browse) return {...state.browse.view, live: false}
  return {turn: game.moves.length, moves: [], position: game.position, svg: game.svg, analysis: game.analysis,
    over: !!game.outcome, to_move: game.to_move, live: true}
}

// The targets of the next click on the board shown and the clicks made so far: the game's
// own turn, or a turn tried in the position browsed.
function activeSteps() {
  return state.browse ? state.browse.view.steps : state.steps
}
function activePicks() {
  return state.browse ? state.browse.picks : state.picks
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
  const [left, top, cell] = state.editor ? state.editor.layout : state.game.layout
  const n = state.editor ? state.editor.size : state.game.size
  let file = name.charCodeAt(0) - 97
  let rank = parseInt(name.slice(1), 10) - 1
  if (state.flipped && !state.editor) {
    file = n - 1 - file
    rank = n - 1 - rank
  }
  return {x: left + file * cell, y: top + (n - 1 - rank) * cell, cell}
}

function drawBoard() {
  const game = state.game
  const holder = $('board')
  holder.innerHTML = shown().svg
  const svg = holder.querySelector('svg')
  svg.removeAttribute('width')
  svg.removeAttribute('height')
  svg.setAttribute('aria-label', `the board, ${game.to_move} to move`)
  if (state.flipped) flip(svg)
  const overlay = document.createElementNS(SVG_NS, 'g')
  overlay.setAttribute('class', 'overlay')
  const steps = activeSteps()
  const targets = new Set(steps ? steps.targets : [])
  for (const name of activePicks()) {
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
  const analysis = drawAnalysis(svg)
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

// A disc on square `name` of the board `svg`: in the middle of an empty square, and in its
// corner, smaller, over a piece, so that no disc hides a shooter (a shot at the square the
// shooter leaves, a line's later turn on a square taken now).
function spot(svg, name, kind, spotClass, labelClass, text) {
  const {x, y, cell} = squareBox(name)
  const covered = !!svg.querySelector(`.pieces [data-square="${name}"]`)
  const r = covered ? 8 : kind === 'pv' ? 12 : 13
  const [cx, cy] = covered ? [x + cell - r - 1, y + r + 1] : [x + cell / 2, y + cell / 2]
  const corner = covered ? ' corner' : ''
  const group = document.createElementNS(SVG_NS, 'g')
  group.appendChild(shape('circle', {class: `${kind}-spot ${spotClass}${corner}`, cx, cy, r, 'data-square': name}))
  const label = shape('text', {class: `${kind}-label ${labelClass}${corner}`, x: cx, y: cy + (covered ? 3 : 4)})
  label.textContent = text
  group.appendChild(label)
  return group
}

// The analysis on the board: for the best candidates an arrow for the shooter's move and a
// disc with its win rate where it places a stone; for the candidate under the pointer its
// principal variation, each turn numbered, in the colour of the side that plays it.
function drawAnalysis(svg) {
  const analysis = shown().analysis
  if (!analysis || analysis.candidates.length === 0) return null
  const layer = document.createElementNS(SVG_NS, 'g')
  layer.setAttribute('class', 'analysis-layer')
  if (state.hover !== null && analysis.candidates[state.hover]) {
    drawVariation(svg, layer, analysis.candidates[state.hover].pv)
    return layer
  }
  // The arrows first, then the discs, so that no line crosses a win rate.
  const candidates = analysis.candidates.slice(0, 5).reverse()
  for (const candidate of candidates) {
    const squares = turnSquares(candidate.move)
    if (!squares.from) continue
    const [x1, y1] = center(squares.from)
    const [x2, y2] = center(squares.to)
    const best = candidate === analysis.candidates[0]
    layer.appendChild(shape('line', {class: 'analysis-arrow', x1, y1, x2, y2, 'stroke-width': best ? 5 : 3}))
  }
  candidates.forEach((candidate) => {
    const best = candidate === analysis.candidates[0]
    const squares = turnSquares(candidate.move)
    for (const name of squares.placed) {
      layer.appendChild(spot(svg, name, 'analysis', best ? 'best' : '', '', String(Math.round(candidate.winrate * 100))))
    }
  })
  return layer
}

// A principal variation on the board: the turns numbered from 1, the shooter's move as
// an arrow, discs in the colour of the side that plays each turn (the side to move first;
// the page knows no rules, so a setup's or a swap's colours are taken as alternating).
function drawVariation(svg, layer, pv) {
  const first = shown().position.trim().endsWith(' w') ? 'white' : 'black'
  pv.slice(0, 8).forEach((move, i) => {
    const colour = (i % 2 === 0) === (first === 'black') ? 'black' : 'white'
    const squares = turnSquares(move)
    if (squares.from) {
      const [x1, y1] = center(squares.from)
      const [x2, y2] = center(squares.to)
      // White's light line on the light board: on a dark casing, as a white stone's edge.
      if (colour === 'white') layer.appendChild(shape('line', {class: 'pv-casing', x1, y1, x2, y2}))
      layer.appendChild(shape('line', {class: `pv-arrow ${colour}`, x1, y1, x2, y2}))
    }
    for (const name of squares.placed) layer.appendChild(spot(svg, name, 'pv', colour, colour, String(i + 1)))
  })
}

function renderAnalysis() {
  const game = state.game
  const view = shown()
  const analysis = view.analysis
  const table = $('analysis')
  const body = table.querySelector('tbody')
  body.textContent = ''
  $('analysis-engine').hidden = state.config.engines.length < 2
  // The candidates' win rates are the chance of the side to move in the position shown.
  const side = view.to_move === 'white' ? 'White' : 'Black'
  const whose = $('analysis').querySelector('thead th.win')
  whose.textContent = `${side} wins`
  whose.title = `the chance that ${side}, to move here, wins after the turn`
  $('analyse').setAttribute('aria-pressed', String(state.analysing))
  $('analyse').classList.toggle('on', state.analysing)
  if (!analysis) {
    table.hidden = true
    // Analyse pressed where nothing can be analysed, or refused: said where the analysis goes.
    $('analysis-state').textContent = state.analysing && view.over
      ? 'The game is over in this position: there is nothing to analyse.'
      : state.analysing && state.analysisNote ? state.analysisNote
        : view.live && game.thinking ? 'the engine thinks (no analysis shown)' : ''
    $('pv').textContent = ''
    return
  }
  const visits = analysis.candidates.reduce((sum, c) => sum + c.visits, 0)
  const who = analysis.thinking ? `${analysis.engine}'s thinking` : `${analysis.engine}'s view`
  $('analysis-state').textContent = analysis.error ? `${analysis.engine}: ${analysis.error}`
    : analysis.running ? `${who}… ${visits} visits` : `${who}, ${visits} visits`
  // (A game ended by a resignation or on time keeps the analysis of its last position.)
  if (state.analysing && view.over && !analysis.running) {
    $('analysis-state').textContent += '. The game is over in this position: there is nothing more to analyse.'
  }
  table.hidden = analysis.candidates.length === 0
  analysis.candidates.forEach((candidate, i) => {
    const row = document.createElement('tr')
    if (i === 0) row.className = 'best'
    for (const text of [candidate.move, `${(candidate.winrate * 100).toFixed(1)}%`, String(candidate.visits)]) {
      const cell = document.createElement('td')
      cell.textContent = text
      row.appendChild(cell)
    }
    row.addEventListener('mouseenter', () => {
      state.hover = i
      drawBoard()
      $('pv').textContent = candidate.pv.map((m, k) => `${k + 1}. ${m}`).join('  ')
    })
    row.addEventListener('mouseleave', () => { state.hover = null; drawBoard(); $('pv').textContent = '' })
    row.title = 'Click to play this line out on the board, as a variation (the game is not changed)'
    row.addEventListener('click', () => playOut(candidate.pv).catch((e) => refuse(e.message)))
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
  if (hit && state.editor) {
    editorClick(hit.getAttribute('data-square'))
    return
  }
  if (!hit || !state.game) return
  const name = hit.getAttribute('data-square')
  // A position browsed, or the game's own when no person is to move in it: a turn tried
  // there is a variation.
  const watched = !state.game.persons.some((p) => p) || !!state.game.outcome
  if (state.browse || (watched && !state.steps)) {
    await variationClick(name)
    return
  }
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
  // A view the stream sent while the turn was on its way (the engine's answer) is shown now.
  if (live && live.latest) await received(live.latest).catch(() => {})
}

function cancelTurn() {
  if (state.browse) {
    state.browse.picks = []
    $('refused').textContent = ''
    reloadBrowse().then(render).catch((e) => refuse(e.message))
    return
  }
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
    if (game.clocks[i] !== null) {
      // A side that lost on time has no time left.
      const flagged = game.outcome && game.outcome.termination === 'time forfeit' && game.outcome.winner !== colour
      const left = flagged ? 0 : Math.max(0, game.clocks[i] - now)
      clock.textContent = formatTime(left)
      clock.classList.toggle('low', running && left < 10)
      clock.title = `time left (${game.time_controls[i]})`
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
  if (!game || state.editor) return
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
  renderSeries()
  // While browsing: the browsed position's own lines (who is to move there, its claims).
  const status = $('status')
  status.textContent = ''
  const lines = state.browse ? state.browse.view.status : game.status
  lines.forEach((line, i) => {
    const div = document.createElement('div')
    div.textContent = line
    if (i === 0 && game.outcome && !state.browse) div.className = 'result'
    status.appendChild(div)
  })
  // While browsing, the game's own prompt is not the position's: the page says what it shows.
  const steps = activeSteps()
  const browsed = state.browse
  const trying = steps ? ` Click ${steps.prompt} to try a turn.` : ''
  $('prompt').textContent = !browsed ? (steps ? `Click ${steps.prompt}.` : '')
    : browsed.moves.length > 0
      ? `A variation from turn ${browsed.turn}, ${browsed.moves.length} turn${browsed.moves.length > 1 ? 's' : ''} (the game is not changed).${trying}`
      : `Browsing turn ${browsed.turn} of ${game.moves.length}: Back to the game (End) to play.${trying}`
  $('prompt').classList.toggle('browsing', !!browsed)
  $('no-move').hidden = !(steps && steps.no_move)
  $('swap').hidden = !(steps && steps.swap)
  $('cancel').hidden = activePicks().length === 0
  headerButtons(true)
  $('undo').disabled = !game.can_undo
  $('resign').disabled = !!game.outcome || !game.persons.some((p) => p)
  $('save').href = url(`/api/games/${game.id}/record`)
  $('save').setAttribute('download', `veletas-game-${game.id}.txt`)
  const list = $('moves')
  list.textContent = ''
  renderVariations(list, 0)
  let mover = 'black'
  game.moves.forEach((move, i) => {
    const li = document.createElement('li')
    const disc = document.createElement('span')
    disc.className = `disc small ${mover}`
    const number = document.createElement('span')
    number.className = 'number'
    number.textContent = `${i + 1}.`
    const text = document.createElement('span')
    text.className = 'move'
    text.textContent = move
    li.append(number, disc, text)
    li.title = `the position after turn ${i + 1}`
    // The turn's evaluation: Black's chance after it, and a mark when it lowered its mover's
    // chance by a threshold or more (by the analyses of the positions before and after it).
    const [before, after] = [game.winrates[i], game.winrates[i + 1]]
    if (after !== null && after !== undefined) {
      const rate = document.createElement('span')
      rate.className = 'rate'
      rate.textContent = `${Math.round(after * 100)}`
      li.appendChild(rate)
      li.title += `; Black's chance then ${(after * 100).toFixed(1)}%`
    }
    // The engine's best line from the position before the turn (its analysis, a review's or a record's).
    const best = game.lines && game.lines[i]
    if (best && best.length > 0) {
      const line = best.map((m, k) => `${k + 1}. ${m}`).join('  ')
      li.title += `; best line before it: ${line}`
      li.dataset.line = best.join(' ')
      if (state.browse && state.browse.turn === i + 1 && state.browse.moves.length === 0) {
        const shownLine = document.createElement('div')
        shownLine.className = 'best-line'
        shownLine.textContent = `best line before it: ${line}`
        li.appendChild(shownLine)
        li.classList.add('with-line')
      }
    }
    if (before !== null && before !== undefined && after !== null && after !== undefined) {
      const lost = mover === 'black' ? before - after : after - before
      // The thresholds are the server's (veletas_tools::marks, the ones `veletas view` marks with).
      const mark = state.config.marks.find(([at]) => lost >= at - 1e-9)
      if (mark) {
        const sign = document.createElement('span')
        sign.className = 'mark'
        sign.textContent = mark[2]
        text.after(sign)
        li.classList.add(mark[1])
        li.title += `; ${mark[1]}: ${mover} lost ${Math.round(lost * 100)} points of its chance`
      }
    }
    if (state.browse && state.browse.turn === i + 1 && state.browse.moves.length === 0) li.classList.add('shown')
    li.addEventListener('click', () => browse(i + 1))
    list.appendChild(li)
    // The variations tried instead of the next turn, after this one (those from the start first).
    renderVariations(list, i + 1)
    // White's swap leaves White to move again.
    if (move !== 'swap') mover = mover === 'black' ? 'white' : 'black'
  })
  if (!state.browse) list.scrollTop = list.scrollHeight
  document.body.dataset.version = String(game.version)
  $('browsing').hidden = !state.browse
  $('delete-variation').hidden = !(state.browse && state.browse.moves.length > 0)
  if (state.browse) {
    const line = state.browse.moves.length
    $('browsing-text').textContent = line > 0
      ? `A variation: turn ${state.browse.turn} of the game, then ${line} turn${line > 1 ? 's' : ''} tried`
      : `The position after turn ${state.browse.turn} of ${game.moves.length}` + (state.browse.turn === 0 ? ' (the start)' : '')
  }
  document.body.dataset.browse = state.browse ? String(state.browse.turn) : ''
  document.body.dataset.line = state.browse ? state.browse.moves.join(' ') : ''
  renderAnalysis()
  renderReview()
  renderEvalBar()
  drawGraph()
  keepAnalysing()
  document.body.dataset.picks = state.picks.join(' ')
  document.body.dataset.game = String(game.id)
  document.body.dataset.position = game.position
}

// ---- the win-rate graph and browsing the game ----

// Shows the position after `turn` turns (the game's own when it is the last).
async function browse(turn) {
  const game = state.game
  if (!game) return
  turn = Math.max(0, Math.min(game.moves.length, turn))
  state.hover = null
  state.playing += 1
  if (turn === game.moves.length) {
    state.browse = null
    render()
    return
  }
  try {
    await showLine(turn, [])
  } catch (e) {
    refuse(e.message)
  }
}

// With "Analyse" on: the position shown is analysed, unless it is, or an engine's thinking
// is shown there, or it is over.
let analysisAsked = null
async function keepAnalysing() {
  const game = state.game
  if (!state.analysing || !game || state.busy) return
  const view = shown()
  const analysis = view.analysis
  if (view.over || (view.live && game.thinking) || (analysis && analysis.running)) return
  const key = `${game.id}/${view.turn}/${view.moves.join(' ')}/${view.position}`
  if (analysisAsked === key) return
  analysisAsked = key
  state.analysisNote = null
  try {
    const engine = parseInt($('analysis-engine').value || '0', 10)
    const body = {engine, seconds: 600}
    if (!view.live) {
      body.turn = view.turn
      body.moves = view.moves
    }
    const changed = await api(`/api/games/${game.id}/analyse`, body)
    await reloadBrowse()
    // (The stream may have brought a newer view meanwhile: its first report.)
    if (state.game && state.game.id === changed.id && changed.version >= state.game.version) showGame(changed)
  } catch (e) {
    state.analysisNote = `Cannot analyse: ${e.message}`
    renderAnalysis()
  }
}

// The browsed position's view again (its analysis changed), with the clicks made in it.
async function reloadBrowse() {
  const browsed = state.browse
  if (!browsed || !state.game) return
  const body = {turn: browsed.turn, moves: browsed.moves, picks: browsed.picks}
  const view = await api(`/api/games/${state.game.id}/variation`, body).catch(() => null)
  if (view && state.browse === browsed) browsed.view = view
}

async function toggleAnalysis() {
  if (!state.game) return
  state.analysing = !state.analysing
  analysisAsked = null
  state.analysisNote = null
  if (!state.analysing) {
    try {
      const changed = await api(`/api/games/${state.game.id}/analyse/stop`, {})
      await reloadBrowse()
      if (state.game && state.game.id === changed.id && changed.version >= state.game.version) showGame(changed)
    } catch (e) {
      refuse(e.message)
    }
  }
  render()
}

// ---- the whole-game review ----

// The review's button (Review game, or Stop review while it runs) and its progress.
function renderReview() {
  const game = state.game
  const review = game.review
  const running = !!(review && review.running)
  const button = $('review')
  button.textContent = running ? 'Stop review' : 'Review game'
  button.setAttribute('aria-pressed', String(running))
  button.classList.toggle('on', running)
  button.disabled = !running && game.moves.length === 0
  $('review-state').textContent = !review ? ''
    : running ? `${review.engine} reviews the game: ${review.done} of ${review.total} positions`
      : review.error ? `${review.engine}'s review: ${review.error} (${review.done} of ${review.total} positions)`
        : `Reviewed by ${review.engine}: ${review.total} positions`
  document.body.dataset.review = !review ? '' : running ? 'running' : review.error ? 'ended' : 'done'
  document.body.dataset.reviewed = review ? String(review.done) : ''
}

// Starts a review of the game with the engine chosen for analyses, or stops the one running.
async function toggleReview() {
  const game = state.game
  if (!game || state.busy) return
  const running = !!(game.review && game.review.running)
  try {
    const seconds = parseFloat($('review-seconds').value)
    const body = running ? {} : {engine: parseInt($('analysis-engine').value || '0', 10), seconds: seconds > 0 ? seconds : 1}
    const changed = await api(`/api/games/${game.id}/review${running ? '/stop' : ''}`, body)
    if (state.game && state.game.id === changed.id && changed.version >= state.game.version) showGame(changed)
  } catch (e) {
    refuse(e.message)
  }
}

// Shows the server's view of the game. The turn being entered is kept unless the position
// changed (an analysis report changes the view but not the position).
function showGame(game) {
  const moved = !state.game || state.game.id !== game.id || state.game.position !== game.position ||
    state.game.moves.length !== game.moves.length || !game.steps
  if (state.game && state.game.id !== game.id) state.browse = null
  if (state.browse && state.browse.turn > game.moves.length) state.browse = null
  state.game = game
  if (!game.outcome) state.running = game.id
  // The game's own address: a reload or another tab on it shows it and goes on with it.
  const hash = `#/games/${game.id}`
  if (location.hash !== hash) {
    if (/^#\/games\/\d+$/.test(location.hash)) history.pushState(null, '', hash)
    else history.replaceState(null, '', hash)
  }
  if (moved) {
    state.picks = []
    state.steps = game.steps
  }
  render()
  follow()
  if (pollTimer !== null) schedulePoll()
  // How long after the turn was played (an engine's reply read) the board shows it.
  if (moved && game.moved_at > 0) document.body.dataset.delay = String(Date.now() - game.moved_at)
}

// A view of the current game that came from its stream of live updates: shown unless it
// is older than the one shown. A match's game over moves on to its next game.
async function received(game) {
  const id = game.id
  const current = () => !state.busy && state.game && state.game.id === id
  if (!current()) return
  if (game.outcome && game.series && game.series.next !== null && !state.browse) {
    // A match's game over: its end shown a while, then on to its next game.
    if (game.version > state.game.version) showGame(game)
    nextMatchGame(game)
  } else if (game.version > state.game.version) {
    // A browsed position's analysis is in its own view.
    await reloadBrowse()
    if (current() && game.version > state.game.version) showGame(game)
  }
}

// The live updates of the game shown: a stream of Server-Sent Events of its view
// (`/api/games/ID/events`). While it is not open (a refusal: too many streams; a dropped
// connection, which the browser opens again; the game closed) the page polls instead.
let live = null // {id, source, open, latest}
function follow() {
  const id = state.game ? state.game.id : null
  if (live && live.id === id) return
  if (live && live.source) live.source.close()
  live = null
  if (id === null || typeof EventSource === 'undefined') return
  const stream = {id, source: new EventSource(url(`/api/games/${id}/events`)), open: false, latest: null}
  live = stream
  stream.source.onopen = () => { stream.open = true; document.body.dataset.updates = 'events' }
  stream.source.onmessage = (event) => {
    stream.latest = JSON.parse(event.data)
    received(stream.latest).catch((e) => { $('refused').textContent = `The server does not answer: ${e.message}` })
  }
  const lost = () => {
    stream.open = false
    document.body.dataset.updates = 'polling'
    // Refused or over: polled from now on (the browser does not try it again).
    if (stream.source.readyState === EventSource.CLOSED) stream.source = null
    schedulePoll(0)
  }
  stream.source.onerror = lost
  stream.source.addEventListener('end', () => { stream.source.close(); lost() })
}

// Polls the game's view while its stream is not open: every 50 ms while an engine thinks
// or analyses, every 600 ms otherwise; a change made here (a turn, a new game) polls again
// at once. While the stream is open it only shows its latest view if a turn being sent
// held it back.
let pollTimer = null
async function poll() {
  clearTimeout(pollTimer)
  pollTimer = null
  follow()
  if (live && live.open) {
    if (live.latest && !state.busy) await received(live.latest).catch(() => {})
  } else if (state.game && !state.busy) {
    try {
      const id = state.game.id
      let game = await api(`/api/games/${id}`)
      const current = () => !state.busy && state.game && state.game.id === id
      if (game.outcome && game.series && game.series.next !== null && !state.browse) {
        // A match's game over: its end shown a while, then on to its next game.
        if (current() && game.version > state.game.version) showGame(game)
        nextMatchGame(game)
      } else if (current() && game.version > state.game.version) {
        // (A new game may have started while the answer was on its way; a newer view may
        // have come by the stream meanwhile, which an older answer must not replace: the
        // board would stay on an earlier turn.) A browsed position's analysis is in its own view.
        await reloadBrowse()
        showGame(game)
      }
    } catch (e) {
      $('refused').textContent = `The server does not answer: ${e.message}`
    }
  }
  schedulePoll()
}

function schedulePoll(delay) {
  const running = (view) => view && view.analysis && view.analysis.running
  const reviewing = state.game && state.game.review && state.game.review.running
  const busy = state.game && (state.game.thinking || running(state.game) || reviewing || (state.browse && running(state.browse.view)) ||
    matchGoesOn(state.game))
  const streamed = live && live.open
  clearTimeout(pollTimer)
  pollTimer = setTimeout(poll, delay !== undefined ? delay : streamed ? 250 : busy ? 50 : 600)
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
  // Each side's time: a clock (with byo-yomi) when one is given, else seconds per move.
  const time = (side) => {
    const clock = form[`clock_${side}`].value.trim()
    const byoyomi = form[`byoyomi_${side}`].value.trim()
    if (clock === '' && byoyomi === '') return {movetime: parseFloat(form[`movetime_${side}`].value) || 1}
    const time = {}
    if (clock !== '') time.clock = clock
    if (byoyomi !== '') time.byoyomi = byoyomi
    return time
  }
  const request = {
    size: parseInt(form.size.value, 10),
    rules: form.querySelector('input[name=rules]:checked').value,
    black: seat(form.black.value),
    white: seat(form.white.value),
    black_time: time('black'),
    white_time: time('white'),
    thinking: form.thinking.checked,
  }
  const games = parseInt(form.games.value, 10) || 1
  if (games > 1) request.games = games
  if ($('start-text').value.trim() !== '') request.start = $('start-text').value
  if (form.turn.value !== '') request.turn = parseInt(form.turn.value, 10)
  // The dialog stays open until the game has started (its engines too): a refusal is
  // shown in it, to be put right there.
  const said = $('dialog-error')
  const engines = request.black !== null || request.white !== null
  said.textContent = engines ? 'Starting the engines…' : 'Starting…'
  said.className = 'pending'
  $('start').disabled = true
  try {
    const game = await api('/api/games', request)
    said.textContent = ''
    $('dialog').close()
    if (state.editor) closeEditor()
    state.flipped = request.black !== null && request.white === null
    state.game = null
    state.browse = null
    showGame(game)
    $('refused').textContent = ''
  } catch (e) {
    said.textContent = e.message
    said.className = 'bad'
  } finally {
    $('start').disabled = false
  }
}

function openDialog() {
  $('dialog-error').textContent = ''
  if (!$('dialog').open) $('dialog').showModal()
}

// ---- the start page and the games' addresses ----

// What the address names: a game (`#/games/ID`), shown and followed; else the start page.
let routed = 0
async function route() {
  const asked = ++routed
  const m = /^#\/games\/(\d+)$/.exec(location.hash)
  if (!m) {
    await showStart('', true)
    return
  }
  const id = Number(m[1])
  if (state.game && state.game.id === id) return
  try {
    const game = await api(`/api/games/${id}`)
    if (asked !== routed) return
    if (state.editor) closeEditor()
    // A person playing White against an engine sees the board from White's side.
    state.flipped = !game.persons[0] && game.persons[1]
    state.game = null
    state.browse = null
    showGame(game)
  } catch (e) {
    if (asked === routed) await showStart(`Game ${id} is not open in the server (${e.message}).`, false)
  }
}

// The start page: the games open in the server, each a link to its address (a match's
// games too), and New game; with no game open, the New game dialog opens (when `dialog`).
async function showStart(notice, dialog) {
  state.game = null
  state.browse = null
  state.picks = []
  state.steps = null
  follow()
  if (location.hash !== '' && location.hash !== '#/' && !notice) history.replaceState(null, '', '#/')
  $('panel').hidden = true
  $('graph-area').hidden = true
  $('browsing').hidden = true
  $('eval-bar').hidden = true
  headerButtons(false)
  $('new-game').disabled = false
  document.body.dataset.game = ''
  let games = []
  try {
    games = (await api('/api/games')).games
  } catch (e) {
    notice = `The server does not answer: ${e.message}`
  }
  if (state.game || state.editor) return
  const page = document.createElement('div')
  page.id = 'start-page'
  const heading = document.createElement('h2')
  heading.textContent = games.length > 0 ? 'Open games' : 'No game is open'
  page.appendChild(heading)
  if (notice) {
    const p = document.createElement('p')
    p.className = 'notice'
    p.textContent = notice
    page.appendChild(p)
  }
  const list = document.createElement('ul')
  list.id = 'open-games'
  for (const game of games) {
    const link = document.createElement('a')
    link.href = `#/games/${game.id}`
    const title = document.createElement('b')
    title.textContent = `${game.players[0]} – ${game.players[1]}`
    const meta = document.createElement('div')
    meta.className = 'meta'
    const match = game.series ? `match game ${game.series[0]} of ${game.series[1]} · ` : ''
    meta.textContent = `${match}${game.size} × ${game.size} ${game.rules} · ${game.turns} turns · ${game.status}`
    link.append(title, meta)
    const item = document.createElement('li')
    item.appendChild(link)
    list.appendChild(item)
  }
  page.appendChild(list)
  const hint = document.createElement('p')
  hint.className = 'welcome'
  hint.innerHTML = 'Choose <b>New game</b> to play.'
  page.appendChild(hint)
  $('board').textContent = ''
  $('board').appendChild(page)
  document.body.dataset.start = String(games.length)
  if (dialog && games.length === 0 && !notice) openDialog()
}

async function main() {
  // On the press, not the click: the board is drawn anew at every change (an engine's
  // move, an analysis report), and a click whose press and release fall on two drawings
  // of the board would be lost.
  $('board').addEventListener('pointerdown', (event) => { if (event.button === 0) onBoardClick(event) })
  $('no-move').addEventListener('click', () => {
    const steps = activeSteps()
    if (steps && steps.no_move) (state.browse ? variationPick('-') : pick('-'))
  })
  $('delete-variation').addEventListener('click', () => deleteVariation().catch((e) => refuse(e.message)))
  $('swap').addEventListener('click', async () => {
    if (state.browse) {
      if (state.browse.view.steps && state.browse.view.steps.swap) await tryTurn('swap').catch((e) => refuse(e.message))
      return
    }
    if (!state.game || !state.steps || !state.steps.swap) return
    try {
      showGame(await api(`/api/games/${state.game.id}/play`, {move: 'swap'}))
    } catch (e) {
      refuse(e.message)
    }
  })
  $('cancel').addEventListener('click', cancelTurn)
  $('analyse').addEventListener('click', toggleAnalysis)
  $('review').addEventListener('click', toggleReview)
  $('analysis-engine').addEventListener('change', () => { analysisAsked = null; keepAnalysing() })
  $('back-to-game').addEventListener('click', () => state.game && browse(state.game.moves.length))
  $('undo').addEventListener('click', () => command('undo'))
  $('stop-match').addEventListener('click', () => command('close'))
  $('resign').addEventListener('click', () => {
    if (confirm('Resign this game?')) command('resign')
  })
  $('flip').addEventListener('click', () => {
    state.flipped = !state.flipped
    render()
  })
  $('new-game').addEventListener('click', openDialog)
  $('dialog-cancel').addEventListener('click', () => $('dialog').close())
  $('new-game-form').addEventListener('submit', startGame)
  setUpEditor()
  document.addEventListener('keydown', (event) => {
    if ($('dialog').open || state.editor || event.ctrlKey || event.metaKey || event.altKey) return
    if (event.key === 'n') openDialog()
    else if (event.key === 'f') $('flip').click()
    else if (event.key === 'u') $('undo').click()
    else if (event.key === 'a') $('analyse').click()
    else if (event.key === 'r') $('review').click()
    else if (event.key === 'Escape') cancelTurn()
    else if (state.game && event.key === 'ArrowLeft' && state.browse && state.browse.moves.length > 0) stepLine(-1)
    else if (state.game && event.key === 'ArrowRight' && state.browse && state.browse.moves.length > 0) stepLine(1)
    else if (state.game && event.key === 'ArrowLeft') browse((state.browse ? state.browse.turn : state.game.moves.length) - 1)
    else if (state.game && event.key === 'ArrowRight' && state.browse) browse(state.browse.turn + 1)
    else if (state.game && event.key === 'Delete' && state.browse) $('delete-variation').click()
    else if (state.game && event.key === 'Home') browse(0)
    else if (state.game && event.key === 'End') browse(state.game.moves.length)
  })
  setInterval(tick, 100)
  state.config = await api('/api/config')
  fillSeats()
  window.addEventListener('hashchange', () => route().catch((e) => refuse(e.message)))
  await route()
  poll()
}

main().catch((e) => refuse(e.message))
