// The simulator page: voice (Web Speech API when the browser has it) or text in, spoken reply and
// cards out, the developer trace, and the account-linking popup. Everything is rendered with
// textContent, never as HTML.

const $ = (id) => document.getElementById(id);

const state = { busy: false, linkUrl: undefined, popup: undefined, traceCount: 0, demoLogin: undefined };

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

async function api(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(json.message || json.error || `HTTP ${response.status}`);
  return json;
}

// ---------- time and money, the way a screen across the room shows them ----------

function time12(hhmm) {
  const [h, m] = hhmm.split(':').map(Number);
  const suffix = h < 12 ? 'AM' : 'PM';
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, '0')} ${suffix}`;
}

function longDate(iso) {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

const dollars = (n) => `$${Math.round(n).toLocaleString('en-US')}`;

// ---------- voice ----------

const Recognition = window.SpeechRecognition || window.webkitSpeechRecognition;
let recognition;

function setRing(mode) {
  $('ring').dataset.state = mode;
}

function speak(text) {
  if (!('speechSynthesis' in window) || !text) return;
  window.speechSynthesis.cancel();
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = 'en-US';
  const voice = window.speechSynthesis.getVoices().find((v) => v.lang === 'en-US');
  if (voice) utterance.voice = voice;
  utterance.onstart = () => setRing('speaking');
  utterance.onend = () => setRing('idle');
  window.speechSynthesis.speak(utterance);
}

function listen() {
  if (state.busy) return;
  if (!Recognition) {
    $('hint').textContent = 'Voice input is not available in this browser: type what the caller says below.';
    $('text').focus();
    return;
  }
  if (recognition) {
    recognition.stop();
    return;
  }
  recognition = new Recognition();
  recognition.lang = 'en-US';
  recognition.interimResults = true;
  recognition.maxAlternatives = 1;
  setRing('listening');
  $('hint').textContent = 'Listening…';
  recognition.onresult = (event) => {
    const result = event.results[event.results.length - 1];
    $('you').textContent = `“${result[0].transcript}”`;
    if (result.isFinal) void say(result[0].transcript);
  };
  recognition.onerror = (event) => {
    $('hint').textContent = `Voice input stopped (${event.error}). You can type instead.`;
  };
  recognition.onend = () => {
    recognition = undefined;
    if ($('ring').dataset.state === 'listening') setRing('idle');
  };
  recognition.start();
}

// ---------- cards ----------

function badge(text, status) {
  return el('span', `badge badge-${status}`, text);
}

function renderCard(card) {
  const node = el('article', `card card-${card.kind}`);
  switch (card.kind) {
    case 'slots': {
      node.append(
        el('h3', 'card-title', `Open times · ${card.service}`),
        el('p', 'card-sub', longDate(card.date)),
      );
      const list = el('ul', 'slots');
      if (card.slots.length === 0) list.append(el('li', 'slot none', 'No openings that day'));
      for (const slot of card.slots) {
        const item = el('li', 'slot');
        item.append(el('strong', '', time12(slot.start_time)), el('small', '', slot.staff));
        list.append(item);
      }
      node.append(list);
      if (card.more > 0) node.append(el('p', 'card-foot', `and ${card.more} more`));
      break;
    }
    case 'appointment': {
      const head = el('div', 'card-head');
      head.append(
        el('h3', 'card-title', card.status === 'pending_approval' ? 'Hold placed' : 'Your appointment'),
      );
      head.append(badge(card.badge, card.status));
      node.append(head);
      node.append(el('p', 'card-big', `${card.service}`));
      node.append(
        el('p', 'card-sub', `${longDate(card.date)} · ${time12(card.start_time)}–${time12(card.end_time)}`),
      );
      node.append(el('p', 'card-sub', `with ${card.staff_name}`));
      node.append(el('p', 'card-foot ref', `Reference ${card.appointment_id}`));
      break;
    }
    case 'faq': {
      node.append(el('h3', 'card-title', 'From the office'));
      node.append(el('p', 'card-text', card.answer));
      node.append(
        el(
          'p',
          'card-foot',
          card.grounded ? `Source: faq/${card.source_id}` : 'Not in the office information',
        ),
      );
      break;
    }
    case 'quote': {
      const head = el('div', 'card-head');
      head.append(el('h3', 'card-title', 'Illustrative range'), badge('Not a quote', 'notice'));
      node.append(head);
      node.append(el('p', 'card-big', `${dollars(card.annual_low)} – ${dollars(card.annual_high)} a year`));
      node.append(
        el('p', 'card-sub', `about ${dollars(card.monthly_low)} – ${dollars(card.monthly_high)} a month`),
      );
      node.append(el('p', 'card-foot disclaimer', card.disclaimer));
      break;
    }
    case 'escalation': {
      const head = el('div', 'card-head');
      head.append(el('h3', 'card-title', 'Passed to a person'), badge(card.badge, 'pending_approval'));
      node.append(head, el('p', 'card-foot ref', `Reference ${card.escalation_id}`));
      break;
    }
    default: {
      node.append(el('h3', 'card-title', 'Note'), el('p', 'card-text', card.message));
      node.append(el('p', 'card-foot', card.code));
    }
  }
  return node;
}

/** Newest cards on top; earlier ones stay below, dimmed, so the whole call can be followed. */
const MAX_CARDS = 8;

function showCards(cards) {
  if (cards.length === 0) return;
  const area = $('cards');
  for (const old of area.children) old.classList.add('earlier');
  area.prepend(...cards.map(renderCard));
  while (area.children.length > MAX_CARDS) area.lastElementChild.remove();
  area.scrollTop = 0;
}

// ---------- trace ----------

function traceLine(event) {
  const item = el('li', `trace-${event.kind}`);
  const tag = el('span', 'tag', event.kind === 'guard' ? `guard:${event.guard}` : event.kind);
  item.append(tag);
  let text;
  switch (event.kind) {
    case 'mcp':
      text = `${event.method}${event.tool ? ` ${event.tool}` : ''}${event.arguments ? ` ${JSON.stringify(event.arguments)}` : ''} · ${event.latency_ms} ms · ${event.tier === 'user' ? 'Tier 2 (caller)' : 'Tier 1 (service)'}${event.ok ? '' : ` · ${event.error_code}`}`;
      break;
    case 'model':
      text = `${event.provider} step ${event.step} · ${event.latency_ms} ms · ${
        event.tool_calls.length > 0
          ? event.tool_calls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`).join(', ')
          : `“${event.content}”`
      }${event.fallback_reason ? ` · fallback: ${event.fallback_reason}` : ''}`;
      break;
    case 'oauth':
      text = `${event.event}: ${event.detail}`;
      break;
    default:
      text = event.detail;
  }
  item.append(el('span', 'trace-text', text));
  return item;
}

