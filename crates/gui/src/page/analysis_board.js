// The page as an analysis board: variations tried from any position of the game, kept as a
// tree (as Sabaki and lichess keep them: a branch stays until deleted, and can be shown
// again), analysis lines played out on the board, and the evaluation bar beside it. A
// variation never changes the game: its positions come from the server
// (`POST /api/games/ID/variation`), which checks its turns with the rules and gives the
// targets of each click. The tree of each game is kept in the tab's session storage, so
// that a reload keeps it. The win-rate graph under the board is here too. (Uses app.js's
// state and functions.)
'use strict'

// The most turns the variations of one game hold together.
const MAX_VARIATION_TURNS = 2000
// The time between the turns of an analysis line played out on the board (ms).
const PLAY_OUT_STEP = 350
// The most turns of an analysis line played out.
const PLAY_OUT_TURNS = 30

// The variations of the game shown: its roots, each the position after the game's first
// `turn` turns (`prefix`: those turns, which an undo may change) and the turns tried from it,
// each a node {move, children}.
function variationTree() {
  const game = state.game
  // (A server started again on the same port numbers its games from 1 again: the key names
  // the game's board, rules and players too.)
  const id = `${game.id}/${game.size}/${game.rules}/${game.players.join('/')}`
  if (!state.tree || state.tree.id !== id) {
    let roots = []
    try {
      roots = JSON.parse(sessionStorage.getItem(`veletas-variations-${id}`) || '[]')
    } catch (e) {
      roots = []
    }
    // (Stored by this page, but read as outside input: what is not a tree is left out.)
    const node = (n) => !!n && typeof n.move === 'string' && Array.isArray(n.children) && n.children.every(node)
    const root = (r) => !!r && Number.isInteger(r.turn) && typeof r.prefix === 'string' && Array.isArray(r.children) &&
      r.children.every(node)
    state.tree = {id, roots: Array.isArray(roots) ? roots.filter(root) : []}
  }
  return state.tree
}

function saveTree() {
  try {
    sessionStorage.setItem(`veletas-variations-${state.tree.id}`, JSON.stringify(state.tree.roots))
  } catch (e) {
    // (No storage: the variations last as long as the page.)
  }
}

function rootAt(turn, create) {
  const tree = variationTree()
  const prefix = state.game.moves.slice(0, turn).join(' ')
  let root = tree.roots.find((r) => r.turn === turn && r.prefix === prefix)
  if (!root && create) {
    root = {turn, prefix, children: []}
    tree.roots.push(root)
  }
  return root
}

function countTurns(nodes) {
  return nodes.reduce((n, node) => n + 1 + countTurns(node.children), 0)
}

// The nodes after the game's first `turn` turns and the variation `moves` (null: not in the tree).
function nodesAt(turn, moves) {
  const root = rootAt(turn, false)
  let nodes = root ? root.children : []
  for (const move of moves) {
    const node = nodes.find((n) => n.move === move)
    if (!node) return null
    nodes = node.children
  }
  return nodes
}

// Adds the variation `moves` from the position after `turn` turns (its turns already there kept).
function addLine(turn, moves) {
  const tree = variationTree()
  // The variations of positions the game no longer has (turns taken back) go.
  tree.roots = tree.roots.filter((root) => root.prefix === state.game.moves.slice(0, root.turn).join(' ') &&
    root.turn <= state.game.moves.length)
  let total = tree.roots.reduce((n, root) => n + countTurns(root.children), 0)
  let nodes = rootAt(turn, true).children
  for (const move of moves) {
    let node = nodes.find((n) => n.move === move)
    if (!node) {
      if (total >= MAX_VARIATION_TURNS) throw new Error(`The variations hold at most ${MAX_VARIATION_TURNS} turns: delete some.`)
      node = {move, children: []}
      nodes.push(node)
      total += 1
    }
    nodes = node.children
  }
  saveTree()
}

// Shows the position after the game's first `turn` turns and then `moves`.
async function showLine(turn, moves) {
  const view = await api(`/api/games/${state.game.id}/variation`, {turn, moves, picks: []})
  state.browse = {turn, moves: view.moves, picks: [], view}
  state.hover = null
  $('refused').textContent = ''
  render()
}

// One turn back (-1) along the variation shown, or on (1) along its first branch.
async function stepLine(step) {
  const {turn, moves} = state.browse
  state.playing += 1
  if (step < 0) return showLine(turn, moves.slice(0, -1)).catch((e) => refuse(e.message))
  const next = nodesAt(turn, moves)
  if (next && next.length > 0) await showLine(turn, moves.concat([next[0].move])).catch((e) => refuse(e.message))
}

