// The position editor of `veletas gui`'s page: pieces placed and removed by clicks, the side
// to move, the size and the rules, or a pasted position string. The page only writes the
// string; the server judges it with the rules library (POST /api/position). Loaded before
// app.js, whose globals (state, api, $, ...) these functions use when called.
'use strict'

// The pictures of the pieces, as `veletas render` draws them (from the configuration).
let piecePictures = null
function piecePicture(letter) {
  if (!piecePictures) piecePictures = new DOMParser().parseFromString(state.config.pieces, 'image/svg+xml')
  const found = piecePictures.querySelector(`g.piece[data-piece="${letter}"]`)
  return found ? document.importNode(found, true) : null
}

// The editor's pieces as a position string (the format only: the server judges it).
function composePosition() {
  const e = state.editor
  const ranks = []
  for (let rank = e.size - 1; rank >= 0; rank--) {
    let text = ''
    let run = 0
    for (let file = 0; file < e.size; file++) {
      const piece = e.pieces[squareName(file, rank)]
      if (!piece) { run += 1; continue }
      if (run > 0) text += String(run)
      run = 0
      text += piece
    }
    if (run > 0) text += String(run)
    ranks.push(text)
  }
  const words = [e.toMove]
  if (e.rules === 'modern') words.push('modern')
  return `${ranks.join('/')} ${words.concat(e.extra).join(' ')}`
}

// A position string's pieces, side to move and rule words (the format only).
function readPosition(text) {
  const [board, toMove, ...words] = text.trim().split(/\s+/)
  const ranks = (board || '').split('/')
  const pieces = {}
  ranks.forEach((rank, i) => {
    let file = 0
    for (const m of rank.matchAll(/(\d+)|([sbwBW])/g)) {
      if (m[1]) { file += Number(m[1]); continue }
      pieces[squareName(file, ranks.length - 1 - i)] = m[2]
      file += 1
    }
  })
  return {size: ranks.length, pieces, toMove: toMove === 'w' ? 'w' : 'b',
    rules: words.includes('modern') ? 'modern' : 'classic',
    extra: words.filter((w) => w !== 'modern' && w !== 'classic')}
}

async function openEditor() {
  $('dialog').close()
  const form = $('new-game-form')
  const pasted = $('start-text').value.trim()
  let start
  if (pasted !== '' && !pasted.includes('[') && !pasted.includes('.')) start = readPosition(pasted)
  else if (state.game) start = readPosition(shown().position)
  else {
    start = {size: parseInt(form.size.value, 10), pieces: {}, toMove: 'b', extra: [],
      rules: form.querySelector('input[name=rules]:checked').value}
  }
  if (![7, 9, 10].includes(start.size)) start = {...start, size: 7, pieces: {}}
  state.editor = {...start, piece: 'b', layout: null, svg: null, verdict: null}
  $('panel').hidden = true
  $('graph-area').hidden = true
  $('browsing').hidden = true
  $('eval-bar').hidden = true
  $('editor').hidden = false
  headerButtons(false)
  $('editor-size').value = String(start.size)
  document.querySelector(`input[name=editor-rules][value=${start.rules}]`).checked = true
  document.querySelector(`input[name=editor-to-move][value=${start.toMove}]`).checked = true
  await editorChanged()
}

// The header's buttons act on the game: off while a position is set up.
function headerButtons(on) {
  for (const id of ['new-game', 'undo', 'resign', 'flip']) $(id).disabled = !on
  $('save').classList.toggle('disabled', !on)
  $('save').setAttribute('aria-disabled', String(!on))
  $('save').tabIndex = on ? 0 : -1
}

function closeEditor() {
  state.editor = null
  $('editor').hidden = true
  headerButtons(true)
  if (state.game) render()
  else showStart('', false)
}

// The empty board of each size, drawn by the server.
const emptyBoards = {}
let verdictAsked = 0
async function editorChanged() {
  const e = state.editor
  if (!emptyBoards[e.size]) {
    const empty = Array(e.size).fill(String(e.size)).join('/') + ' b'
    emptyBoards[e.size] = await api('/api/position', {position: empty})
  }
  e.layout = emptyBoards[e.size].layout
  e.svg = emptyBoards[e.size].svg
  const text = composePosition()
  if (document.activeElement !== $('editor-string')) $('editor-string').value = text
  drawEditor()
  const asked = ++verdictAsked
  let verdict
  try {
    const answer = await api('/api/position', {position: text})
    verdict = !answer.valid ? {ok: false, text: answer.error}
      : answer.over ? {ok: false, text: 'The game is over in this position.'}
      : {ok: true, text: `A possible position, ${answer.to_move} to move.`, position: answer.position}
  } catch (err) {
    verdict = {ok: false, text: err.message}
  }
  if (asked !== verdictAsked || !state.editor) return
  e.verdict = verdict
  const line = $('editor-verdict')
  line.textContent = verdict.text
  line.className = verdict.ok ? 'ok' : 'bad'
  $('editor-use').disabled = !verdict.ok
  document.body.dataset.editor = verdict.ok ? verdict.position : ''
}

