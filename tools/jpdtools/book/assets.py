"""The book's style sheet (screen and print) and its one small script (the index filters)."""

from jpdtools.book.font import font_face

STYLE = (
    font_face("../")
    + """
:root{--ink:#222;--line:#ccc;--bad:#fbe3e3;--ok:#e6f4e6;--open:#fff4d6;--differ:#ffe0b3}
body{font:15px/1.5 "JPD Noto Sans SC",system-ui,sans-serif;color:var(--ink);margin:0}
svg.board{font-family:"JPD Noto Sans SC",sans-serif}button,input,select,textarea{font-family:inherit}
main{max-width:76em;margin:0 auto;padding:0 1em 2em}
nav.top{background:#2d2d2d;padding:.5em 1em}nav.top a{color:#fff;margin-right:1.2em;text-decoration:none}
nav.top button.lang{float:right;background:#fff;border:0;border-radius:.3em;padding:.1em .7em;cursor:pointer}
.review-panel{border:2px solid #2a6;border-radius:.4em;padding:.2em 1em .6em;margin:1.5em 0;
 background:#f7fbf8}.review-panel textarea{max-width:100%}
.fallback{color:#4a4a6a}div.fallback{border-left:3px dotted #aab;padding-left:.6em}
span.claim{background:#f3f3f3;padding:0 .2em}
td a.term{color:inherit;text-decoration:none;border-bottom:1px dotted #888}
footer{color:#777;font-size:.85em;text-align:center;padding:1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.8em;border-bottom:1px solid var(--line)}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid var(--line);padding:.2em .5em;vertical-align:top}
th{background:#f4f4f4;text-align:left}code,pre{font:13px/1.35 "JPD Noto Sans SC",ui-monospace,monospace}
pre{white-space:pre-wrap;background:#f7f7f7;padding:.5em}
blockquote{margin:.3em 0 .6em 1em;padding-left:.8em;border-left:3px solid #bbb;color:#444}
blockquote.operative{border-left-color:#2a6;color:#111;font-size:1.05em;background:#f3faf5}
.cite-of{margin:0 0 .4em 1em;font-size:.9em;color:#555}
.article{margin:.5em 0 1em}
.sentence{margin:.15em 0;padding:.25em .5em;border-left:3px solid transparent;overflow-wrap:anywhere}
.sentence .sid{font-size:.8em;color:#666;margin-right:.3em;text-decoration:none}
.sentence .notes{font-size:.85em;color:#555}
.sentence .notes>span{display:block}
.sentence.normative{background:#f3faf5;border-left-color:#2a6}
.sentence.normative .text{color:#111}
.sentence.non-normative .text{color:#777}
.sentence.unused .text{color:#444}
.sentence.cited{border-left-width:5px}
.sentence:target{outline:2px solid #c90}
.chips{display:flex;flex-wrap:wrap;gap:2px}
.chip{display:inline-block;min-width:1.4em;padding:0 .2em;font-size:.75em;text-align:center;border-radius:3px}
.chip{border:1px solid #999;color:#333;text-decoration:none}
.chip.normative{background:#2a6;border-color:#2a6;color:#fff}
.chip.non-normative{background:#ccc;border-color:#bbb}
.chip.unused{background:#fff}
.chip.cited{box-shadow:0 0 0 2px #c90}
.seed-index td:nth-child(2){min-width:10em}
.status{padding:0 .4em;border-radius:.3em;font-size:.9em;white-space:nowrap}
.status.accepted{background:var(--ok)}
.status.proposed{background:#e0ecff}.status.disputed{background:var(--bad)}
.status.rejected{background:#555;color:#fff}
.ok{background:var(--ok)}.bad{background:var(--bad)}.open{background:var(--open)}.none{background:#fff}
td.differs,span.differs{box-shadow:inset 0 0 0 2px #e67e22;
 background-image:linear-gradient(var(--differ),var(--differ))}
th.disagree{color:#c0392b}.skip{color:#777}.st-fail,.st-error{color:#c0392b}
.boards{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}figure{margin:.4em 0}
figcaption{font-size:.85em;color:#555;max-width:30em}svg.board{max-width:100%;height:auto}
.scroll{overflow-x:auto}.overview{display:flex;flex-wrap:wrap;gap:0 2.5em;align-items:flex-start}
.overview>div:last-child{flex:1 1 30em;min-width:0}.legend{font-size:.85em;color:#555}
table.matrix.differences td{text-align:center;padding:0}
table.matrix.study td{text-align:center;padding:0}table.matrix.study td>span{display:block;padding:.3em .5em}
table.matrix.study .all{background:#d8f0d8}table.matrix.study .most{background:#f3f0c8}
table.matrix.study .few{background:#f6d3cf}figure.ex svg{max-width:320px}
a.cell{display:block;padding:.3em .6em;text-decoration:none;color:#000;
 background:color-mix(in srgb,#e67e22 var(--shade),#fff)}
.vert{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap}
.filters{display:flex;flex-wrap:wrap;gap:.6em 1.2em;margin:1em 0;padding:.6em;background:#f4f4f4}
.filters select{max-width:14em}tr.case[hidden]{display:none}
details{margin:.3em 0}summary{cursor:pointer}
details.topic{border-bottom:1px solid var(--line);padding:.2em 0}details.topic>summary{padding:.2em 0}
.topic-name{font-weight:600}
.topic-about{margin:.2em 0;color:#444;font-size:.9em}
.topic-count,.topic-statuses{color:#555;font-size:.9em;margin-left:.4em}
.spec{max-width:52em}
.board-legend{display:block;font-size:.8em;color:#555;max-width:30em}
.proof-lines svg.board{width:10em}.proof-lines figcaption{max-width:11em}.proof-chain{margin-left:1em}
.proof-disproven,.proof-undecided{color:#c0392b}.proof-proven{color:#1e7e34}
@media screen{
 main table{display:block;max-width:100%;overflow-x:auto}
 main pre,main .spec{max-width:100%;overflow-x:auto}
 main p,main li,main td,main th,main dd,main figcaption{overflow-wrap:break-word}
}
@page{size:A4;margin:14mm 12mm}
@media print{
 nav.top,footer,.filters,.noscript-note,.review-panel{display:none}
 body{font-size:11pt}main{max-width:none;padding:0}
 a{color:inherit;text-decoration:none}
 section.step,figure,table.matrix{break-inside:avoid}
 h1,h2,h3{break-after:avoid}
 details>summary{list-style:none}
 tr.case[hidden]{display:table-row}
 article.case,section.title-page{break-before:page}
}
"""
)

