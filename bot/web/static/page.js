// A game page: step through the replay (buttons, arrow keys, the move list) and follow the
// game live. The page reads without this script; the script only avoids reloads.
"use strict";

(() => {
  const body = document.body;
  const token = body.dataset.token;
  const data = document.getElementById("positions");
  let positions = data ? JSON.parse(data.textContent) : [];
  let at = Number(body.dataset.at);
  const board = document.getElementById("board");
  const caption = document.getElementById("caption");
  const where = document.getElementById("where");
  const links = {
    first: document.getElementById("first"),
    back: document.getElementById("back"),
    forward: document.getElementById("forward"),
    newest: document.getElementById("newest"),
  };

  // The words this script writes, in the page's language (written by the server).
  const wordsData = document.getElementById("words");
  const words = Object.assign(
    {
      newest: "Newest position.",
      position: "Position {index} of {last}.",
      gone: "This address no longer shows the game.",
    },
    wordsData ? JSON.parse(wordsData.textContent) : {},
  );
  const language = document.documentElement.lang || undefined;

  const newest = () => positions.length - 1;

  function describe(index) {
    const last = newest();
    if (index === last) return words.newest + " ";
    return words.position.replace("{index}", String(index)).replace("{last}", String(last)) + " ";
  }

  function markMove(index) {
    for (const link of document.querySelectorAll("#moves a[data-at]")) {
      if (Number(link.dataset.at) === index) {
        link.setAttribute("aria-current", "step");
      } else {
        link.removeAttribute("aria-current");
      }
    }
  }

  function show(index) {
    if (!board || positions.length === 0) return;
    const last = newest();
    at = Math.max(0, Math.min(index, last));
    const position = positions[at];
    board.src = position.src;
    board.alt = position.alt;
    caption.innerHTML = describe(at) + position.caption; // written and escaped by the server
    where.textContent = `${at} / ${last}`;
    links.first.href = "?at=0";
    links.back.href = `?at=${Math.max(at - 1, 0)}`;
    links.forward.href = `?at=${Math.min(at + 1, last)}`;
    links.newest.href = `?at=${last}`;
    body.dataset.at = String(at);
    markMove(at);
    history.replaceState(null, "", at === last ? location.pathname : `?at=${at}`);
    if (at < last) new Image().src = positions[at + 1].src; // the next step is ready
  }

  function follow(event) {
    const link = event.target.closest("a");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const to = {
      first: 0,
      back: at - 1,
      forward: at + 1,
      newest: newest(),
    }[link.id];
    const step = to !== undefined ? to : link.dataset.at !== undefined ? Number(link.dataset.at) : null;
    if (step === null) return;
    event.preventDefault();
    show(step);
  }

  document.addEventListener("click", follow);
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const step = {
      ArrowLeft: at - 1,
      ArrowRight: at + 1,
      Home: 0,
      End: newest(),
    }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    show(step);
  });

  // Deadlines are written in UTC by the server; the reader sees their own clock's time.
  function localTimes() {
    for (const time of document.querySelectorAll("time[datetime]")) {
      const at = new Date(time.dateTime);
      if (!Number.isNaN(at.getTime())) {
        time.textContent = at.toLocaleString(language, {
          weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
        });
      }
    }
  }

  function update(parts) {
    const wasNewest = at === newest();
    document.getElementById("status").innerHTML = parts.status;
    document.getElementById("seats").innerHTML = parts.seats;
    if (parts.moves_from !== null) {
      // The turns from the first that gained a move are written anew; earlier ones stay.
      const turns = document.getElementById("turns");
      for (const turn of [...turns.querySelectorAll(":scope > li[data-turn]")]) {
        if (Number(turn.dataset.turn) >= parts.moves_from) turn.remove();
      }
      turns.insertAdjacentHTML("beforeend", parts.moves); // written and escaped by the server
      const empty = document.querySelector("#moves .empty");
      if (empty) empty.remove();
    }
    localTimes();
    positions = positions.slice(0, parts.from).concat(parts.positions);
    body.dataset.latest = String(newest());
    body.dataset.version = String(parts.version);
    if (!board && positions.length > 0) {
      location.reload(); // the game started: the board section is written by the server
      return;
    }
    show(wasNewest ? newest() : at);
  }

  // A stream refused for want of a place (the server is busy) is not retried by the
  // browser itself: ask again in half a minute to a minute, spread so that the pages
  // refused together don't all ask again at once.
  const RETRY_MS = 30000;

  function follow() {
    const events = new EventSource(`/g/${token}/events?from=${positions.length}`);
    events.addEventListener("page", (event) => update(JSON.parse(event.data)));
    events.addEventListener("gone", () => {
      events.close();
      document.getElementById("status").textContent = words.gone;
    });
    events.addEventListener("error", () => {
      if (events.readyState === EventSource.CLOSED) {
        setTimeout(follow, RETRY_MS * (1 + Math.random()));
      }
    });
  }

  if (window.EventSource) follow();
  localTimes();
  show(at);
})();
