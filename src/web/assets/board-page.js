// The page the board draws into: the elements pages.ts writes (ids the tests and board.css rely on),
// the league day it shows (given by the server in <meta name="league-date">), an element builder and
// the status line.

export var gamesEl = document.getElementById('games');
export var statusEl = document.getElementById('status');
export var noticeEl = document.getElementById('notice');
export var highlightsEl = document.getElementById('highlights');
export var highlightList = document.getElementById('highlight-list');
export var filtersEl = document.getElementById('filters');
export var bookFilterEl = document.getElementById('book-filter');
export var leagueDate = document.querySelector('meta[name="league-date"]').content;

export function setStatus(text, kind, extra) {
  statusEl.replaceChildren(document.createTextNode(text));
  if (extra) statusEl.appendChild(extra);
  statusEl.className = 'status' + (kind ? ' ' + kind : '');
}

export function el(tag, attrs, children) {
  var node = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (k) {
    if (attrs[k] === undefined || attrs[k] === null) return;
    if (k === 'text') node.textContent = attrs[k];
    else if (k === 'dataset') Object.assign(node.dataset, attrs[k]);
    else node.setAttribute(k, attrs[k]);
  });
  (children || []).forEach(function (c) {
    if (c !== null && c !== undefined) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  });
  return node;
}
