// The page's script. Reading view: the arrow keys (and PageUp/PageDown,
// space) move between pages, Home/End jump, N toggles the speaker notes.
// P: present mode, a slideshow, each page scaled to fit the window at
// 16:9, notes and answers hidden; a slide with a board and more (a quiz,
// an activity) shows its board alone first, the rest on the next press,
// as the deck splits them, so the board's text stays readable from the
// back of the room. F: fullscreen. A: reveal the next answer on the
// slide, of any kind of question (again once all are shown: hide them; a
// click on a question shows or hides its own). S: the presenter view, a
// second window with the slide, the next one, the notes, the slide's
// minutes and a timer, kept in step with this one. Escape leaves present
// mode. The current page is state; in the reading view, once the reader
// has scrolled, it is the page in view, so a key moves on from what the
// reader sees. #slide-id links (the timeline's) jump to their slide.
(function () {
  "use strict";
  var W = 1280, H = 720; // a slide's size in present mode: 16:9
  var body = document.body;
  var pages = Array.prototype.slice.call(document.querySelectorAll("#deck > .page"));
  var cur = 0;
  var step = 0; // the part of the current slide shown in present mode
  var settled = -1; // the scroll position show() left the reading view at
  var revealed = {}; // "page:question" of each answer shown
  var peer = null; // the presenter view this window opened
  var presenter = /^#presenter/.test(location.hash);
  var view = null; // the presenter view's parts

  function presenting() { return body.classList.contains("present"); }

  // steps names the parts page p shows one after another in present
  // mode: a board alone, then the rest, when it has both; else the whole.
  function steps(p) {
    var kids = p.querySelector(".children");
    if (!kids || !kids.querySelector(":scope > svg.whiteboard") || !kids.querySelector(":scope > :not(svg.whiteboard)")) return [""];
    return ["board", "rest"];
  }

  function show(i, fromPeer, at) {
    cur = Math.max(0, Math.min(pages.length - 1, i));
    var n = steps(pages[cur]).length;
    step = presenting() ? Math.max(0, Math.min(n - 1, at === undefined ? 0 : at < 0 ? n + at : at)) : 0;
    pages.forEach(function (p, k) {
      p.classList.toggle("current", k === cur);
      if (k === cur && presenting() && steps(p)[step]) p.dataset.step = steps(p)[step];
      else delete p.dataset.step;
    });
    body.dataset.page = String(cur);
    body.dataset.step = String(step);
    if (!presenting()) {
      pages[cur].scrollIntoView({block: "start"});
      settled = scrollY;
    }
    if (!presenter && pages[cur].id && location.hash !== "#" + pages[cur].id) {
      history.replaceState(null, "", "#" + pages[cur].id);
    }
    if (presenter) drawPresenter();
    fit();
    if (!fromPeer) send();
  }

  // fit scales the current page to its stage (the window, or the
  // presenter view's left part), shrinking its content first if it would
  // not fit a 16:9 slide.
  function fit() {
    if (!presenting()) return;
    place(pages[cur], presenter ? view.stage() : {x: 0, y: 0, w: innerWidth, h: innerHeight});
    if (presenter && view.next.firstChild) place(view.next.firstChild, view.nextStage());
  }

  // place sets the variables page.css scales and moves a page by (on
  // screen only: a print of the page ignores them).
  function place(el, r) {
    var z = 1, s = Math.min(r.w / W, r.h / H);
    el.style.setProperty("--z", "1");
    while (z > 0.4 && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)) {
      z -= 0.05;
      el.style.setProperty("--z", String(z));
    }
    el.style.setProperty("--s", String(s));
    el.style.setProperty("--x", r.x + (r.w - W * s) / 2 + "px");
    el.style.setProperty("--y", r.y + (r.h - H * s) / 2 + "px");
  }

  // next and prev step through the parts of a slide, then the pages.
  function next() {
    if (presenting() && step < steps(pages[cur]).length - 1) show(cur, false, step + 1);
    else show(cur + 1, false, cur + 1 < pages.length ? 0 : step);
  }
  function prev() {
    if (presenting() && step > 0) show(cur, false, step - 1);
    else show(cur - 1, false, cur > 0 ? -1 : 0);
  }

  // inView is the page the reader sees at the top of the window: the
  // last one that starts in its upper third.
  function inView() {
    var k = 0;
    pages.forEach(function (p, j) { if (p.getBoundingClientRect().top <= innerHeight / 3) k = j; });
    return k;
  }

  // reveal shows the next hidden answer among the questions the class
  // sees on page k; when all are shown, it hides them again. A question
  // with no answer in the key (a pupil's copy) is passed over.
  function reveal(k) {
    var qs = pages[k].querySelectorAll(".quiz li.question"), keys = pages[k].querySelectorAll(".answer-key li[data-correct]");
    var open = [];
    qs.forEach(function (q, j) { if (q.getClientRects().length && keys[j] && (keys[j].getAttribute("data-correct") || keys[j].querySelector("template.reveal"))) open.push(j); });
    if (!open.length) return;
    for (var i = 0; i < open.length; i++) {
      if (!revealed[k + ":" + open[i]]) { revealed[k + ":" + open[i]] = true; applyReveals(); send(); return; }
    }
    open.forEach(function (j) { delete revealed[k + ":" + j]; });
    applyReveals();
    send();
  }

  // applyReveals shows the answer of each revealed question, from the
  // answer key in the page's notes: it marks the correct options
  // (data-correct), or, for a question with none to mark, writes the
  // answer (its template) under the question.
  function applyReveals() {
    pages.forEach(function (p, k) {
      var keys = p.querySelectorAll(".answer-key li[data-correct]");
      p.querySelectorAll(".quiz li.question").forEach(function (q, j) {
        var on = !!revealed[k + ":" + j];
        var correct = on && keys[j] ? keys[j].getAttribute("data-correct").split(" ") : [];
        q.classList.toggle("revealed", on);
        q.querySelectorAll("ol.options > li").forEach(function (o, m) {
          o.classList.toggle("correct", correct.indexOf(String(m + 1)) >= 0);
        });
        var shown = q.querySelector(":scope > .revealed-answer");
        var tpl = on && keys[j] ? keys[j].querySelector("template.reveal") : null;
        if (!tpl && shown) shown.remove();
        if (tpl && !shown) {
          shown = el("div", "revealed-answer");
          shown.appendChild(tpl.content.cloneNode(true));
          q.appendChild(shown);
        }
      });
    });
    fit(); // an answer written in takes room: fit the slide again
  }

  // send tells the other window (presenter view or audience) where we are.
  function send() {
    var to = presenter ? window.opener : peer;
    if (to && !to.closed) to.postMessage({lessongen: "sync", page: cur, step: step, revealed: Object.keys(revealed)}, "*");
  }

  window.addEventListener("message", function (e) {
    var d = e.data;
    if (!d || (d.lessongen !== "sync" && d.lessongen !== "hello")) return;
    if (!presenter && e.source && e.source !== peer) {
      try { if (e.source.opener === window) peer = e.source; } catch (err) { return; }
    }
    if (e.source !== peer && e.source !== window.opener) return;
    if (d.lessongen === "hello") { send(); return; }
    revealed = {};
    (d.revealed || []).forEach(function (k) { revealed[k] = true; });
    applyReveals();
    show(+d.page || 0, true, +d.step || 0);
  });

  function openPresenter() {
    if (presenter) return;
    if (!presenting()) togglePresent();
    peer = window.open(location.href.split("#")[0] + "#presenter", "lessongen-presenter", "width=1280,height=800");
  }

  function togglePresent() {
    body.classList.toggle("present");
    show(cur);
  }

  function fullscreen() {
    if (document.fullscreenElement) document.exitFullscreen();
    else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(function () {});
  }

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    // The reader scrolled since the last key: go on from the page in view.
    if (!presenting() && Math.abs(scrollY - settled) > 2) cur = inView();
    switch (e.key) {
      case "ArrowRight": case "ArrowDown": case "PageDown": case " ": next(); break;
      case "ArrowLeft": case "ArrowUp": case "PageUp": prev(); break;
      case "Home": show(0); break;
      case "End": show(pages.length - 1, false, -1); break;
      case "n": case "N": body.classList.toggle("hide-notes"); break;
      case "p": case "P": if (!presenter) togglePresent(); break;
      case "Escape": if (presenting() && !presenter) togglePresent(); break;
      case "f": case "F": fullscreen(); break;
      case "s": case "S": openPresenter(); break;
      case "a": case "A": reveal(cur); break;
      default: return;
    }
    e.preventDefault();
  });

  // A click on a question in present mode shows or hides its answer.
  document.addEventListener("click", function (e) {
    var q = presenting() && e.target.closest ? e.target.closest(".page.current .quiz li.question") : null;
    if (!q) return;
    var j = Array.prototype.indexOf.call(pages[cur].querySelectorAll(".quiz li.question"), q);
    if (revealed[cur + ":" + j]) delete revealed[cur + ":" + j];
    else revealed[cur + ":" + j] = true;
    applyReveals();
    send();
  });

  window.addEventListener("hashchange", function () { goTo(location.hash); });
  window.addEventListener("resize", fit);

  function goTo(hash) {
    var k = pages.findIndex(function (p) { return "#" + p.id === hash; });
    if (k >= 0) show(k);
  }

  // The presenter view: this page, opened at #presenter by S. The slide
  // as the class sees it on the left, the notes under it; the next slide,
  // a timer and the slide's minutes on the right.
  function buildPresenter() {
    body.classList.add("present", "presenter");
    var panel = el("div", "pv-panel");
    view = {
      next: el("div", "pv-next"), notes: el("div", "pv-notes"),
      clock: el("div", "pv-clock"), info: el("div", "pv-info"), upnext: el("div", "pv-info"),
      started: Date.now(), since: Date.now(), shown: -1,
    };
    panel.appendChild(view.clock);
    panel.appendChild(view.info);
    panel.appendChild(view.upnext);
    [view.next, panel, view.notes].forEach(function (n) { body.appendChild(n); });
    view.clock.title = "click to restart the timer";
    view.clock.addEventListener("click", function () { view.started = view.since = Date.now(); tick(); });
    view.stage = function () { return {x: 16, y: 16, w: innerWidth * 0.64 - 24, h: innerHeight * 0.58 - 24}; };
    view.nextStage = function () { return {x: innerWidth * 0.64 + 8, y: 16, w: innerWidth * 0.36 - 24, h: innerHeight * 0.36 - 24}; };
    setInterval(tick, 1000);
    if (window.opener) window.opener.postMessage({lessongen: "hello"}, "*");
  }

  function drawPresenter() {
    if (view.shown !== cur) { view.shown = cur; view.since = Date.now(); }
    // What the next press shows: this slide's next part, or the next page.
    var more = step < steps(pages[cur]).length - 1, next = more ? pages[cur] : pages[cur + 1];
    view.next.textContent = "";
    if (next) {
      var copy = next.cloneNode(true);
      copy.removeAttribute("id");
      copy.querySelectorAll("[id]").forEach(function (n) { n.removeAttribute("id"); });
      copy.classList.remove("current");
      copy.classList.add("preview");
      var part = steps(next)[more ? step + 1 : 0];
      if (part) copy.dataset.step = part; else delete copy.dataset.step;
      view.next.appendChild(copy);
    }
    var title = next && next.querySelector("h1, h2");
    view.upnext.textContent = more ? "Next: the rest of this slide" : next ? "Next: " + (title ? title.textContent : "a pending slide") : "This is the last page.";
    var notes = pages[cur].querySelector(".notes");
    view.notes.innerHTML = notes ? notes.innerHTML : "<p class=\"pv-none\">No notes for this page.</p>";
    tick();
  }

  function tick() {
    if (!view) return;
    var m = pages[cur].querySelector(".slide-meta .minutes");
    var planned = m ? parseInt(m.textContent, 10) : NaN;
    view.clock.textContent = clock(Date.now() - view.started);
    view.info.textContent = number(pages[cur]) + " · on this page " + clock(Date.now() - view.since) +
      (isNaN(planned) ? "" : " of " + planned + " min planned");
    view.info.classList.toggle("over", !isNaN(planned) && Date.now() - view.since > planned * 60000);
  }

  // number names page p as its footer does: one numbering everywhere.
  function number(p) {
    if (p.dataset.number) return "Slide " + p.dataset.number.replace(" / ", " of ");
    return p.classList.contains("overview") ? "Overview" : "A pending slide";
  }

  function clock(ms) {
    var s = Math.floor(ms / 1000);
    return Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2);
  }

  function el(tag, cls) {
    var n = document.createElement(tag);
    n.className = cls;
    return n;
  }

  if (presenter) buildPresenter();
  var start = pages.findIndex(function (p) { return "#" + p.id === location.hash; });
  applyReveals();
  show(start < 0 ? 0 : start, presenter);
})();
