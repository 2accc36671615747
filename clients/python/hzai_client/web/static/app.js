// The page: a match against the bot (created, resumed and played through MatchService),
// the analysis panel (BotService.Analyze) and the review of a record. The match id and
// the seat token live in localStorage, so a reload resumes the match; a finished game is
// kept there too (its record, last view and narration), and so is a hot seat's cover.
import { RpcError, bot, match } from "./rpc.js";
import { drawBoard, el, wireClicks } from "./board.js";
import { drawBelief, drawGraph, drawMoves } from "./analysis.js";
import { drawingOf } from "./details.js";
import { clickOfLegends, drawLegends, legendsSeats } from "./legends.js";
import { drawBuilder } from "./builder.js";

const STORE = "hzai-web-match";
const $ = (id) => document.getElementById(id);
const state = { games: [], info: null, matchId: null, token: null, seat: 0, status: null, view: null,
                legal: [], previous: null, busy: false, values: {}, mode: "play", review: null,
                tokens: null, hot: false, handover: false, cover: null, finished: null };
// tokens: seat -> token of every human seat (hot seat); handover: the screen is covered
// for the next person (cover: what the status line says meanwhile, nothing of any seat);
// finished: a game over whose match is deleted, kept in the page ({status, view, board, log})

function showError(text) { const box = $("error"); box.textContent = text; box.hidden = !text; }
function problem(err) { return err instanceof RpcError ? `${err.message} (${err.code})` : String(err.message || err); }
const seatName = (seat) => (state.status?.seats || state.cover?.seats || state.info?.seats || [])[seat] ?? `seat ${seat}`;

function saveMatch() {
  const over = Boolean(state.finished); // a finished game's match is deleted: its tokens are of no use
  localStorage.setItem(STORE, JSON.stringify({ matchId: state.matchId, token: over ? null : state.token, seat: state.seat,
                                              tokens: over ? null : state.tokens, hot: state.hot, commitment: state.commitment,
                                              handover: state.handover, cover: state.cover, finished: state.finished }));
}
// The evaluations of the graph, kept per match (per seat in a hot seat: each person's own).
const valuesKey = () => `${STORE}:values:${state.matchId}${state.hot ? `:${state.seat}` : ""}`;
function loadValues() { try { return JSON.parse(localStorage.getItem(valuesKey())) || {}; } catch { return {}; } }
function saveValues() { localStorage.setItem(valuesKey(), JSON.stringify(state.values)); }

// ---------- new game ----------
function fillForm() {
  const game = $("ng-game");
  game.replaceChildren(...state.games.map((g) => el("option", { value: g.name, text: g.title || g.name })));
  const refill = () => {
    const info = state.games.find((g) => g.name === game.value);
    const seats = formSeats(info);
    $("ng-legends").hidden = info.name !== "legends";
    $("ng-seat").replaceChildren(...seats.map((s, i) => el("option", { value: String(i), text: s })));
    $("ng-first").replaceChildren(el("option", { value: "", text: "the game's default" }),
                                  ...seats.map((s) => el("option", { value: s, text: s })));
    $("ng-bot").replaceChildren(...(info.bots || []).map((b) => el("option", { value: b, text: b })));
    // Strength levels 1..maxLevel are of the ismcts bot; the top one is full strength.
    const top = info.maxLevel || 0;
    $("ng-level").replaceChildren(el("option", { value: "0", text: "full strength" }),
                                  ...Array.from({ length: Math.max(0, top - 1) }, (_, i) =>
                                    el("option", { value: String(i + 1), text: `${i + 1} of ${top}` })));
    $("ng-bot").onchange = () => { $("ng-level").disabled = $("ng-bot").value !== "ismcts"; };
    $("ng-bot").onchange();
    $("ng-help").textContent = info.paramsHelp ? `Parameters: ${info.paramsHelp}` : "";
    // "Who starts" and "Turn limit" set parameters that not every game takes
    for (const [id, param] of FORM_PARAMS) $(id).closest("label").hidden = !takes(info, param);
  };
  game.onchange = refill;
  $("ng-heroes").onchange = refill;
  refill();
}

// The form's fields that set a game parameter, offered for a game that takes it (or whose
// parameters the page does not know: the service then says what it refuses).
const FORM_PARAMS = [["ng-first", "first_player"], ["ng-turns", "turn_limit"]];
const gameParams = new Map(); // game name -> Set of its parameters, from GET /capabilities
const takes = (info, param) => !gameParams.has(info.name) || gameParams.get(info.name).has(param);
const offered = (id) => !$(id).closest("label").hidden;

