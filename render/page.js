// Keyboard navigation: arrows (and PageUp/PageDown, space) move between
// pages, Home/End jump, N toggles the speaker notes.
(function () {
  var pages = Array.prototype.slice.call(document.querySelectorAll(".page"));
  var cur = 0;
  function show(i) {
    cur = Math.max(0, Math.min(pages.length - 1, i));
    pages.forEach(function (p, k) { p.classList.toggle("current", k === cur); });
    pages[cur].scrollIntoView({block: "start"});
    document.body.dataset.page = String(cur);
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    switch (e.key) {
      case "ArrowRight": case "ArrowDown": case "PageDown": case " ": show(cur + 1); break;
      case "ArrowLeft": case "ArrowUp": case "PageUp": show(cur - 1); break;
      case "Home": show(0); break;
      case "End": show(pages.length - 1); break;
      case "n": case "N": document.body.classList.toggle("hide-notes"); return;
      case "p": case "P": document.body.classList.toggle("present"); show(cur); return;
      default: return;
    }
    e.preventDefault();
  });
  var start = pages.findIndex(function (p) { return "#" + p.id === location.hash; });
  show(start < 0 ? 0 : start);
})();
