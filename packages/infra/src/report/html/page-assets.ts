/** Styles of the report page. @internal */
export const PAGE_CSS = `
:root { color-scheme: light; --ink: #1d2433; --muted: #5b6578; --line: #e3e7ee; --card: #fff; --bg: #f4f6fa; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 20px 48px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 0 0 2px; }
.subtitle, .caption { color: var(--muted); margin: 0 0 12px; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(210px, 1fr)); gap: 8px; margin: 16px 0 20px; }
.fact { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; }
.fact dt { color: var(--muted); font-size: 12px; }
.fact dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 16px; margin: 0 0 16px; }
.chart { width: 100%; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 12px; }
.empty { color: var(--muted); font-style: italic; }
`;

/**
 * Client script: reads the embedded JSON, builds the DOM with textContent only (no HTML from data),
 * draws each chart with the SVG renderer and marks it `data-rendered="N points"` from ECharts' own model.
 * @internal
 */
export const PAGE_SCRIPT = `(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var root = document.getElementById('report');
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  root.appendChild(el('h1', null, data.title));
  root.appendChild(el('p', 'subtitle', data.subtitle));
  var facts = el('dl', 'facts');
  data.facts.forEach(function (f) {
    var box = el('div', 'fact');
    box.appendChild(el('dt', null, f[0]));
    box.appendChild(el('dd', null, f[1]));
    facts.appendChild(box);
  });
  root.appendChild(facts);
  var charts = [];
  data.charts.forEach(function (spec) {
    var card = el('section', 'card');
    card.appendChild(el('h2', null, spec.title));
    card.appendChild(el('p', 'caption', spec.caption));
    var box = el('div', 'chart');
    box.id = 'chart-' + spec.id;
    box.style.height = (spec.height || 320) + 'px';
    card.appendChild(box);
    root.appendChild(card);
    try {
      var chart = echarts.init(box, null, { renderer: 'svg' });
      var option = Object.assign({ animation: false }, spec.option);
      chart.setOption(option);
      var points = chart.getModel().getSeries().reduce(function (n, s) { return n + s.getData().count(); }, 0);
      box.setAttribute('data-rendered', points + ' points');
      charts.push(chart);
    } catch (e) {
      box.setAttribute('data-render-error', String(e && e.message || e));
      box.textContent = 'This chart could not be drawn: ' + String(e && e.message || e);
    }
  });
  data.tables.forEach(function (spec) {
    var card = el('section', 'card');
    card.id = 'table-' + spec.id;
    card.appendChild(el('h2', null, spec.title));
    if (spec.rows.length === 0) {
      card.appendChild(el('p', 'empty', spec.emptyText));
    } else {
      var table = el('table');
      var head = el('tr');
      spec.columns.forEach(function (c) { head.appendChild(el('th', null, c)); });
      table.appendChild(el('thead')).appendChild(head);
      var body = table.appendChild(el('tbody'));
      spec.rows.forEach(function (row) {
        var tr = el('tr');
        row.forEach(function (cell) { tr.appendChild(el('td', null, cell === null ? '' : cell)); });
        body.appendChild(tr);
      });
      card.appendChild(table);
    }
    root.appendChild(card);
  });
  window.addEventListener('resize', function () { charts.forEach(function (c) { c.resize(); }); });
  document.body.setAttribute('data-report-ready', String(charts.length));
})();`;