// Legends' seats follow from the heroes named in the form; other games list theirs.
const formHeroes = () => $("ng-heroes").value.split(",").map((h) => h.trim()).filter(Boolean);
const formSeats = (info) => (info.name === "legends" ? legendsSeats(formHeroes()) : info.seats);

function formParams() {
  let params;
  try { params = JSON.parse($("ng-params").value || "{}"); } catch (err) { throw new Error(`More parameters: not JSON (${err.message})`); }
  if (typeof params !== "object" || params === null || Array.isArray(params)) throw new Error("More parameters: give a JSON object");
  if ($("ng-first").value && offered("ng-first")) params.first_player = $("ng-first").value;
  if ($("ng-turns").value && offered("ng-turns")) params.turn_limit = Number($("ng-turns").value);
  if ($("ng-game").value === "legends") {
    Object.assign(params, { mission: Number($("ng-mission").value), difficulty: $("ng-difficulty").value, heroes: formHeroes() });
  }
  return params;
}

async function startGame(event) {
  event.preventDefault();
  showError("");
  try {
    const info = state.games.find((g) => g.name === $("ng-game").value);
    const seat = Number($("ng-seat").value);
    const hot = $("ng-hotseat").checked;
    const request = { game: info.name, paramsJson: JSON.stringify(formParams()), bot: $("ng-bot").value,
                      botSeats: hot ? [] : formSeats(info).map((_, i) => i).filter((i) => i !== seat) };
    if ($("ng-budget").value) request.budget = { iterations: String(Number($("ng-budget").value)) };
    const level = Number($("ng-level").value);
    if (level && !$("ng-level").disabled) request.botLevels = request.botSeats.map(() => level);
    const created = await match("CreateMatch", request);
    const tokens = Object.fromEntries(created.seats.map((s) => [s.seat ?? 0, s.token]));
    state.commitment = created.status.seedCommitment || "";
    Object.assign(state, { info, matchId: created.status.matchId, token: tokens[seat], seat, previous: null, values: {},
                           tokens, hot, handover: false, cover: null, finished: null, released: null });
    saveMatch();
    $("log").replaceChildren();
    showGame();
    await advance();
  } catch (err) { showError(`The game could not start: ${problem(err)}`); }
}

// ---------- the match ----------
// A match the page is done with (a new game asked for, or the game over with its record
// kept here) is deleted on the server, so that it does not hold one of the server's
// places until it expires (the embedded server of `hzai web` keeps at most 8).
async function releaseMatch() {
  const { matchId, token } = state;
  if (!matchId || !token || state.released === matchId) return;
  state.released = matchId;
  try { await match("DeleteMatch", { matchId }, token); } catch { /* gone already: expired or deleted */ }
}

// The game is over: what the page shows of it is kept in localStorage (a reload shows it
// again, with its record to download and review) and its match is deleted on the server.
async function keepFinished() {
  const log = [...$("log").children].map((li) => [li.textContent, li.dataset.move || ""]);
  state.finished = { status: state.status, view: state.view, board: $("board-text").textContent, log };
  saveMatch();
  await releaseMatch();
}

function showGame() { $("new-game").hidden = true; $("game").hidden = false; }
function showForm() { $("new-game").hidden = false; $("game").hidden = true; document.body.dataset.phase = "form"; }

function narrate(events) {
  const log = $("log");
  log.querySelectorAll("li.new").forEach((n) => n.classList.remove("new"));
  for (const event of events || []) {
    const lines = event.narration?.length ? event.narration : [`${event.seat === undefined ? "chance" : seatName(event.seat)}: ${event.move?.text}`];
    for (const line of lines) log.append(el("li", { class: "new", "data-move": event.move?.text || "" }, line));
  }
  log.scrollTop = log.scrollHeight;
}