// Deletes the turn shown of a variation and every turn tried after it; the position before
// it is shown.
async function deleteVariation() {
  if (!state.browse || state.browse.moves.length === 0) return
  const {turn, moves} = state.browse
  const parent = nodesAt(turn, moves.slice(0, -1))
  if (parent) {
    const i = parent.findIndex((n) => n.move === moves[moves.length - 1])
    if (i >= 0) parent.splice(i, 1)
  }
  const tree = variationTree()
  tree.roots = tree.roots.filter((root) => root.children.length > 0)
  saveTree()
  state.playing += 1
  await showLine(turn, moves.slice(0, -1))
}

// A click on the board where a turn is tried as a variation: in the position browsed, or
// from the game's own when nobody is to play it here.
async function variationClick(name) {
  if (state.busy) return
  state.playing += 1
  if (!state.browse) {
    if (state.game.outcome) {
      refuse('The game is over.')
      return
    }
    await showLine(state.game.moves.length, [])
  }
  const steps = state.browse.view.steps
  if (!steps) {
    refuse('The game is over in this position: there is no turn to try.')
    return
  }
  if (state.browse.picks.includes(name) && !steps.targets.includes(name)) {
    cancelTurn()
    return
  }
  if (!steps.targets.includes(name)) {
    refuse(`${name} is not possible now: pick ${steps.prompt}.`)
    return
  }
  await variationPick(name)
}

// One more click of the turn tried in the position browsed; a whole turn is added to the
// variations and its position shown.
async function variationPick(name) {
  if (state.busy || !state.browse) return
  state.busy = true
  const browsed = state.browse
  const picks = browsed.picks.concat([name])
  $('refused').textContent = ''
  try {
    const view = await api(`/api/games/${state.game.id}/variation`, {turn: browsed.turn, moves: browsed.moves, picks})
    if (view.steps && view.steps.complete) {
      state.busy = false
      await tryTurn(view.steps.complete)
    } else if (state.browse === browsed) {
      browsed.picks = picks
      browsed.view = view
      render()
    }
  } catch (e) {
    refuse(e.message)
  } finally {
    state.busy = false
  }
}

// The turn `move` tried in the position browsed: added to the variations, its position shown.
async function tryTurn(move) {
  const {turn, moves} = state.browse
  const line = moves.concat([move])
  addLine(turn, line)
  await showLine(turn, line)
}

// An analysis line (a candidate's principal variation) played out on the board from the
// position shown, a turn every PLAY_OUT_STEP ms, as a variation; any other move through the
// positions stops it.
async function playOut(pv) {
  const from = state.browse ? {turn: state.browse.turn, moves: state.browse.moves} : {turn: state.game.moves.length, moves: []}
  // The whole line is checked first: one that is not legal is refused whole.
  const whole = await api(`/api/games/${state.game.id}/variation`,
    {turn: from.turn, moves: from.moves.concat(pv.slice(0, PLAY_OUT_TURNS)), picks: []})
  addLine(from.turn, whole.moves)
  const run = ++state.playing
  for (let k = from.moves.length + 1; k <= whole.moves.length; k++) {
    if (run !== state.playing) return
    await showLine(from.turn, whole.moves.slice(0, k))
    if (k < whole.moves.length) await new Promise((resolve) => setTimeout(resolve, PLAY_OUT_STEP))
  }
}

// The variations from the position after `turn` turns, as an entry of the move list (`list`).
function renderVariations(list, turn) {
  const root = rootAt(turn, false)
  if (!root || root.children.length === 0) return
  const item = document.createElement('li')
  item.className = 'variations'
  item.title = `the variations tried after turn ${turn}`
  for (const node of root.children) item.appendChild(variationLine(turn, [], node))
  list.appendChild(item)
}

// A variation's turns, each a link to its position, and after each turn the other turns tried
// instead of it, nested.
function variationLine(turn, before, node) {
  const line = document.createElement('div')
  line.className = 'variation'
  let path = before
  let others = []
  for (let current = node; current; current = current.children[0]) {
    const from = path
    path = path.concat([current.move])
    const at = path
    const link = document.createElement('span')
    link.className = 'vmove'
    link.textContent = `${turn + at.length}. ${current.move}`
    link.dataset.line = at.join(' ')
    const browsed = state.browse
    if (browsed && browsed.turn === turn && browsed.moves.join(' ') === at.join(' ')) link.classList.add('shown')
    link.addEventListener('click', () => {
      state.playing += 1
      showLine(turn, at).catch((e) => refuse(e.message))
    })
    line.appendChild(link)
    for (const other of others) line.appendChild(variationLine(turn, from, other))
    others = current.children.slice(1)
  }
  return line
}