function addTrace(events) {
  const list = $('trace-list');
  for (const event of events) list.append(traceLine(event));
  state.traceCount += events.length;
  $('trace-count').textContent = String(state.traceCount);
  list.scrollTop = list.scrollHeight;
}

// ---------- turns ----------

function render(turn) {
  addTrace(turn.trace);
  showCards(turn.cards);
  $('reply').textContent = turn.reply;
  speak(turn.reply);
  if (turn.status === 'needs_link') {
    state.linkUrl = turn.link_url;
    openLinkDialog();
  }
}

async function say(text) {
  const utterance = text.trim();
  if (!utterance || state.busy) return;
  state.busy = true;
  $('you').textContent = `“${utterance}”`;
  $('hint').textContent = 'Thinking…';
  setRing('thinking');
  try {
    render(await api('/api/utterance', { text: utterance }));
    $('hint').textContent = 'Tap the ring and speak, or type below.';
  } catch (error) {
    $('reply').textContent = `Sorry, something went wrong: ${error.message}`;
  } finally {
    state.busy = false;
    if ($('ring').dataset.state === 'thinking') setRing('idle');
  }
}

// ---------- account linking ----------

function openLinkDialog(message) {
  const error = $('link-error');
  error.hidden = !message;
  error.textContent = message || '';
  const login = $('demo-login');
  if (state.demoLogin) {
    login.hidden = false;
    login.textContent = `Demo caller: ${state.demoLogin.username} / ${state.demoLogin.password}`;
  }
  if (!$('link-dialog').open) $('link-dialog').showModal();
}

async function resume() {
  state.busy = true;
  setRing('thinking');
  try {
    const turn = await api('/api/link/resume', {});
    if (turn.status === 'reply') {
      $('link-state').textContent = 'Account linked';
      $('link-state').dataset.linked = 'yes';
    }
    render(turn);
  } catch (error) {
    $('reply').textContent = `Sorry, something went wrong: ${error.message}`;
  } finally {
    state.busy = false;
    if ($('ring').dataset.state === 'thinking') setRing('idle');
  }
}

window.addEventListener('message', (event) => {
  if (event.origin !== window.location.origin || !event.data || event.data.type !== 'holddesk-link') return;
  if (event.data.linked) {
    $('link-dialog').close();
    void resume();
  } else {
    openLinkDialog('Linking did not complete. You can try again.');
  }
});

// ---------- start ----------

async function start() {
  $('ring').addEventListener('click', listen);
  $('say').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $('text');
    const text = input.value;
    input.value = '';
    void say(text);
  });
  $('link-open').addEventListener('click', () => {
    if (!state.linkUrl) return;
    state.popup = window.open(state.linkUrl, 'holddesk-link', 'popup,width=520,height=720');
  });
  $('link-cancel').addEventListener('click', () => $('link-dialog').close());
  if (!Recognition)
    $('hint').textContent = 'Type what the caller says below (voice input needs Chrome or Edge).';
  const tick = () => {
    $('clock').textContent = new Date().toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
  };
  tick();
  setInterval(tick, 15_000);

  const config = await api('/api/config');
  $('desk').src = config.desk_url;
  state.demoLogin = config.demo_login;
  try {
    const session = await api('/api/session', {});
    $('provider').textContent = `model: ${session.provider}`;
    $('office').textContent = session.office;
    addTrace(session.trace);
    document.body.dataset.ready = 'yes';
  } catch (error) {
    $('provider').textContent = 'offline';
    $('reply').textContent = `The office system could not be reached (${error.message}).`;
  }
}

void start();