async function refresh(withHistory = false) {
  const reply = await match("GetView", { matchId: state.matchId, withHistory }, state.token);
  const next = reply.status.toMove;
  if (state.hot && !reply.status.over && next !== undefined && next !== state.seat && state.tokens?.[next]) {
    // hot seat: the next person takes the screen, which stays covered (across a reload
    // too) until they ask for their side; nothing of their seat is asked for before that
    Object.assign(state, { seat: next, token: state.tokens[next], previous: null, handover: true, view: null, legal: [],
                           status: reply.status, values: {},
                           cover: { game: reply.status.game, movesPlayed: reply.status.movesPlayed ?? 0, seats: reply.status.seats } });
    saveMatch();
    draw();
    return;
  }
  state.status = reply.status;
  state.view = reply.view;
  state.info = state.games.find((g) => g.name === reply.status.game) || state.info;
  if (withHistory) { $("log").replaceChildren(); narrate(reply.history); }
  $("board-text").textContent = reply.board || "";
  const legal = reply.status.over ? { moves: [] } : await match("ListLegalMoves", { matchId: state.matchId }, state.token);
  state.legal = legal.moves || [];
  draw();
}

const myTurn = () => Boolean(state.status) && !state.handover && !state.status.over && (state.status.toMove ?? -1) === state.seat;

// Why "Evaluate this position" cannot be used now ("" when it can).
function whyNoAnalysis() {
  if (state.mode === "review") {
    if (!state.review) return "Open a record to evaluate its positions.";
    return state.review.running ? "Analysing every position…" : "";
  }
  if (!state.matchId && !state.finished) return "Start a game or open a record to evaluate a position.";
  if (state.handover) return `The screen is covered for ${seatName(state.seat)}: nothing is analysed until they show their side.`;
  if (!state.status) return "Loading the game…";
  if (state.status.over) return "The game is over: review it to evaluate its positions.";
  if (!myTurn()) return "You can evaluate your position on your turn.";
  return "";
}

function drawAnalysisAccess() {
  const why = whyNoAnalysis();
  $("analyse").disabled = Boolean(why);
  $("an-why").textContent = why;
  $("an-why").hidden = !why;
}

function clearAnalysis() {
  $("an-moves").replaceChildren(); $("heat").replaceChildren(); $("an-summary").textContent = "";
}

// The hot seat's cover: the status line and the button, nothing of any seat (no board,
// hand, legal moves, log, board text or analysis) in the page.
function drawCover() {
  const cover = state.cover || {};
  const info = state.games.find((g) => g.name === cover.game) || state.info;
  $("handover").hidden = false;
  $("layout").hidden = true;
  $("handover-text").textContent = `Hot seat: pass the screen to ${seatName(state.seat)}, whose move it is.`;
  for (const id of ["board", "moves", "log", "builder"]) $(id).replaceChildren();
  $("board-text").textContent = "";
  $("moves-hint").textContent = "";
  $("move-text").value = ""; $("move-filter").value = ""; // what the last seat typed goes with them
  $("deal-check").hidden = true;
  $("builder").dataset.for = "";
  state.builder = null;
  clearAnalysis();
  drawGraph($("graph"), [], cover.movesPlayed ?? 0, "");
  $("status").textContent = `${info?.title || cover.game || ""} · move ${cover.movesPlayed ?? 0} · ${seatName(state.seat)} to move`;
  $("status").className = "";
  $("download").hidden = true;
  $("review-this").hidden = true;
  document.body.dataset.movesPlayed = String(cover.movesPlayed ?? 0);
  document.body.dataset.phase = "handover";
  drawAnalysisAccess();
}

