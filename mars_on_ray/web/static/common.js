// Shared by the dashboard's pages: the API call with the token, formatting, state colours.
"use strict";

const STATE_COLORS = {
  waiting: "#c8ccd2", running: "#f0ad4e", done: "#5cb85c", failed: "#d9534f", cancelled: "#8a8f98",
};

function tokenFromLocation() {
  // a token in the URL's fragment (#token=...) or query (?token=...) is kept for this tab
  for (const part of [location.hash.slice(1), location.search.slice(1)]) {
    const token = new URLSearchParams(part).get("token");
    if (token) {
      sessionStorage.setItem("mars_token", token);
      history.replaceState(null, "", location.pathname);
    }
  }
  return sessionStorage.getItem("mars_token");
}

async function api(path) {
  const token = tokenFromLocation();
  const headers = token ? { Authorization: "Bearer " + token } : {};
  const response = await fetch(path, { headers, cache: "no-store" });
  if (response.status === 401) {
    askToken();
    throw new Error("this dashboard needs its token");
  }
  if (!response.ok) throw new Error((await response.json()).error || response.statusText);
  return response.json();
}

function askToken() {
  if (document.getElementById("token-form")) return;
  const form = el("form", { id: "token-form", class: "token" }, [
    el("label", {}, ["This dashboard needs its token: ",
      el("input", { id: "token-input", type: "password", autocomplete: "off" })]),
    el("button", { type: "submit" }, ["Open"]),
  ]);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem("mars_token", document.getElementById("token-input").value);
    form.remove();
  });
  document.body.prepend(form);
}

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child instanceof Node ? child : String(child));
  return node;
}

function bytes(n) {
  if (n === null || n === undefined) return "–";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (Math.abs(n) >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i ? n.toFixed(1) : n) + " " + units[i];
}

function seconds(s) {
  if (s === null || s === undefined) return "–";
  if (s < 1) return (s * 1000).toFixed(0) + " ms";
  if (s < 120) return s.toFixed(1) + " s";
  return Math.floor(s / 60) + " min " + Math.round(s % 60) + " s";
}

function when(t) { return t ? new Date(t * 1000).toLocaleTimeString() : "–"; }

function stateBadge(state) {
  return el("span", { class: "badge", style: "background:" + (STATE_COLORS[state] || "#ccc") }, [state]);
}

function progressBar(done, total) {
  const pct = total ? Math.round((100 * done) / total) : 0;
  const bar = el("span", { class: "progress", title: `${done}/${total} subtasks` },
    [el("span", { class: "fill", style: `width:${pct}%` })]);
  return el("span", { class: "progress-cell" }, [bar, ` ${done}/${total}`]);
}

function table(headers, rows) {
  return el("table", {}, [
    el("thead", {}, [el("tr", {}, headers.map((h) => el("th", {}, [h])))]),
    el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((c) => el("td", {}, [c]))))),
  ]);
}

function link(href, text) { return el("a", { href }, [text]); }

function replace(id, node) {
  const target = document.getElementById(id);
  target.replaceChildren(node);
}

// Run refresh() now and every `ms` while the tab is visible; errors show in #status.
function poll(refresh, ms = 1000) {
  let timer = null;
  const tick = async () => {
    try {
      const more = await refresh();
      setStatus("");
      if (more === false) return;  // nothing will change any more
    } catch (error) {
      setStatus(error.message);
    }
    timer = setTimeout(tick, ms);
  };
  tick();
  return () => clearTimeout(timer);
}

function setStatus(text) {
  const status = document.getElementById("status");
  if (status) status.textContent = text;
}