function drawEditor() {
  const e = state.editor
  const holder = $('board')
  holder.innerHTML = e.svg
  const svg = holder.querySelector('svg')
  svg.removeAttribute('width')
  svg.removeAttribute('height')
  svg.setAttribute('aria-label', 'the board being set up')
  const layer = document.createElementNS(SVG_NS, 'g')
  layer.setAttribute('class', 'pieces')
  for (const [name, letter] of Object.entries(e.pieces)) {
    const picture = piecePicture(letter)
    if (!picture) continue
    const [cx, cy] = center(name)
    picture.setAttribute('transform', `translate(${cx} ${cy})`)
    picture.setAttribute('data-square', name)
    layer.appendChild(picture)
  }
  svg.appendChild(layer)
  const overlay = document.createElementNS(SVG_NS, 'g')
  overlay.setAttribute('class', 'overlay')
  for (let file = 0; file < e.size; file++) {
    for (let rank = 0; rank < e.size; rank++) {
      const name = squareName(file, rank)
      const {x, y, cell} = squareBox(name)
      overlay.appendChild(shape('rect', {class: 'hit', x, y, width: cell, height: cell, 'data-square': name}))
    }
  }
  svg.appendChild(overlay)
}

function editorClick(name) {
  const e = state.editor
  if (e.piece === '' || e.pieces[name] === e.piece) delete e.pieces[name]
  else e.pieces[name] = e.piece
  editorChanged()
}

function setUpEditor() {
  for (const button of document.querySelectorAll('.palette button')) {
    button.addEventListener('click', () => {
      state.editor.piece = button.dataset.piece
      for (const other of document.querySelectorAll('.palette button')) other.classList.toggle('on', other === button)
    })
  }
  $('editor-size').addEventListener('change', () => {
    state.editor.size = parseInt($('editor-size').value, 10)
    state.editor.pieces = {}
    editorChanged()
  })
  for (const input of document.querySelectorAll('input[name=editor-rules]')) {
    input.addEventListener('change', () => { state.editor.rules = input.value; editorChanged() })
  }
  for (const input of document.querySelectorAll('input[name=editor-to-move]')) {
    input.addEventListener('change', () => { state.editor.toMove = input.value; editorChanged() })
  }
  $('editor-clear').addEventListener('click', () => { state.editor.pieces = {}; editorChanged() })
  $('editor-string').addEventListener('input', () => {
    const read = readPosition($('editor-string').value)
    if (![7, 9, 10].includes(read.size)) {
      $('editor-verdict').textContent = 'The board must have 7, 9 or 10 ranks.'
      $('editor-verdict').className = 'bad'
      $('editor-use').disabled = true
      return
    }
    Object.assign(state.editor, read)
    $('editor-size').value = String(read.size)
    document.querySelector(`input[name=editor-rules][value=${read.rules}]`).checked = true
    document.querySelector(`input[name=editor-to-move][value=${read.toMove}]`).checked = true
    editorChanged()
  })
  $('editor-cancel').addEventListener('click', closeEditor)
  $('editor-use').addEventListener('click', () => {
    const verdict = state.editor && state.editor.verdict
    if (!verdict || !verdict.ok) return
    const form = $('new-game-form')
    $('start-text').value = verdict.position
    form.turn.value = ''
    $('from').open = true
    closeEditor()
    openDialog()
  })
  $('open-editor').addEventListener('click', openEditor)
  // A record file read into the box (the server parses it when the game starts).
  $('record-file').addEventListener('change', () => {
    const file = $('record-file').files[0]
    if (!file) return
    if (file.size > 60000) {
      refuse(`${file.name} is over 60 kB: paste the game instead.`)
      return
    }
    const reader = new FileReader()
    reader.onload = () => { $('start-text').value = String(reader.result) }
    reader.readAsText(file)
  })
}