function draw() {
  if (state.handover) { drawCover(); return; }
  const status = state.status;
  $("handover").hidden = true;
  $("layout").hidden = false;
  const board = $("board");
  // The drawing follows the type of the view's typed detail (details.js), not the game's name.
  const drawing = drawingOf(state.view, status.seats || state.info?.seats || []);
  let meaning;
  if (drawing?.kind === "board") state.previous = drawBoard(board, drawing.view, seatName(state.seat), state.previous);
  if (drawing?.kind === "legends") { drawLegends(board, drawing.view); meaning = clickOfLegends(drawing.view); }
  const drawn = Boolean(drawing);
  // A game the page has no drawing of is shown as the server's board text, said so; the
  // text is then not repeated under it.
  if (!drawn) {
    board.replaceChildren(el("p", { class: "hint no-drawing", text: `This page has no drawing of ${state.info?.title || status.game}: `
                                    + "its board as the server writes it, and its moves in the list." }),
                          el("pre", { class: "generic-board", text: $("board-text").textContent }));
  }
  // Once over, the server's board text names every card: it is opened under the board.
  $("board-text-box").hidden = !drawn;
  $("board-text-box").open = drawn && status.over;
  $("board-text-title").textContent = status.over ? "Every card, now that the game is over" : "The board as text";
  drawDealCheck(status);
  let line;
  if (status.over) line = `Game over: ${status.result || "finished"}${status.reason ? ` (${status.reason})` : ""}`;
  else if (status.toMove === undefined) line = "Waiting for chance";
  else line = myTurn() ? `Your move (${seatName(state.seat)})` : `${seatName(status.toMove)} is thinking…`;
  $("status").textContent = `${state.info?.title || status.game} · move ${status.movesPlayed ?? 0} · ${line}`;
  $("status").className = status.over ? "result" : "";
  document.body.dataset.movesPlayed = String(status.movesPlayed ?? 0);
  document.body.dataset.phase = status.over ? "over" : myTurn() ? "mine" : "wait";
  drawLegal();
  if (myTurn()) wireClicks(board, state.legal, playMove, meaning);
  if (myTurn() && state.builder) {
    // a card of the hand clicked on the board is the next piece of the move being built
    // (a setup's cards, one by one), when it is one of the choices
    for (const node of board.querySelectorAll('[data-key^="hand:"]')) {
      node.addEventListener("click", () => state.builder?.pick(node.dataset.key.slice(5)));
    }
  }
  drawAnalysisAccess();
  if (status.over && state.mode === "play") clearAnalysis(); // an evaluation of a past turn: the review has them all
  const download = $("download");
  download.hidden = !status.recordJson;
  $("review-this").hidden = !status.recordJson;
  if (status.recordJson) download.href = URL.createObjectURL(new Blob([status.recordJson], { type: "application/json" }));
  if (state.mode === "play") drawGraph($("graph"), graphPoints(), status.movesPlayed, graphWhose());
}

// Many legal moves (a setup, an Oracle's order, a Support): build one piece by piece too.
const BUILD_FROM = 20;

// The deal's seed and salt, shown at the end, hashed here and compared with the commitment
// the match was created with (kept from CreateMatch), as any player may check.
async function drawDealCheck(status) {
  const box = $("deal-check");
  if (!status.over || !status.salt) { box.hidden = true; return; }
  const promised = state.commitment || status.seedCommitment;
  const text = `${status.seed ?? 0}:${status.salt}`;
  let computed = "";
  try {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    computed = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  } catch { computed = ""; }
  const ok = computed && computed === promised;
  box.hidden = false;
  box.className = `deal-check ${ok ? "ok" : "bad"}`;
  box.dataset.checked = ok ? "true" : "false";
  box.textContent = computed
    ? `The deal: seed ${status.seed ?? 0}, salt ${status.salt}. SHA-256 of "${text}" is ${computed}; ` +
      (ok ? "it is the commitment given when the match was created: checked, the deal was fixed before the first move."
          : `the match was created with ${promised}: they differ.`)
    : `The deal: seed ${status.seed ?? 0}, salt ${status.salt}; this browser cannot compute SHA-256 to check it against ${promised}.`;
}

function drawLegal() {
  const list = $("moves");
  const filter = $("move-filter").value.trim().toLowerCase();
  const moves = myTurn() ? state.legal : [];
  const shown = moves.filter((m) => !filter || m.text.toLowerCase().includes(filter));
  list.replaceChildren(...shown.slice(0, 400).map((move) => {
    const button = el("button", { type: "button", "data-move": move.text }, move.text);
    button.addEventListener("click", () => playMove(move));
    return el("li", {}, button);
  }));
  const builder = $("builder");
  const key = `${state.status.movesPlayed}:${moves.length}`; // filtering keeps what is being built
  builder.hidden = moves.length < BUILD_FROM;
  if (builder.hidden) { builder.replaceChildren(); builder.dataset.for = ""; }
  else if (builder.dataset.for !== key) { state.builder = drawBuilder(builder, moves, playMove, el); builder.dataset.for = key; }
  if (builder.hidden) state.builder = null;
  // nothing to click on a board the page does not draw (the board text)
  const how = $("board").querySelector(".generic-board") ? "Pick"
    : moves.length >= BUILD_FROM ? "Click your cards one by one on the board or build the move below, or pick"
      : "Click a card, then a highlighted slot, or pick";
  $("moves-hint").textContent = myTurn()
    ? `${moves.length} legal moves${shown.length > 400 ? " (the first 400 shown: filter to find the rest)" : ""}. ${how} a move here.`
    : (state.status.over ? "The game is over." : "Not your turn.");
}

