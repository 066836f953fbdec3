// The forms of a page used at a card table (the table page /t/<token>/, the one-time links /a/ and
// /j/) when the hall's Wi-Fi drops. Every POST form inside an element marked `data-keep-forms`:
//
// - entry: what the player has typed in a form, kept on the phone as they type (localStorage,
//   keyed by the page's address and the form) and put back when the page is opened again, until
//   the form is sent. A field marked `data-keep="never"` (a PIN) is never kept.
// - sending: the script posts the form itself (the same body, CSRF and one-time tokens included)
//   and shows the server's answer in place of the page, as the browser would have: the page a
//   redirect leads to (with its message), or the form again with its errors.
// - waiting post: a post the network did not carry. Its body and address are kept, the form says
//   "Not sent yet…" and its button waits; it is sent once when the network is back (the `online`
//   event, and a try every few seconds since that event is unreliable), also after a reload. A
//   post that reached the server whose answer was lost is harmless when sent again: the one-time
//   token makes the server answer "already saved". A waiting post that carries a never-kept field
//   is kept for this tab only (sessionStorage), so a PIN does not outlive the tab.
//
// On the table page it also registers the offline worker (`data-keep-worker`, /t/sw.js), which
// shows the last copy of a table page when a reload finds no network. Without JavaScript the forms
// post as they always did. No inline script: the site's Content-Security-Policy refuses it.
(function () {
  "use strict";
  const root = document.querySelector("[data-keep-forms]");
  if (!root) return;
  const html = document.documentElement; // a page written over this one has its own
  const PREFIX = "pegboard:keep:";
  const ENTRY = PREFIX + "entry:";
  const WAITING = PREFIX + "waiting:";
  const MAX_AGE = 12 * 60 * 60 * 1000; // an entry older than a morning's play is dropped
  const RETRY = 4000; // milliseconds between tries while a post waits
  const NOT_SENT = "Not sent yet: it will be sent when the phone is back on the network.";
  const SENDING = "Sending…";
  const BUTTON_WAITING = "Waiting for the network…";
  const page = location.pathname;
  const forms = Array.from(root.querySelectorAll("form")).filter(
    (form) => (form.getAttribute("method") || "").toLowerCase() === "post"
  );
  let sending = false;
  let leaving = false;
  let timer = null;

  function storage(name) {
    try {
      return window[name] || null;
    } catch (error) {
      return null; // storage refused (a private window): the forms still send, nothing is kept
    }
  }
  const local = storage("localStorage");
  const tab = storage("sessionStorage");

  function stores() {
    return [local, tab].filter(Boolean);
  }

  function read(store, key) {
    if (!store) return null;
    try {
      const value = JSON.parse(store.getItem(key));
      if (value && Date.now() - value.at < MAX_AGE) return value;
      store.removeItem(key);
    } catch (error) {
      // a damaged entry: forget it below
    }
    return null;
  }

  function write(store, key, value) {
    if (!store) return false;
    try {
      store.setItem(key, JSON.stringify(value));
      return true;
    } catch (error) {
      return false; // full or refused
    }
  }

  function forget(key) {
    for (const store of stores()) {
      try {
        store.removeItem(key);
      } catch (error) {
        // nothing kept there
      }
    }
  }

  // Old entries of any page are dropped, so a shared phone keeps nothing for long.
  for (const store of stores()) {
    try {
      for (let i = store.length - 1; i >= 0; i--) {
        const key = store.key(i);
        if (key && key.startsWith(PREFIX)) read(store, key);
      }
    } catch (error) {
      // storage refused
    }
  }

  function actionOf(form) {
    return new URL(form.getAttribute("action") || location.href, location.href);
  }

  // A form's name on this page: its address, and which of the forms posting there it is.
  function formKey(form) {
    const action = actionOf(form).pathname;
    const same = forms.filter((other) => actionOf(other).pathname === action);
    return action + "#" + same.indexOf(form);
  }

  function secret(field) {
    return field.type === "password" || field.dataset.keep === "never";
  }

  function typedFields(form) {
    return Array.from(form.elements).filter(
      (field) =>
        field.name &&
        !field.disabled &&
        !secret(field) &&
        !["hidden", "submit", "button", "file", "reset"].includes(field.type)
    );
  }

  function keepEntry(form) {
    const values = [];
    for (const field of typedFields(form)) {
      if (field.type === "radio" || field.type === "checkbox") {
        if (field.checked) values.push([field.name, field.value]);
      } else if (field.value !== "") {
        values.push([field.name, field.value]);
      }
    }
    const key = ENTRY + page + "|" + formKey(form);
    if (values.length) write(local, key, { at: Date.now(), values: values });
    else forget(key);
  }

  function putBack(form, values) {
    const by = new Map();
    for (const [name, value] of values) {
      if (!by.has(name)) by.set(name, []);
      by.get(name).push(value);
    }
    for (const field of typedFields(form)) {
      if (!by.has(field.name)) continue;
      const wanted = by.get(field.name);
      if (field.type === "radio" || field.type === "checkbox") {
        field.checked = wanted.includes(field.value);
      } else {
        field.value = wanted[0];
      }
    }
    // A form folded away (Enter the scores again, File a claim) opens to show what is kept.
    const fold = form.closest("details");
    if (fold) fold.open = true;
  }

  function note(form) {
    let line = form.querySelector("[data-keep-note]");
    if (!line) {
      line = document.createElement("p");
      line.className = "keep-note";
      line.setAttribute("role", "status");
      line.setAttribute("data-keep-note", "");
      line.hidden = true;
      form.appendChild(line);
    }
    return line;
  }

  function say(form, text) {
    const line = note(form);
    line.hidden = !text;
    line.textContent = text;
  }

  function buttons(form) {
    return Array.from(form.querySelectorAll("button[type=submit], input[type=submit]"));
  }

  // The form waits: its buttons say for what ("Sending…", or the network), the line says why.
  function showWaiting(form, text, label) {
    say(form, text);
    form.classList.add("keep-waiting");
    for (const button of buttons(form)) {
      if (button.dataset.keepLabel === undefined) button.dataset.keepLabel = button.textContent;
      button.textContent = label;
      button.disabled = true;
    }
  }

  function waitingPosts() {
    const found = [];
    for (const store of stores()) {
      try {
        for (let i = 0; i < store.length; i++) {
          const key = store.key(i);
          if (!key || !key.startsWith(WAITING + page + "|")) continue;
          const post = read(store, key);
          if (post) found.push(Object.assign({ key: key }, post));
        }
      } catch (error) {
        // storage refused
      }
    }
    return found.sort((a, b) => a.at - b.at);
  }

  function formFor(post) {
    return forms.find((form) => formKey(form) === post.form) || null;
  }

  // The server's answer takes the place of the page, at the address it came from.
  function show(response, body) {
    if (document.documentElement !== html) return;
    window.clearInterval(timer);
    if (response.redirected) history.replaceState(null, "", response.url);
    document.open();
    document.write(body);
    document.close();
    refreshCopy();
  }

  function refreshCopy() {
    // The worker keeps the page as it is now for the next reload without a network.
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ refresh: page });
  }

  // The network did not carry it: 502-504 come from a proxy or a server that is not there yet.
  function unsent(response) {
    return [502, 503, 504].includes(response.status);
  }

  async function send(post) {
    const response = await fetch(post.action, {
      method: "POST",
      body: new URLSearchParams(post.body),
      credentials: "same-origin",
      redirect: "follow",
    });
    if (unsent(response)) throw new TypeError("not delivered");
    const body = await response.text();
    forget(post.key);
    if (post.form) forget(ENTRY + page + "|" + post.form);
    show(response, body);
  }

  async function sendWaiting() {
    if (sending || leaving || document.documentElement !== html) return;
    const post = waitingPosts()[0];
    if (!post) {
      window.clearInterval(timer);
      timer = null;
      return;
    }
    sending = true;
    try {
      await send(post);
    } catch (error) {
      // still off the network: the form keeps saying so, the next try follows
    } finally {
      sending = false;
    }
  }

  function waitForNetwork() {
    if (timer === null) timer = window.setInterval(sendWaiting, RETRY);
  }

  function keepPost(form, post) {
    const tabOnly = Array.from(form.elements).some((field) => field.name && secret(field));
    const key = WAITING + page + "|" + post.form;
    const kept = write(tabOnly ? tab : local, key, post);
    return kept ? key : null;
  }

  async function submit(event) {
    const form = event.target;
    if (!forms.includes(form) || event.defaultPrevented) return;
    if ((form.getAttribute("enctype") || "").includes("multipart")) return;
    event.preventDefault();
    if (form.classList.contains("keep-waiting") || sending) return; // one post at a time
    let data;
    try {
      data = new FormData(form, event.submitter);
    } catch (error) {
      data = new FormData(form);
    }
    const post = {
      at: Date.now(),
      action: actionOf(form).href,
      body: Array.from(data.entries()).filter((pair) => typeof pair[1] === "string"),
      form: formKey(form),
    };
    post.key = keepPost(form, post);
    showWaiting(form, "", SENDING);
    sending = true;
    try {
      await send(post);
    } catch (error) {
      if (post.key) {
        showWaiting(form, NOT_SENT, BUTTON_WAITING);
        waitForNetwork();
      } else {
        // Nowhere to keep it: the player presses the button again when the network is back.
        say(form, "Not sent: the phone is off the network. Press the button again when it is back.");
        form.classList.remove("keep-waiting");
        for (const button of buttons(form)) {
          button.textContent = button.dataset.keepLabel;
          button.disabled = false;
        }
      }
    } finally {
      sending = false;
    }
  }

  // What was typed before a reload comes back; a post still waiting shows as waiting.
  for (const form of forms) {
    note(form);
    const entry = read(local, ENTRY + page + "|" + formKey(form));
    if (entry) putBack(form, entry.values);
    form.addEventListener("input", () => keepEntry(form));
    form.addEventListener("change", () => keepEntry(form));
  }
  root.addEventListener("submit", submit);
  const waiting = waitingPosts();
  for (const post of waiting) {
    const form = formFor(post);
    if (!form) continue;
    putBack(
      form,
      post.body.filter(([name]) => typedFields(form).some((field) => field.name === name))
    );
    showWaiting(form, NOT_SENT, BUTTON_WAITING);
  }
  window.addEventListener("online", sendWaiting);
  // A page on its way out sends nothing more: the next page (or the reload) takes over, and a
  // post sent as the page goes would have its answer lost (it would be "already saved" later).
  function leave() {
    leaving = true;
    window.clearInterval(timer);
    timer = null;
  }
  window.addEventListener("beforeunload", leave);
  window.addEventListener("pagehide", leave);
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return; // back from the browser's back-forward cache: carry on
    leaving = false;
    if (waitingPosts().length) {
      waitForNetwork();
      sendWaiting();
    }
  });
  if (waiting.length) {
    waitForNetwork();
    sendWaiting();
  }

  const worker = root.dataset.keepWorker;
  if (worker && "serviceWorker" in navigator && window.isSecureContext) {
    const first = !navigator.serviceWorker.controller;
    navigator.serviceWorker
      .register(worker)
      .then(() => navigator.serviceWorker.ready)
      .then((ready) => {
        // The page was opened before the worker ran: it has no copy of it yet.
        if (first && ready.active) ready.active.postMessage({ refresh: page });
      })
      .catch(() => {
        // no worker (a private window, a browser that refuses): the forms still keep and send
      });
  }
})();
