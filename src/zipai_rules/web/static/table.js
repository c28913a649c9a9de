// The web table of zipai serve: one WebSocket, JSON frames (docs/play.md, "A table in the
// browser"). The page shows only what the server sends this seat: its picture, its options,
// its events; the token that holds the seat is kept in this tab (sessionStorage).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const KEY = "zipai-seat-token";
  // the page's own words, in one language: the table's (zh, or en where the server runs
  // with --ascii: <html data-lang>), as the pictures and the options are worded
  const WORDS = {
    zh: { connecting: "连接中…", name: "名字", join: "入座", replay: "回放本手", next: "下一手",
          digest: "洗牌承诺", events: "记录", seat: (s) => s + "号位", hand: (n) => "第" + n + "手",
          waitingAll: "等待其他玩家", playing: "对局中", deciding: "请选择", waiting: "等待",
          joinTable: "请入座", over: "本手结束", gone: "本座位已在另一窗口",
          disconnected: "连接断开，重连中…", nextWait: "等待下一手", seconds: "秒",
          picture: "本家视角的牌桌", options: "可选操作" },
    en: { connecting: "connecting…", name: "Name", join: "Join", replay: "Replay this hand",
          next: "Next hand", digest: "Shuffle commitment", events: "Events",
          seat: (s) => "seat " + s, hand: (n) => "hand " + n,
          waitingAll: "waiting for every player…", playing: "playing", deciding: "your turn",
          waiting: "waiting", joinTable: "join the table", over: "hand over",
          gone: "this seat is played in another window",
          disconnected: "disconnected — reconnecting…", nextWait: "waiting for the next hand",
          seconds: "s", picture: "the table as your seat sees it", options: "your options" },
  };
  const T = WORDS[document.documentElement.dataset.lang] || WORDS.zh;
  let socket = null;
  let due = null;          // the deadline, in performance.now() milliseconds
  let decision = null;     // the decision the buttons answer

  function status(text, state) {
    $("status").textContent = text;
    if (state) document.body.dataset.state = state;  // join, waiting, deciding, over, gone
  }

  function send(frame) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }

  function showJoin(show) {
    $("join").hidden = !show;
  }

  function setPicture(svg) {
    // the picture inline, so that the page holds the cards it shows (a browser test reads
    // them); parsed as XML, its scripts would never run, and the page's policy lets only
    // the picture's own style sheet apply
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    const root = doc.documentElement;
    if (root.localName !== "svg" || doc.getElementsByTagName("parsererror").length) return;
    for (const s of root.querySelectorAll("script, foreignObject")) s.remove();
    $("picture").replaceChildren(document.importNode(root, true));
  }

  function setOptions(frame) {
    const box = $("options");
    box.replaceChildren();
    decision = frame.decision;
    if (frame.decision === null || frame.decision === undefined) return;
    for (const option of frame.options) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "option";
      b.id = "option-" + option.index;
      b.dataset.decision = String(frame.decision);
      b.dataset.index = String(option.index);
      b.dataset.kind = option.action.kind;
      b.textContent = option.label;
      b.addEventListener("click", () => {
        for (const other of box.querySelectorAll("button")) other.disabled = true;
        $("error").textContent = "";
        send({ decision: frame.decision, action: option.action });
      });
      box.appendChild(b);
    }
  }

  function addEvents(labels) {
    const list = $("events");
    for (const text of labels) {
      const li = document.createElement("li");
      li.className = "event";
      li.textContent = text;
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
  }

  function tick() {
    const timer = $("timer");
    if (due === null) { timer.textContent = ""; timer.dataset.seconds = ""; return; }
    const left = Math.max(0, (due - performance.now()) / 1000);
    timer.textContent = "· " + left.toFixed(0) + " " + T.seconds;
    timer.dataset.seconds = left.toFixed(1);
    timer.classList.toggle("low", left < 5);
  }

  function onFrame(frame) {
    if (frame.type === "welcome") {
      if (frame.token) sessionStorage.setItem(KEY, frame.token);
      showJoin(false);
      $("table").hidden = false;
      $("end").hidden = true;
      $("events").replaceChildren();
      $("options").replaceChildren();
      $("seat").textContent = T.seat(frame.seat);
      $("seat").dataset.seat = String(frame.seat);
      $("hand-number").textContent = T.hand(frame.hand);
      $("variant").textContent = frame.title;
      $("digest").textContent = frame.digest;
      document.body.dataset.seat = String(frame.seat);
      status(frame.humans > 1 ? T.waitingAll : T.playing,
             "waiting");
    } else if (frame.type === "view") {
      addEvents(frame.event_labels);
      if (frame.picture) setPicture(frame.picture);
      if (frame.observation !== null || frame.decision === null) setOptions(frame);
      if (!frame.picture) return;  // events only: the rest of this view follows
      due = typeof frame.deadline === "number" ? performance.now() + frame.deadline * 1000
                                              : null;
      if (frame.decision !== null) status(T.deciding, "deciding");
      else status(T.waiting, "waiting");
      tick();
    } else if (frame.type === "error") {
      $("error").textContent = frame.error + ": " + frame.message;
      $("error").dataset.code = frame.error;
      if (frame.error === "bad_token") {
        sessionStorage.removeItem(KEY); showJoin(true); status(T.joinTable, "join");
      }
      for (const b of $("options").querySelectorAll("button")) b.disabled = false;
    } else if (frame.type === "end") {
      $("options").replaceChildren();
      due = null; tick();
      const r = frame.result;
      $("result").textContent = frame.result_text;
      $("result").dataset.kind = r.kind;
      const link = $("record-link");
      if (frame.record_id !== null) {
        link.href = "/records/" + frame.record_id;
        link.hidden = false;
      } else { link.hidden = true; }
      $("end").hidden = false;
      $("next-button").disabled = false;
      status(T.over, "over");
    }
  }

  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      const token = sessionStorage.getItem(KEY);
      if (token) send({ resume: token });
      else { showJoin(true); status(T.joinTable, "join"); }
    });
    socket.addEventListener("message", (event) => {
      let frame;
      try { frame = JSON.parse(event.data); } catch (e) { return; }
      onFrame(frame);
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 4001) {  // the seat was taken back in another window
        $("options").replaceChildren();
        due = null; tick();
        status(T.gone, "gone");
        return;
      }
      status(T.disconnected);
      setTimeout(connect, 2000);
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const e of document.querySelectorAll("[data-text]")) e.textContent = T[e.dataset.text];
    $("picture").setAttribute("aria-label", T.picture);
    $("options").setAttribute("aria-label", T.options);
    $("join").addEventListener("submit", (event) => {
      event.preventDefault();
      send({ join: $("name").value.trim() || "player" });
    });
    $("next-button").addEventListener("click", () => {
      $("next-button").disabled = true;
      send({ next: true });
      status(T.nextWait);
    });
    showJoin(false);
    setInterval(tick, 250);
    // back to this page from another (the browser's page cache): its socket was closed
    window.addEventListener("pageshow", (event) => {
      if (event.persisted && (!socket || socket.readyState > WebSocket.OPEN)) connect();
    });
    connect();
  });
})();