async function playMove(move) {
  if (state.busy || !myTurn()) return; // nothing is played for a covered seat, after the end, or out of turn
  state.busy = true;
  document.body.dataset.phase = "working";
  showError("");
  try {
    const request = { matchId: state.matchId, move: move.text ? { text: move.text } : move, moveNumber: state.status.movesPlayed ?? 0 };
    const reply = await match("PlayMove", request, state.token);
    narrate(reply.events);
    state.status = reply.status;
  } catch (err) {
    showError(`Move refused: ${problem(err)}`);
    state.busy = false;
    await refresh().catch(() => {});
    return;
  }
  state.busy = false;
  await advance();
}

// Lets the bot play while it is a bot seat's turn, then shows the position. Stops quietly
// when the page has left this match meanwhile (New game while the bot thought).
async function advance(withHistory = false) {
  const id = state.matchId;
  const left = () => state.matchId !== id;
  document.body.dataset.phase = "working";
  try {
    await refresh(withHistory);
    while (!left() && !state.status.over && state.status.toMove !== undefined && (state.status.botSeats || []).includes(state.status.toMove)) {
      const reply = await match("BotPlayTurn", { matchId: state.matchId, moveNumber: state.status.movesPlayed ?? 0 }, state.token);
      if (left()) return;
      narrate(reply.events);
      await refresh();
    }
    if (left()) return;
    if ($("an-auto").checked && myTurn() && !state.handover) await analyseNow();
    if (state.status.over) await keepFinished();
  } catch (err) {
    if (left()) return;
    document.body.dataset.phase = "error"; showError(`The match could not go on: ${problem(err)}`);
  }
}

async function resume(saved) {
  Object.assign(state, saved, { previous: null });
  if (saved.finished) {
    // a finished game, its match deleted: shown again from what the page kept
    const { status, view, board, log } = saved.finished;
    Object.assign(state, { status, view, legal: [], released: saved.matchId });
    state.info = state.games.find((g) => g.name === status.game) || state.info;
    state.values = loadValues();
    $("board-text").textContent = board || "";
    $("log").replaceChildren(...(log || []).map(([text, move]) => el("li", { "data-move": move }, text)));
    showGame();
    draw();
    return true;
  }
  if (saved.handover) {
    // the cover stays: nothing of the next seat is asked for until they show their side
    state.info = state.games.find((g) => g.name === saved.cover?.game) || state.info;
    showGame();
    draw();
    return true;
  }
  try {
    await refresh(true);
    state.values = loadValues();
    showGame();
    await advance();
    return true;
  } catch (err) {
    localStorage.removeItem(STORE);
    showError(`The saved match could not be resumed: ${problem(err)}`);
    return false;
  }
}

// ---------- analysis ----------
function valueFor(analysis, seat) {
  const perspective = analysis.perspective ?? 0;
  const value = analysis.value ?? 0;
  const info = state.info || {};
  if (perspective === seat || info.cooperative) return value;
  return (info.seats || []).length === 2 ? 1 - value : null;
}

// Whose win probability the graph shows: yours in play (the team's in a cooperative
// game), the first seat's in the review (Hera's for Hera and Zeus).
function graphWhose() {
  const info = state.info || {};
  if (info.cooperative) return "the team";
  return state.mode === "play" ? seatName(state.seat) : (info.seats || [])[0] || "";
}

function graphPoints() {
  return Object.entries(state.values).map(([n, v]) => [Number(n), v]).sort((a, b) => a[0] - b[0]);
}

// The analysis budget as typed: "1s", "500ms" (time) or "2000" (iterations).
export function parseBudget(text) {
  const found = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/i.exec(text || "");
  if (!found) throw new Error(`Budget: write a time (1s, 500ms) or a number of iterations (2000), not ${JSON.stringify(text)}`);
  const number = Number(found[1]), unit = (found[2] || "").toLowerCase();
  if (unit === "s") return { millis: Math.max(1, Math.round(number * 1000)) };
  if (unit === "ms") return { millis: Math.max(1, Math.round(number)) };
  if (!Number.isInteger(number) || number < 1) throw new Error(`Budget: ${number} is not a whole number of iterations`);
  return { iterations: String(number) };
}

