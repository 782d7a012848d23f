// Talking to the hivecam API: JSON in and out, the session's CSRF token on every POST.
"use strict";

const API = (() => {
  let session = { control: false, csrf: "" };

  async function refreshSession() {
    const response = await fetch("/api/session", { credentials: "same-origin" });
    session = await response.json();
    return session;
  }

  async function post(url, body = {}, retried = false) {
    if (!session.csrf) await refreshSession();
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf },
      body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({ error: "the server sent no JSON" }));
    if (response.status === 403 && /CSRF/.test(data.error || "") && !retried) {
      await refreshSession(); // the session changed (logout, server restart): take the new token once
      return post(url, body, true);
    }
    if (data.csrf) session.csrf = data.csrf;
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  async function get(url) {
    const response = await fetch(url, { credentials: "same-origin" });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  return { refreshSession, post, get, get session() { return session; }, set control(v) { session.control = v; } };
})();
