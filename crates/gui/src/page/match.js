// A match between two engines in the page: its score, the list of its games, and the end of
// each game kept on screen a while before the next one is shown. (Uses app.js's state and
// functions.)
'use strict'

// How long a match's game that ended on screen stays shown before its next game (ms).
const MATCH_PAUSE = 4000

// A match's game: its number and the running score; "Stop match" while games remain.
function renderSeries() {
  const series = state.game.series
  $('series').hidden = !series
  if (!series) return
  const [first, second] = series.names
  const played = series.score[0] + series.score[1]
  const over = series.game === series.games && !!state.game.outcome
  const where = series.stopped ? `stopped after ${played} of ${series.games} games`
    : over ? `over after ${series.games} games` : `game ${series.game} of ${series.games}`
  $('series-text').textContent = `Match, ${where}: ${first} ${series.score[0]} – ${series.score[1]} ${second}`
  $('stop-match').hidden = series.stopped || (series.game === series.games && !!state.game.outcome)
  // Every game of the match, to look at (the one shown marked).
  const list = $('series-games')
  list.hidden = series.played.length < 2
  list.textContent = ''
  for (const game of series.played) {
    const link = document.createElement('a')
    link.href = `#/games/${game.id}`
    link.textContent = `${game.number}${game.over ? (game.winner ? `: ${game.winner}` : ': –') : ' …'}`
    link.title = `game ${game.number} of the match` + (game.over ? (game.winner ? `, won by ${game.winner}` : ', no result') : ', being played')
    if (game.id === state.game.id) link.className = 'shown'
    list.appendChild(link)
  }
  document.body.dataset.series = `${series.game}/${series.games} ${series.score.join('-')}${series.stopped ? ' stopped' : ''}`
}

// A match's game that has ended (`game`, with its next game started): when it was being
// played on screen, its final position and result stay shown for MATCH_PAUSE, then the
// match's latest game is shown (unless another position or game was chosen meanwhile). A
// game of the match opened after its end (from the match's list) stays.
let matchPause = null // the id of the game whose end is being shown
function nextMatchGame(game) {
  if (state.running !== game.id || matchPause === game.id) return
  matchPause = game.id
  setTimeout(async () => {
    if (!state.game || state.game.id !== game.id || state.browse) return
    try {
      let next = await api(`/api/games/${game.series.next}`)
      // On to the latest game if more have been played meanwhile.
      for (let i = 0; i < 100 && next.outcome && next.series && next.series.next !== null; i++) {
        next = await api(`/api/games/${next.series.next}`)
      }
      if (state.game && state.game.id === game.id && !state.browse) showGame(next)
    } catch (e) {
      $('refused').textContent = `The match's next game: ${e.message}`
    }
  }, MATCH_PAUSE)
}

// A match still playing: a game being played, or the next one about to start.
function matchGoesOn(game) {
  const series = game && game.series
  return !!series && !series.stopped && (!game.outcome || series.game < series.games)
}