// Games without a belief report: from the page's server (GET /capabilities, the games its
// hzai library knows), or learnt from the service's refusal for a game only it knows.
const gamesWithoutBelief = new Set();

function beliefSamples(game) {
  const box = $("an-samples");
  const none = gamesWithoutBelief.has(game);
  box.disabled = none;
  $("an-samples-note").textContent = none ? `${state.info?.title || game} has no belief report` : "";
  return none ? 0 : Number(box.value) || 0;
}

// What an analysis is of: an answer that comes back after the position, the seat or the
// page changed (a move played meanwhile, the hot seat's cover, another record step) is
// dropped, never drawn for whoever has the screen now.
const analysisContext = () => JSON.stringify([state.mode, state.matchId, state.seat, state.handover,
                                              state.status?.movesPlayed ?? null, state.review?.step ?? null]);

async function analyse(position, moveNumber, seat, onPick) {
  const askedOf = analysisContext();
  const game = state.info?.name || position.game;
  const budget = parseBudget($("an-budget").value);
  const request = { position, budget, beliefSamples: beliefSamples(game) };
  $("an-summary").textContent = "Thinking…";
  const token = state.mode === "play" ? state.token : null;
  let reply;
  try {
    reply = await bot("Analyze", request, token);
  } catch (err) {
    // A game without a belief report refuses belief samples: say so once, then ask without.
    if (!(err instanceof RpcError && err.code === "invalid_argument" && /^belief_samples: .*no belief report/.test(err.message))) throw err;
    gamesWithoutBelief.add(game);
    reply = await bot("Analyze", { ...request, beliefSamples: beliefSamples(game) }, token);
  }
  if (analysisContext() !== askedOf || state.handover) return null; // asked of a position no longer shown
  const a = reply.analysis;
  const spent = `${((a.millis ?? 0) / 1000).toFixed(1)} s, ${a.iterations ?? 0} iterations`;
  const asked = budget.millis ? `${budget.millis / 1000} s` : `${budget.iterations} iterations`;
  $("an-summary").textContent = `Budget ${asked} (spent ${spent}) · values are ${a.perspectiveName}'s win probability · best ${a.best?.text} (${Math.round(100 * (a.value ?? 0))}%)`;
  drawMoves($("an-moves"), a, onPick);
  drawBelief($("heat"), a.belief, state.info?.seats || state.status?.seats || []);
  const value = valueFor(a, seat);
  if (value !== null) state.values[moveNumber] = value;
  return a;
}

async function analyseNow() {
  showError("");
  const why = whyNoAnalysis();
  if (why) { drawAnalysisAccess(); return; } // the button is disabled then; a stray call asks nothing
  try {
    if (state.mode === "play") {
      const done = await analyse({ matchId: state.matchId }, state.status.movesPlayed ?? 0, state.seat, myTurn() ? playMove : null);
      if (!done) return; // the position moved on while it was analysed
      saveValues();
      drawGraph($("graph"), graphPoints(), state.status.movesPlayed, graphWhose());
    } else await analyseStep();
  } catch (err) { $("an-summary").textContent = ""; showError(`No analysis: ${problem(err)}`); }
}

// ---------- review ----------
function openRecord(text) {
  const record = JSON.parse(text);
  if (!record || !Array.isArray(record.moves)) throw new Error("not a game record: it has no list of moves");
  const game = state.games.find((g) => g.recordFormat === record.format);
  if (!game) throw new Error(`no game of this server writes records of format ${JSON.stringify(record.format)}`);
  state.review = { record, game, step: 0, drawnStep: -1, previous: null, positions: new Map(), running: false };
  state.values = {};
  state.info = game;
  $("rv-note").textContent = "";
  setMode("review");
  drawReview();
}

// The counter, the move list and the graph at the review's step, then its board: the
// counter says which step the board is of (data-step) while that board is on its way.
function drawReview() {
  const { record, step } = state.review;
  $("review-steps").hidden = false;
  $("rv-where").textContent = `after ${step} of ${record.moves.length} moves`;
  $("rv-moves").replaceChildren(...record.moves.map((m, i) => el("li", { class: i === step - 1 ? "current" : "" }, `${i + 1}. ${m}`)));
  $("rv-moves").querySelector(".current")?.scrollIntoView({ block: "nearest" });
  drawGraph($("graph"), graphPoints(), record.moves.length, graphWhose());
  return drawReviewBoard(step);
}

