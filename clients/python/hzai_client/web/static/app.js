// The page: a match against the bot (created, resumed and played through MatchService),
// the analysis panel (BotService.Analyze) and the review of a record. The match id and
// the seat token live in localStorage, so a reload resumes the match.
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
                tokens: null, hot: false, handover: false }; // tokens: seat -> token of every human seat (hot seat)

function showError(text) { const box = $("error"); box.textContent = text; box.hidden = !text; }
function problem(err) { return err instanceof RpcError ? `${err.message} (${err.code})` : String(err.message || err); }
const seatName = (seat) => (state.status?.seats || state.info?.seats || [])[seat] ?? `seat ${seat}`;

function saveMatch() {
  localStorage.setItem(STORE, JSON.stringify({ matchId: state.matchId, token: state.token, seat: state.seat,
                                              tokens: state.tokens, hot: state.hot, commitment: state.commitment }));
}
function loadValues() { try { return JSON.parse(localStorage.getItem(`${STORE}:values:${state.matchId}`)) || {}; } catch { return {}; } }
function saveValues() { localStorage.setItem(`${STORE}:values:${state.matchId}`, JSON.stringify(state.values)); }

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
  };
  game.onchange = refill;
  $("ng-heroes").onchange = refill;
  refill();
}

// Legends' seats follow from the heroes named in the form; other games list theirs.
const formHeroes = () => $("ng-heroes").value.split(",").map((h) => h.trim()).filter(Boolean);
const formSeats = (info) => (info.name === "legends" ? legendsSeats(formHeroes()) : info.seats);