// The evaluation bar beside the board: Black's chance of winning in the position shown, by
// the best candidate of its analysis (the side to move's chance turned into Black's), Black's
// part on Black's side of the board; grey with no analysis.
function renderEvalBar() {
  const view = shown()
  const best = view.analysis && view.analysis.candidates[0]
  const black = best ? (view.to_move === 'white' ? 1 - best.winrate : best.winrate) : null
  const bar = $('eval-bar')
  bar.hidden = false
  bar.classList.toggle('none', black === null)
  bar.classList.toggle('flipped', state.flipped)
  $('eval-black').style.height = `${black === null ? 50 : black * 100}%`
  $('eval-text').textContent = black === null ? '–' : `${Math.round(black * 100)}%`
  bar.title = black === null
    ? 'Black\'s chance of winning here: no analysis of this position yet (Analyse, or an engine\'s thinking)'
    : `Black's chance of winning here: ${(black * 100).toFixed(1)}% (White's ${(100 - black * 100).toFixed(1)}%), ` +
      `by ${view.analysis.engine}'s analysis`
  document.body.dataset.eval = black === null ? '' : black.toFixed(3)
}

// Black's chance of winning in every position of the game that was analysed (the engines'
// thinking and the analyses asked for), a click on it shows that position.
function drawGraph() {
  const game = state.game
  const area = $('graph-area')
  area.hidden = false
  const holder = $('graph')
  const [width, height, pad, left] = [560, 110, 14, 30]
  const turns = game.moves.length
  const svg = shape('svg', {viewBox: `0 0 ${width} ${height}`, class: 'graph', role: 'img',
    'aria-label': "Black's chance of winning by turn"})
  const x = (t) => left + (turns === 0 ? 0 : (t * (width - left - pad)) / turns)
  const y = (w) => pad / 2 + (1 - w) * (height - pad)
  svg.appendChild(shape('rect', {class: 'graph-white', x: left, y: y(0.5), width: width - left - pad, height: y(0) - y(0.5)}))
  for (const w of [0.25, 0.75]) {
    svg.appendChild(shape('line', {class: 'graph-grid', x1: left, x2: width - pad, y1: y(w), y2: y(w)}))
  }
  svg.appendChild(shape('line', {class: 'graph-half', x1: left, x2: width - pad, y1: y(0.5), y2: y(0.5)}))
  const current = state.browse ? state.browse.turn : turns
  svg.appendChild(shape('line', {class: 'graph-cursor', x1: x(current), x2: x(current), y1: 2, y2: height - 2}))
  let path = ''
  let points = 0
  game.winrates.forEach((w, t) => {
    if (w === null) return
    // The points joined across positions not analysed.
    path += `${path === '' ? 'M' : 'L'}${x(t).toFixed(1)},${y(w).toFixed(1)} `
    svg.appendChild(shape('circle', {class: 'graph-point', cx: x(t), cy: y(w), r: 2.5, 'data-turn': t}))
    points += 1
  })
  if (path) svg.insertBefore(shape('path', {class: 'graph-line', d: path}), svg.querySelector('.graph-point'))
  // The positions before a turn that no analysis valued (a person's turn, a turn chosen without
  // search, one nobody analysed): no point, a tick at the bottom; the line joins their neighbours.
  const gaps = []
  for (let t = 0; points > 0 && t < turns; t++) if (game.winrates[t] === null || game.winrates[t] === undefined) gaps.push(t)
  for (const t of gaps) svg.appendChild(shape('line', {class: 'graph-gap', x1: x(t), x2: x(t), y1: height - pad / 2, y2: height, 'data-turn': t}))
  const title = shape('title', {})
  title.textContent = `Black's chance of winning in the ${points} position${points === 1 ? '' : 's'} analysed` +
    (gaps.length > 0 ? `, the line joined across the ${gaps.length} not analysed (the ticks at the bottom: ` +
      "a person's turn, one chosen without search, or one nobody analysed; Review game analyses them)" : '')
  svg.prepend(title)
  if (points === 0) {
    const text = shape('text', {class: 'graph-empty', x: width / 2, y: height / 4})
    text.textContent = 'no analysis yet: the engines\' thinking and Analyse fill it in'
    svg.appendChild(text)
  }
  for (const w of [1, 0.75, 0.5, 0.25, 0]) {
    const text = shape('text', {class: 'graph-axis', x: left - 3, y: y(w) + 3.5})
    text.textContent = `${w * 100}%`
    svg.appendChild(text)
  }
  svg.addEventListener('click', (event) => {
    const box = svg.getBoundingClientRect()
    const at = ((event.clientX - box.left) / box.width) * width
    const turn = Math.max(0, Math.min(turns, Math.round(turns === 0 ? 0 : ((at - left) * turns) / (width - left - pad))))
    browse(turn)
  })
  holder.textContent = ''
  holder.appendChild(svg)
  document.body.dataset.graphPoints = String(points)
  document.body.dataset.graphGaps = gaps.join(' ')
}
