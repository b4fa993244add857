/**
 * The desk's only script, served from `/desk/assets/` so the pages' CSP can forbid inline script.
 * It makes the queue live (server-sent events), decides through the JSON API without a reload, and
 * keeps whatever a person is typing when new requests arrive. Everything it shows comes from the
 * server's escaped markup or is set with `textContent`; it never builds HTML from data.
 * Without it the pages still work: forms post and the server redirects back.
 */
export const DESK_SCRIPT = String.raw`'use strict';
(function () {
  var csrfMeta = document.querySelector('meta[name="csrf-token"]');
  var csrf = csrfMeta ? csrfMeta.getAttribute('content') : null;
  var announcer = document.getElementById('announcer');
  var queue = document.getElementById('queue');

  function announce(text) {
    if (!announcer) return;
    announcer.textContent = '';
    window.setTimeout(function () { announcer.textContent = text; }, 30);
    var flash = document.getElementById('desk-flash');
    if (!flash && queue) {
      flash = document.createElement('p');
      flash.id = 'desk-flash';
      flash.className = 'flash flash-ok';
      var body = document.getElementById('queue-body');
      queue.insertBefore(flash, body);
    }
    if (flash) flash.textContent = text;
  }

  function setCount(count) {
    var nodes = document.querySelectorAll('[data-queue-count]');
    for (var i = 0; i < nodes.length; i++) nodes[i].textContent = String(count);
    document.title = document.title.replace(/^Queue \(\d+\)/, 'Queue (' + count + ')');
  }

  function setLive(state) {
    var live = document.getElementById('live-state');
    if (!live) return;
    live.setAttribute('data-state', state);
    live.textContent = state === 'live' ? 'Updates live' : 'Reconnecting…';
  }

  // The Calls page: the live calls are reloaded every few seconds, except while someone is using
  // one of their forms (choosing a transfer target), so a refresh never takes the control away.
  var calls = document.getElementById('calls');
  if (calls) {
    window.setInterval(function () {
      var body = document.getElementById('calls-body');
      if (!body || body.contains(document.activeElement)) return;
      fetch('/desk/partials/calls', { credentials: 'same-origin' })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (text) {
          if (text === null) return;
          var fresh = new DOMParser().parseFromString(text, 'text/html').getElementById('calls-body');
          var current = document.getElementById('calls-body');
          if (fresh && current && !current.contains(document.activeElement)) current.replaceWith(fresh);
        })
        .catch(function () { /* the next tick tries again */ });
    }, 3000);
  }

  if (!queue) return;

  var refreshing = false;
  var again = false;

  // Merges the server's fresh list into the page: cards already shown stay as they are (with any
  // note being typed and the focus), new ones are added, decided ones leave.
  function merge(fresh) {
    var body = document.getElementById('queue-body');
    var list = body && body.querySelector('ul.queue');
    var freshBody = fresh.querySelector('#queue-body');
    if (!body || !list || !freshBody) return;
    var freshList = freshBody.querySelector('ul.queue');
    var existing = {};
    var cards = list.querySelectorAll('li[data-id]');
    for (var i = 0; i < cards.length; i++) existing[cards[i].getAttribute('data-id')] = cards[i];
    var order = [];
    var added = 0;
    var freshCards = freshList ? freshList.querySelectorAll('li[data-id]') : [];
    for (var j = 0; j < freshCards.length; j++) {
      var id = freshCards[j].getAttribute('data-id');
      if (existing[id]) {
        order.push(existing[id]);
        delete existing[id];
      } else {
        var card = document.importNode(freshCards[j], true);
        card.classList.add('fresh');
        order.push(card);
        added++;
      }
    }
    var focusLost = false;
    for (var gone in existing) {
      if (existing[gone].contains(document.activeElement)) focusLost = true;
      existing[gone].remove();
    }
    for (var k = 0; k < order.length; k++) list.appendChild(order[k]);
    var empty = body.querySelector('.empty');
    if (order.length === 0 && !empty) {
      var freshEmpty = freshBody.querySelector('.empty');
      if (freshEmpty) body.insertBefore(document.importNode(freshEmpty, true), list);
    } else if (order.length > 0 && empty) {
      empty.remove();
    }
    body.setAttribute('data-count', String(order.length));
    setCount(order.length);
    if (focusLost) {
      var title = document.getElementById('queue-title');
      if (title) title.focus();
    }
    if (added > 0) announce(added === 1 ? 'A new request arrived.' : added + ' new requests arrived.');
  }

  function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    fetch('/desk/partials/queue', { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (response) {
        if (response.status === 401) { window.location.assign('/desk/login'); return null; }
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (html === null) return;
        var template = document.createElement('template');
        template.innerHTML = html;
        merge(template.content);
      })
      .catch(function () { /* the next event or reconnect refreshes again */ })
      .then(function () {
        refreshing = false;
        if (again) { again = false; refresh(); }
      });
  }

  function decide(form, decision) {
    var buttons = form.querySelectorAll('button');
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
    var note = form.elements.namedItem('note');
    var body = { decision: decision };
    if (note && note.value.trim() !== '') body.note = note.value;
    var label = form.getAttribute('data-label') || 'The request';
    fetch(form.getAttribute('data-api'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf || '' },
      body: JSON.stringify(body),
    })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (json) {
          return { status: response.status, json: json };
        });
      })
      .then(function (result) {
        if (result.status === 401) { window.location.assign('/desk/login'); return; }
        if (result.status === 200) {
          var status = result.json.approval ? result.json.approval.status : decision;
          announce(label + ': ' + status + '.');
          refresh();
          return;
        }
        announce((result.json && result.json.message) || 'That did not work; please try again.');
        if (result.status === 409 || result.status === 404) { refresh(); return; }
        for (var j = 0; j < buttons.length; j++) buttons[j].disabled = false;
      })
      .catch(function () {
        announce('The desk could not be reached; please try again.');
        for (var j = 0; j < buttons.length; j++) buttons[j].disabled = false;
      });
  }

  queue.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains('decision') || !csrf) return;
    event.preventDefault();
    var submitter = event.submitter;
    decide(form, submitter && submitter.value === 'reject' ? 'reject' : 'approve');
  });

  if (typeof EventSource === 'function') {
    var source = new EventSource('/desk/api/events');
    var connectedBefore = false;
    source.addEventListener('ready', function () {
      setLive('live');
      // After a reconnect, changes made meanwhile were not announced: reload the list.
      if (connectedBefore) refresh();
      connectedBefore = true;
    });
    source.addEventListener('queue', refresh);
    source.addEventListener('error', function () { setLive('offline'); });
  }
})();
`;