// The position after `step` moves of the record under review, as the referee sees it:
// the page's own server (hzai web) replays the record (no RPC draws a record's position).
// Kept per step; its `no_decision` says why no seat decides there (the end, chance next).
async function reviewPosition(step) {
  const review = state.review;
  if (review.positions.has(step)) return review.positions.get(step);
  const reply = await fetch("/review/position", { method: "POST", headers: { "Content-Type": "application/json" },
                                                  body: JSON.stringify({ record_json: JSON.stringify(review.record), upto: step }) });
  const answer = await reply.json().catch(() => ({}));
  if (!reply.ok) throw new Error(answer.message || `HTTP ${reply.status}`);
  review.positions.set(step, answer);
  return answer;
}

// Draws the board after `step` moves; the position, or null when it could not be had.
async function drawReviewBoard(step) {
  const review = state.review;
  const box = $("rv-board");
  box.setAttribute("aria-busy", "true");
  let answer;
  try {
    answer = await reviewPosition(step);
  } catch (err) {
    if (state.review === review && review.step === step) {
      box.replaceChildren(el("p", { class: "hint", text: `No board after ${step} moves: ${err.message}` }));
      box.dataset.step = String(step);
      box.removeAttribute("aria-busy");
    }
    return null;
  }
  if (state.review !== review || review.step !== step) return answer; // stepped on meanwhile
  const sides = answer.state?.sides;
  if (answer.game === "hera_zeus" && sides) {
    // the referee's state JSON names every card; hands and discards as plain names
    const side = (s) => ({ ...s, hand: (s.hand || []).map((c) => (typeof c === "string" ? { card: c } : c)) });
    const view = { sides: Object.fromEntries(Object.entries(sides).map(([name, s]) => [name, side(s)])) };
    const seat = (state.info?.seats || Object.keys(sides))[0];
    review.previous = drawBoard(box, view, seat, step === review.drawnStep + 1 ? review.previous : null);
  } else {
    box.replaceChildren(el("pre", { class: "generic-board", text: answer.board }));
  }
  review.drawnStep = step;
  box.dataset.step = String(step);
  box.removeAttribute("aria-busy");
  return answer;
}

function stepPosition(step) {
  const { record, game } = state.review;
  return { game: game.name, recordJson: JSON.stringify({ ...record, moves: record.moves.slice(0, step) }) };
}

// Evaluates the review's position at its step; says so, without asking, where no seat decides.
async function analyseStep() {
  const review = state.review;
  const { step } = review;
  const position = await reviewPosition(step);
  if (position.no_decision) {
    clearAnalysis();
    $("an-summary").textContent = `Nothing to evaluate after ${step} moves: ${position.no_decision}.`;
    return false;
  }
  await analyse(stepPosition(step), step, 0, null);
  drawGraph($("graph"), graphPoints(), review.record.moves.length, graphWhose());
  return true;
}

// Every position of the record in turn, the counter and the board following it; a
// position where no seat decides (the end; chance next) is skipped and named; an error
// stops it, said in the red box.
async function analyseAll() {
  const review = state.review;
  if (!review || review.running) return;
  showError("");
  review.running = true;
  drawReviewAccess();
  const skipped = [];
  let analysed = 0;
  const total = review.record.moves.length + 1;
  try {
    for (let step = 0; step < total; step++) {
      if (state.review !== review) return; // another record opened meanwhile
      review.step = step;
      $("rv-note").textContent = `Analysing every position: ${step + 1} of ${total}…`;
      const position = await drawReview();
      if (!position) throw new Error(`no position after ${step} moves`);
      if (position.no_decision) { skipped.push(`after ${step} moves (${position.no_decision})`); continue; }
      await analyse(stepPosition(step), step, 0, null);
      drawGraph($("graph"), graphPoints(), review.record.moves.length, graphWhose());
      analysed += 1;
    }
    $("rv-note").textContent = `Analysed ${analysed} position${analysed === 1 ? "" : "s"}` +
      (skipped.length ? `; skipped ${skipped.length} where no seat decides: ${skipped.join("; ")}.` : ".");
  } catch (err) {
    $("an-summary").textContent = "";
    $("rv-note").textContent = `Stopped after ${analysed} position${analysed === 1 ? "" : "s"}.`;
    showError(`Analyse every position stopped after ${review.step} moves: ${problem(err)}`);
  } finally {
    review.running = false;
    drawReviewAccess();
  }
}

