/* agentprose page menu: hand this page's agent view (its Markdown) to a person's
   assistant. No request leaves the site until the person clicks; no cookies. */
(function () {
  "use strict";
  var loaded = document.currentScript;
  if (!loaded) return;

  /* This page's settings: after Material's instant navigation the head holds the new
     page's tag (its view, its language), not the one that loaded the script. */
  function settingsOf() {
    var tag = document.querySelector("script[data-labels]") || loaded;
    var alternate = document.querySelector('link[rel="alternate"][type="text/markdown"]');
    var absolute = (alternate && alternate.href) || tag.getAttribute("data-view") || "";
    var path = absolute;
    try { path = new URL(absolute, location.href).pathname; } catch (e) { /* keep it */ }
    return {
      view: { url: absolute, path: path },
      links: JSON.parse(tag.getAttribute("data-links") || "{}"),
      llms: tag.getAttribute("data-llms") || "",
      words: JSON.parse(tag.getAttribute("data-labels") || "{}")
    };
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () { return legacyCopy(text); });
    }
    return legacyCopy(text);
  }

  function legacyCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    area.remove();
    return copied ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  function fill(text, name, value) {
    return String(text || "").split("{" + name + "}").join(value);
  }

  function prompt(page) {
    var asked = fill(page.words.prompt, "url", page.view.url);
    return page.llms ? asked + " " + fill(page.words.prompt_map, "url", page.llms) : asked;
  }

  function item(tag, label) {
    var li = document.createElement("li");
    li.setAttribute("role", "none");
    var element = document.createElement(tag);
    element.setAttribute("role", "menuitem");
    element.setAttribute("tabindex", "-1");
    element.textContent = label;
    if (tag === "button") element.type = "button";
    li.appendChild(element);
    return { li: li, element: element };
  }

  function build(page) {
    var view = page.view, words = page.words;
    var box = document.createElement("div");
    box.className = "agentprose-actions";
    box.setAttribute("data-ignore", "");  /* never content, even in a page saved from here */
    var toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "agentprose-actions__toggle";
    toggle.setAttribute("aria-haspopup", "menu");
    toggle.setAttribute("aria-expanded", "false");
    toggle.textContent = words.button;
    var menu = document.createElement("ul");
    menu.className = "agentprose-actions__menu";
    menu.setAttribute("role", "menu");
    menu.hidden = true;
    var status = document.createElement("span");
    status.className = "agentprose-actions__status";
    status.setAttribute("role", "status");
    var copy = item("button", words.copy);
    copy.element.addEventListener("click", function () {
      fetch(view.path, { credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(copyText)
        .then(function () { status.textContent = words.copied; close(true); })
        .catch(function () { status.textContent = words.copy_failed; window.open(view.path, "_blank", "noopener"); close(true); });
    });
    var show = item("a", words.view);
    show.element.href = view.path;
    var entries = [copy, show];
    Object.keys(page.links).forEach(function (name) {
      var open = item("a", fill(words.open, "name", name));
      open.element.href = fill(fill(page.links[name], "prompt", encodeURIComponent(prompt(page))),
                               "url", encodeURIComponent(view.url));
      open.element.target = "_blank";
      open.element.rel = "noopener noreferrer";
      entries.push(open);
    });
    entries.forEach(function (entry) { menu.appendChild(entry.li); });
    var items = entries.map(function (entry) { return entry.element; });

    function open(focusAt) {
      menu.hidden = false;
      toggle.setAttribute("aria-expanded", "true");
      items[focusAt].focus();
    }
    function close(returnFocus) {
      menu.hidden = true;
      toggle.setAttribute("aria-expanded", "false");
      if (returnFocus) toggle.focus();
    }
    toggle.addEventListener("click", function () {
      if (menu.hidden) open(0); else close(false);
    });
    toggle.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown") { event.preventDefault(); open(0); }
      if (event.key === "ArrowUp") { event.preventDefault(); open(items.length - 1); }
    });
    menu.addEventListener("keydown", function (event) {
      var at = items.indexOf(document.activeElement);
      if (event.key === "Escape") { event.preventDefault(); close(true); }
      else if (event.key === "ArrowDown") { event.preventDefault(); items[(at + 1) % items.length].focus(); }
      else if (event.key === "ArrowUp") { event.preventDefault(); items[(at - 1 + items.length) % items.length].focus(); }
      else if (event.key === "Home") { event.preventDefault(); items[0].focus(); }
      else if (event.key === "End") { event.preventDefault(); items[items.length - 1].focus(); }
      else if (event.key === "Tab") { close(false); }
    });
    document.addEventListener("click", function (event) {
      if (!box.contains(event.target)) close(false);
    });
    box.appendChild(toggle);
    box.appendChild(menu);
    box.appendChild(status);
    return box;
  }

  function place() {
    var old = document.querySelector(".agentprose-actions");
    if (old) old.remove();
    var page = settingsOf();
    if (!page.view.url) return;
    var box = build(page);
    /* the page's title: the first shown <h1> of its content, where the theme marks the
       content (a header may have an <h1> of its own, and some themes keep a hidden one
       for print or for the sidebar), else the first shown <h1> at all */
    var title = null;
    ["article h1", "main h1", "[role=main] h1", ".md-content h1", ".body h1",
     ".document h1", "h1"].some(function (selector) {
      title = Array.prototype.filter.call(document.querySelectorAll(selector),
        function (h1) { return h1.getClientRects().length > 0; })[0] || null;
      return title !== null;
    });
    if (title && title.parentNode) {
      title.parentNode.insertBefore(box, title.nextSibling);
    } else {
      box.classList.add("agentprose-actions--floating");
      document.body.appendChild(box);
    }
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(place);  /* Material's instant navigation */
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", place);
  } else {
    place();
  }
})();