function formParams() {
  let params;
  try { params = JSON.parse($("ng-params").value || "{}"); } catch (err) { throw new Error(`More parameters: not JSON (${err.message})`); }
  if (typeof params !== "object" || params === null || Array.isArray(params)) throw new Error("More parameters: give a JSON object");
  if ($("ng-first").value) params.first_player = $("ng-first").value;
  if ($("ng-turns").value) params.turn_limit = Number($("ng-turns").value);
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
                           tokens, hot, handover: false });
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
  localStorage.removeItem(STORE);
  if (!matchId || !token) return;
  state.released = matchId;
  try { await match("DeleteMatch", { matchId }, token); } catch { /* gone already: expired or deleted */ }
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
  let reply = await match("GetView", { matchId: state.matchId, withHistory }, state.token);
  const next = reply.status.toMove;
  if (state.hot && !reply.status.over && next !== undefined && next !== state.seat && state.tokens?.[next]) {
    // hot seat: the next person takes the screen, which stays covered until they ask,
    // and the log becomes what their seat saw
    Object.assign(state, { seat: next, token: state.tokens[next], previous: null, handover: true });
    saveMatch();
    withHistory = true;
    reply = await match("GetView", { matchId: state.matchId, withHistory }, state.token);
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

const myTurn = () => !state.status.over && (state.status.toMove ?? -1) === state.seat;

function draw() {
  const status = state.status;
  $("handover").hidden = !state.handover;
  $("layout").hidden = state.handover;
  if (state.handover) $("handover-text").textContent = `Hot seat: pass the screen to ${seatName(state.seat)}, whose move it is.`;
  const board = $("board");
  // The drawing follows the type of the view's typed detail (details.js), not the game's name.
  const drawing = drawingOf(state.view, status.seats || state.info?.seats || []);
  let meaning;
  if (drawing?.kind === "board") state.previous = drawBoard(board, drawing.view, seatName(state.seat), state.previous);
  if (drawing?.kind === "legends") { drawLegends(board, drawing.view); meaning = clickOfLegends(drawing.view); }
  const drawn = Boolean(drawing);
  if (!drawn) board.replaceChildren(el("pre", { class: "generic-board", text: $("board-text").textContent }));
  // Once over, the server's board text names every card: it is opened under the board.
  $("board-text-box").open = !drawn || status.over;
  $("board-text-title").textContent = status.over ? "Every card, now that the game is over" : "The board as text";
  drawDealCheck(status);
  let line;
  if (status.over) line = `Game over: ${status.result || "finished"}${status.reason ? ` (${status.reason})` : ""}`;
  else if (status.toMove === undefined) line = "Waiting for chance";
  else if (state.handover) line = `${seatName(state.seat)} to move`;
  else line = myTurn() ? `Your move (${seatName(state.seat)})` : `${seatName(status.toMove)} is thinking…`;
  $("status").textContent = `${state.info?.title || status.game} · move ${status.movesPlayed ?? 0} · ${line}`;
  $("status").className = status.over ? "result" : "";
  document.body.dataset.movesPlayed = String(status.movesPlayed ?? 0);
  document.body.dataset.phase = status.over ? "over" : state.handover ? "handover" : myTurn() ? "mine" : "wait";
  drawLegal();
  if (myTurn()) wireClicks(board, state.legal, playMove, meaning);
  if (myTurn() && state.builder) {
    // a card of the hand clicked on the board is the next piece of the move being built
    // (a setup's cards, one by one), when it is one of the choices
    for (const node of board.querySelectorAll('[data-key^="hand:"]')) {
      node.addEventListener("click", () => state.builder?.pick(node.dataset.key.slice(5)));
    }
  }
  $("analyse").disabled = state.mode === "play" && !myTurn();
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
  $("moves-hint").textContent = myTurn()
    ? `${moves.length} legal moves${shown.length > 400 ? " (the first 400 shown: filter to find the rest)" : ""}. ${moves.length >= BUILD_FROM ? "Click your cards one by one on the board or build the move below, or pick" : "Click a card, then a highlighted slot, or pick"} a move here.`
    : (state.status.over ? "The game is over." : "Not your turn.");
}

async function playMove(move) {
  if (state.busy) return;
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
async function advance() {
  const id = state.matchId;
  const left = () => state.matchId !== id;
  document.body.dataset.phase = "working";
  try {
    await refresh();
    while (!left() && !state.status.over && state.status.toMove !== undefined && (state.status.botSeats || []).includes(state.status.toMove)) {
      const reply = await match("BotPlayTurn", { matchId: state.matchId, moveNumber: state.status.movesPlayed ?? 0 }, state.token);
      if (left()) return;
      narrate(reply.events);
      await refresh();
    }
    if (left()) return;
    if ($("an-auto").checked && myTurn() && !state.handover) await analyseNow();
    if (state.status.over) await releaseMatch();
  } catch (err) {
    if (left()) return;
    document.body.dataset.phase = "error"; showError(`The match could not go on: ${problem(err)}`);
  }
}

async function resume(saved) {
  Object.assign(state, saved, { previous: null });
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

const gamesWithoutBelief = new Set(); // games whose server answered that they have no belief report

function beliefSamples(game) {
  const box = $("an-samples");
  const none = gamesWithoutBelief.has(game);
  box.disabled = none;
  $("an-samples-note").textContent = none ? `${state.info?.title || game} has no belief report` : "";
  return none ? 0 : Number(box.value) || 0;
}

async function analyse(position, moveNumber, seat, onPick) {
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
  try {
    if (state.mode === "play") {
      await analyse({ matchId: state.matchId }, state.status.movesPlayed ?? 0, state.seat, myTurn() ? playMove : null);
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
  state.review = { record, game, step: 0, drawnStep: -1, previous: null };
  state.values = {};
  state.info = game;
  setMode("review");
  drawReview();
}

function drawReview() {
  const { record, step } = state.review;
  $("review-steps").hidden = false;
  $("rv-where").textContent = `after ${step} of ${record.moves.length} moves`;
  $("rv-moves").replaceChildren(...record.moves.map((m, i) => el("li", { class: i === step - 1 ? "current" : "" }, `${i + 1}. ${m}`)));
  $("rv-moves").querySelector(".current")?.scrollIntoView({ block: "nearest" });
  drawGraph($("graph"), graphPoints(), record.moves.length, graphWhose());
  drawReviewBoard(step);
}

// The board after `step` moves of the record under review, as the referee sees it: the
// page's own server (hzai web) replays the record (no RPC draws a record's position).
async function drawReviewBoard(step) {
  const { record } = state.review;
  const box = $("rv-board");
  let answer;
  try {
    const reply = await fetch("/review/position", { method: "POST", headers: { "Content-Type": "application/json" },
                                                    body: JSON.stringify({ record_json: JSON.stringify(record), upto: step }) });
    answer = await reply.json();
    if (!reply.ok) throw new Error(answer.message || `HTTP ${reply.status}`);
  } catch (err) { box.replaceChildren(el("p", { class: "hint", text: `No board: ${err.message}` })); return; }
  if (state.review?.record !== record || state.review.step !== step) return; // stepped on meanwhile
  const sides = answer.state?.sides;
  if (answer.game === "hera_zeus" && sides) {
    // the referee's state JSON names every card; hands and discards as plain names
    const side = (s) => ({ ...s, hand: (s.hand || []).map((c) => (typeof c === "string" ? { card: c } : c)) });
    const view = { sides: Object.fromEntries(Object.entries(sides).map(([name, s]) => [name, side(s)])) };
    const seat = (state.info?.seats || Object.keys(sides))[0];
    state.review.previous = drawBoard(box, view, seat, step === state.review.drawnStep + 1 ? state.review.previous : null);
  } else {
    box.replaceChildren(el("pre", { class: "generic-board", text: answer.board }));
  }
  state.review.drawnStep = step;
  box.dataset.step = String(step);
}

function stepPosition(step) {
  const { record, game } = state.review;
  return { game: game.name, recordJson: JSON.stringify({ ...record, moves: record.moves.slice(0, step) }) };
}

async function analyseStep() {
  const { step } = state.review;
  await analyse(stepPosition(step), step, 0, null);
  drawReview();
}

async function analyseAll() {
  showError("");
  const { record } = state.review;
  for (let step = 0; step <= record.moves.length; step++) {
    state.review.step = step;
    try { await analyseStep(); } catch (err) { if (!(err instanceof RpcError)) throw err; } // no decision here (chance, the end)
  }
}

function setMode(mode) {
  state.mode = mode;
  $("play").hidden = mode !== "play";
  $("review").hidden = mode !== "review";
  $("tab-play").setAttribute("aria-pressed", String(mode === "play"));
  $("tab-review").setAttribute("aria-pressed", String(mode === "review"));
  $("an-moves").replaceChildren(); $("heat").replaceChildren(); $("an-summary").textContent = "";
  if (mode === "play" && state.matchId) { state.values = loadValues(); if (state.status) draw(); }
  $("analyse").disabled = mode === "play" && !(state.status && myTurn());
}

// ---------- start ----------
async function main() {
  $("new-game").addEventListener("submit", startGame);
  $("handover-go").addEventListener("click", () => { state.handover = false; draw(); });
  $("new-match").addEventListener("click", async () => {
    if (state.released !== state.matchId) await releaseMatch();
    Object.assign(state, { matchId: null, token: null, status: null, view: null, legal: [], tokens: null, hot: false,
                           handover: false, commitment: "" });
    showForm();
  });
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
  const step = (d) => { if (!state.review) return; state.review.step = Math.min(Math.max(state.review.step + d, 0), state.review.record.moves.length); drawReview(); };
  $("rv-prev").addEventListener("click", () => step(-1));
  $("rv-next").addEventListener("click", () => step(1));
  $("rv-all").addEventListener("click", () => analyseAll().catch((err) => showError(problem(err))));
  document.addEventListener("keydown", (event) => {
    if (state.mode !== "review" || event.target.tagName === "INPUT") return;
    if (event.key === "ArrowLeft") step(-1);
    if (event.key === "ArrowRight") step(1);
  });
  try { state.games = (await bot("ListGames", {})).games || []; } catch (err) { showError(`The server does not answer: ${problem(err)}`); return; }
  fillForm();
  const saved = JSON.parse(localStorage.getItem(STORE) || "null");
  if (!(saved && (await resume(saved)))) showForm();
  document.body.dataset.ready = "true";
}

main();