SCRIPT = """// Filters of the case list: a few lines, no library. Without scripts the whole list shows.
(function () {
  var form = document.getElementById('filters');
  if (!form) return;
  form.hidden = false;
  var note = document.querySelector('.noscript-note');
  if (note) note.hidden = true;
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.case'));
  var topics = Array.prototype.slice.call(document.querySelectorAll('details.topic'));
  var shown = document.getElementById('shown');
  function has(list, value, sep) { return (list || '').split(sep).indexOf(value) >= 0; }
  function apply() {
    var f = {};
    ['status', 'tag', 'clause', 'seed', 'ruleset', 'q'].forEach(function (k) {
      f[k] = form.elements[k].value;
    });
    var q = f.q.trim().toLowerCase(), n = 0;
    rows.forEach(function (r) {
      var d = r.dataset;
      var ok = (!f.status || d.status === f.status) && (!f.tag || has(d.tags, f.tag, ' ')) &&
        (!f.clause || has(d.clauses, f.clause, ' ')) && (!f.seed || has(d.seeds, f.seed, '|')) &&
        (!f.ruleset || has(d.rulesets, f.ruleset, ' ')) && (!q || d.text.indexOf(q) >= 0);
      r.hidden = !ok;
      if (ok) n++;
    });
    var said = form.dataset.shown || '{n} / {total}';
    shown.textContent = said.replace('{n}', n).replace('{total}', rows.length);
    var filtering = !!q || ['status', 'tag', 'clause', 'seed', 'ruleset'].some(function (k) { return f[k]; });
    topics.forEach(function (t) {
      var all = t.querySelectorAll('tr.case'), k = 0;
      for (var i = 0; i < all.length; i++) if (!all[i].hidden) k++;
      var count = t.querySelector('.topic-count');
      count.textContent = filtering
        ? said.replace('{n}', k).replace('{total}', all.length) : count.dataset.all;
      t.hidden = filtering && k === 0;
      if (filtering) t.open = k > 0;
    });
  }
  var params = new URLSearchParams(window.location.search);
  params.forEach(function (value, key) { if (form.elements[key]) form.elements[key].value = value; });
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  apply();
})();
"""
