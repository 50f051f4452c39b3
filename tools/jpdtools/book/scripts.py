# ruff: noqa: E501 -- strings and scripts are kept whole, one line each
"""The book's script beyond the index filters: the reviewer's panel. Small, no library, reached
from ``file://``; without scripts every page reads whole (each edition in its own language: no
string is swapped by a script, the panel's messages are in its data attributes)."""

REVIEW_SCRIPT = """// The reviewer's panel: entries kept in localStorage, exported as one review file.
(function () {
  var KEY = 'jpd-review';
  function load() { try { return JSON.parse(localStorage.getItem(KEY)) || {entries: {}}; } catch (e) { return {entries: {}}; } }
  function save(s) { localStorage.setItem(KEY, JSON.stringify(s)); }
  function today() { return new Date().toISOString().slice(0, 10); }
  document.addEventListener('DOMContentLoaded', function () {
    var panel = document.getElementById('review-panel');
    if (!panel) return;
    panel.hidden = false;
    var $ = function (id) { return document.getElementById(id); };
    var state = load();
    $('rv-name').value = state.reviewer || '';
    function show() {
      var list = $('rv-list');
      list.textContent = '';
      Object.keys(state.entries).sort().forEach(function (k) {
        var e = state.entries[k], li = document.createElement('li');
        li.textContent = e.target + ' ' + e.id + (e.ruleset ? ' / ' + e.ruleset : '') + ': ' + e.action + ' — ' + e.text;
        li.className = 'rv-entry';
        list.appendChild(li);
      });
    }
    $('rv-record').addEventListener('click', function () {
      var name = $('rv-name').value.trim(), text = $('rv-text').value.trim();
      var action = panel.querySelector('input[name=rv-action]:checked').value;
      var err = $('rv-error');
      err.hidden = true;
      if (!name) { err.textContent = panel.dataset.needName; err.hidden = false; return; }
      if (!text && action !== 'accept') { err.textContent = panel.dataset.needText; err.hidden = false; return; }
      state.reviewer = name;
      var e = {target: panel.dataset.target, id: panel.dataset.id, action: action, text: text, date: today()};
      var ruleset = $('rv-scope').value;
      if (ruleset) e.ruleset = ruleset;
      if (panel.dataset.revision && action !== 'comment') e.revision = panel.dataset.revision;
      var k = [e.target, e.id, ruleset, action === 'comment' ? 'comment:' + text : 'decision'].join('|');
      state.entries[k] = e;
      save(state);
      $('rv-text').value = '';
      show();
    });
    $('rv-export').addEventListener('click', function () {
      var entries = Object.keys(state.entries).sort().map(function (k) { return state.entries[k]; });
      var file = {format: 1, kind: 'jipingdian-review', reviewer: state.reviewer || $('rv-name').value.trim(),
                  exported: today(), entries: entries};
      var blob = new Blob([JSON.stringify(file, null, 2) + '\\n'], {type: 'application/json'});
      var a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = 'review-' + (file.reviewer || 'reviewer').replace(/[^A-Za-z0-9\\u4e00-\\u9fff_-]+/g, '_') + '-' + file.exported + '.json';
      document.body.appendChild(a);
      a.click();
      a.remove();
    });
    $('rv-clear').addEventListener('click', function () { state = {reviewer: state.reviewer, entries: {}}; save(state); show(); });
    show();
  });
})();
"""