// While every position is analysed, the steps follow it: ◀ ▶ and a second run wait.
function drawReviewAccess() {
  const running = Boolean(state.review?.running);
  for (const id of ["rv-prev", "rv-next", "rv-all"]) $(id).disabled = running;
  drawAnalysisAccess();
}

function setMode(mode) {
  state.mode = mode;
  $("play").hidden = mode !== "play";
  $("review").hidden = mode !== "review";
  $("tab-play").setAttribute("aria-pressed", String(mode === "play"));
  $("tab-review").setAttribute("aria-pressed", String(mode === "review"));
  clearAnalysis();
  if (mode === "play" && (state.matchId || state.finished)) { state.values = loadValues(); if (state.status || state.handover) draw(); }
  drawAnalysisAccess();
}

// "New game": at once when there is no game or it is over; an unfinished one is left
// only once the player says so (its match is deleted on the server).
function askNewGame() {
  const unfinished = state.matchId && !state.finished && !state.status?.over;
  if (unfinished) { $("leave").hidden = false; $("leave-no").focus(); return; }
  leaveGame();
}

async function leaveGame() {
  $("leave").hidden = true;
  await releaseMatch();
  localStorage.removeItem(STORE);
  Object.assign(state, { matchId: null, token: null, status: null, view: null, legal: [], tokens: null, hot: false,
                         handover: false, cover: null, finished: null, commitment: "", values: {} });
  clearAnalysis();
  drawGraph($("graph"), [], 0, "");
  showForm();
  drawAnalysisAccess();
}

async function loadCapabilities() {
  try {
    const reply = await fetch("/capabilities");
    const games = reply.ok ? (await reply.json()).games || {} : {};
    for (const [name, can] of Object.entries(games)) {
      if (!can.belief_report) gamesWithoutBelief.add(name);
      if (Array.isArray(can.params)) gameParams.set(name, new Set(can.params));
    }
  } catch { /* none known: the service's answer teaches them */ }
}

// ---------- start ----------
async function main() {
  $("new-game").addEventListener("submit", startGame);
  $("handover-go").addEventListener("click", () => {
    state.handover = false; state.cover = null;
    state.values = loadValues();
    saveMatch();
    advance(true);
  });
  $("new-match").addEventListener("click", askNewGame);
  $("leave-yes").addEventListener("click", leaveGame);
  $("leave-no").addEventListener("click", () => { $("leave").hidden = true; $("new-match").focus(); });
  $("move-filter").addEventListener("input", drawLegal);
  $("type-move").addEventListener("submit", (event) => { event.preventDefault(); const text = $("move-text").value.trim(); if (text) playMove({ text }); });
  $("analyse").addEventListener("click", analyseNow);
  $("tab-play").addEventListener("click", () => setMode("play"));
  $("tab-review").addEventListener("click", () => setMode("review"));
  $("review-this").addEventListener("click", () => { try { openRecord(state.status.recordJson); } catch (err) { showError(problem(err)); } });
  $("record-file").addEventListener("change", async (event) => {
    showError("");
    const file = event.target.files[0];
    if (!file) return;
    try { openRecord(await file.text()); } catch (err) { showError(`The record cannot be read: ${problem(err)}`); }
  });
  const step = (d) => {
    if (!state.review || state.review.running) return;
    state.review.step = Math.min(Math.max(state.review.step + d, 0), state.review.record.moves.length);
    drawReview();
  };
  $("rv-prev").addEventListener("click", () => step(-1));
  $("rv-next").addEventListener("click", () => step(1));
  $("rv-all").addEventListener("click", analyseAll);
  document.addEventListener("keydown", (event) => {
    if (state.mode !== "review" || event.target.tagName === "INPUT") return;
    if (event.key === "ArrowLeft") step(-1);
    if (event.key === "ArrowRight") step(1);
  });
  drawAnalysisAccess();
  try { state.games = (await bot("ListGames", {})).games || []; } catch (err) { showError(`The server does not answer: ${problem(err)}`); return; }
  await loadCapabilities();
  fillForm();
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(STORE) || "null"); } catch { localStorage.removeItem(STORE); }
  if (!(saved && (await resume(saved)))) showForm();
  document.body.dataset.ready = "true";
}

main();
