"""The classroom pages' style and script (served inline: the pages load nothing else).

The style lays a table out for a projector, a laptop and a 375 px phone alike: on a
narrow screen the cards shrink to what still makes a 44 px tap target, the opponent's
hidden cards overlap, and the language links wait at the page's foot.  Every control
shows where the keyboard's focus is (a ring seen on the felt and on the page).

The script keeps one websocket; each frame replaces the page's parts by id with the
server's HTML, and puts the keyboard's focus back where the next move is made
(:data:`SCRIPT`).
"""

from __future__ import annotations

PAGE_STYLE = """<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f4f1e8;color:#111}
main{max-width:1100px;margin:0 auto;padding:.6em 1em}
header.bg-top{display:flex;flex-wrap:wrap;gap:.3em 1em;align-items:baseline}
header.bg-top h1{font-size:1.4em;margin:.2em 0}
footer.bg-foot{max-width:1100px;margin:1em auto;padding:0 1em}
nav.bg-langs a{display:inline-flex;align-items:center;min-height:44px;min-width:44px;
 padding:0 .4em;margin-inline-end:.2em}
.bg-felt{background:radial-gradient(ellipse at center,#1d7a46 0%,#11562f 75%,#0c4325 100%);
 color:#f5f5f0;border-radius:1em;padding:.8em 1.2em 1.2em;border:6px solid #6b4423;
 box-shadow:inset 0 0 2em #0007}
.bg-felt .bg-readout{color:#f5f5f0}
.bg-felt .bg-role b{color:#ffd966}
.bg-felt a{color:#ffe58a}
.bg-felt .bg-readout.bg-status{font-size:1.3em;font-weight:600}
.bg-cards .bg-card.bg-drawn{box-shadow:0 -6px 0 #ffd966;transform:translateY(-3px)}
button.bg-act{font:600 1em system-ui,sans-serif;background:#f7f3e3;color:#1b1b1b;
 border:1px solid #0006;border-radius:.4em;padding:.35em .7em;margin:.2em;cursor:pointer;
 min-height:44px;min-width:44px}
button.bg-act:disabled{opacity:.5;cursor:default}
button.bg-card-act{padding:0;border:none;background:none;margin:0;cursor:pointer;
 min-height:44px;min-width:44px;border-radius:.4em}
button.bg-card-act:hover .bg-card{transform:translateY(-4px)}
:focus-visible,button.bg-card-act:focus-visible{outline:3px solid #ffbf47;outline-offset:2px;
 box-shadow:0 0 0 6px #0b0c0c}
#bg-live:focus,#bg-live:focus-visible,#bg-past:focus,#bg-past:focus-visible{outline:none;
 box-shadow:none}
.bg-actions{display:flex;flex-wrap:wrap;align-items:center;gap:.2em}
.bg-keys{font-size:.9em;opacity:.95;margin:.4em 0 0}
.bg-advice{background:#fff8d6;color:#3b3000;border-radius:.4em;padding:.3em .6em;
 display:inline-block}
.bg-ended{background:#fffbe8;color:#1b1b1b;border:3px solid #f9a825;border-radius:.6em;
 padding:.4em .8em;margin:0 0 .6em}
.bg-ended h2{font-size:1.15em;margin:.1em 0}
.bg-ended .bg-readout{color:#1b1b1b}
.bg-ended .bg-role b{color:#6b4423}
.bg-ended a{color:#0b4ea2;display:inline-flex;align-items:center;min-height:44px}
.bg-error{color:#b3261e;font-weight:600;min-height:1.2em}
.bg-felt .bg-error{color:#ffb4a8}
.bg-past .bg-result,.bg-past .bg-match{background:#fbfaf5;border-radius:.6em;
 padding:.4em .8em;margin:.3em 0;display:inline-block;max-width:100%;overflow-x:auto;
 box-sizing:border-box}
.bg-log{margin:.1em 0;opacity:.9}
.bg-match,.bg-result{max-width:100%;overflow-x:auto;box-sizing:border-box}
.bg-sr{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;
 clip:rect(0,0,0,0);white-space:nowrap;border:0}
.bg-tables{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(330px,100%),1fr));
 gap:1em}
.bg-table-card{background:#fff;border:1px solid #cfc6ad;border-radius:.6em;padding:.6em;
 overflow-x:auto}
.bg-table-card a{display:inline-flex;align-items:center;min-height:44px}
.bg-code{font:700 2em ui-monospace,monospace;letter-spacing:.15em;direction:ltr;
 unicode-bidi:isolate}
.bg-big-code{font:700 12vmin ui-monospace,monospace;letter-spacing:.2em;text-align:center}
.bg-qr svg{width:100%;height:auto;max-width:180px}
.bg-projector .bg-qr svg{max-width:none;width:70vmin}
.bg-projector{text-align:center}
.bg-replay{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(300px,100%),1fr));
 gap:1em}
.bg-replay>div{background:#fff;border-radius:.5em;padding:.4em .6em;overflow-x:auto}
.bg-url{overflow-wrap:anywhere}
form.bg-form label{display:inline-block;margin:.3em 1em .3em 0}
form.bg-form input,form.bg-form select{min-height:44px;min-width:44px;box-sizing:border-box;
 font-size:1em}
form.bg-form input[type=radio]{min-height:0;width:24px;height:24px;vertical-align:middle}
form.bg-form fieldset label{display:flex;align-items:center;gap:.4em;min-height:44px}
table.bg-seats td,table.bg-seats th{padding:.1em .5em;text-align:start}
form.bg-free{margin:0}
form.bg-control{display:inline-flex;flex-wrap:wrap;align-items:center;gap:.4em;
 margin:.2em 1em .2em 0}
form.bg-control select{min-height:44px;box-sizing:border-box;font:inherit}
.bg-place-controls h3{margin:.6em 0 .2em;font-size:1em}
.bg-wide{max-width:100%;overflow-x:auto}
main a{display:inline-flex;align-items:center;min-height:44px;min-width:44px}
@media (max-width:600px){
 main{padding:.3em .4em}
 header.bg-top h1{font-size:1.05em}
 .bg-felt{padding:.4em .5em .6em;border-width:4px;border-radius:.7em}
 .bg-felt .bg-readout.bg-status{font-size:1.1em}
 .bg-felt .bg-readout{margin:.2em 0;font-size:.95em}
 .bg-felt .bg-card{width:44px;height:56px;font-size:.95em;padding:.1em .2em}
 .bg-felt .bg-cards{gap:3px}
 .bg-felt .bg-backs .bg-back{width:22px;height:34px}
 .bg-felt .bg-backs .bg-back+.bg-back{margin-inline-start:-14px}
 .bg-felt .bg-pile .bg-card{width:36px;height:46px}
 .bg-felt .bg-log:nth-last-of-type(n+3){display:none}
 .bg-ended{padding:.2em .5em;margin-bottom:.3em}
 .bg-ended h2{font-size:1em}
 .bg-ended a{min-height:44px}
 form.bg-form label{display:block}
}
</style>"""

#: The page's script: one websocket; each frame replaces the page's parts by id with the
#: server's HTML; a button with data-action sends it with the page's move number.  When
#: the keyboard's focus was in a part the frame replaced, it is put back on the same
#: button if it is still there, else on the first move the seat can make, else on the
#: table itself (so that Tab goes on from there, never from the page's top).
SCRIPT = """<script>
(() => {
  const root = document.getElementById('bg-page'); let seq = Number(root.dataset.seq);
  let ws = null, wait = 500;
  const error = t => { const e = document.getElementById('bg-error'); if (e) e.textContent = t; };
  // What the focused control is, to find it again in the new HTML: its action, its
  // form's address or its link's.
  function keyOf(e) {
    if (!e || !e.closest) return null;
    if (e.dataset && e.dataset.action) return ['button[data-action]', 'action', e.dataset.action];
    const form = e.closest('form');
    if (form) return ['form', 'action', form.getAttribute('action')];
    if (e.getAttribute('href')) return ['a[href]', 'href', e.getAttribute('href')];
    return null;
  }
  function refocus(had, key) {
    const live = document.getElementById('bg-live');
    if (!live || !had) return;
    let same = null;
    if (key) {
      const found = [...live.querySelectorAll(key[0])].find(e =>
        (key[1] === 'action' && key[0] !== 'form' ? e.dataset.action
         : e.getAttribute(key[1])) === key[2]);
      same = found && key[0] === 'form' ? found.querySelector('button, input') : found;
      if (same && same.disabled) same = null;
    }
    const next = same || live.querySelector('button[data-action]:not(:disabled)');
    if (next) { next.focus(); return; }
    if (!live.hasAttribute('tabindex')) live.setAttribute('tabindex', '-1');
    live.focus({preventScroll: true});
  }
  function connect() {
    ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host
                       + root.dataset.ws);
    ws.onopen = () => { wait = 500; root.dataset.online = '1'; };
    ws.onmessage = ev => {
      const m = JSON.parse(ev.data);
      if (m.type === 'frame') {
        const active = document.activeElement;
        let had = root.dataset.seat === '1' && (active === document.body || active === null);
        const key = keyOf(active);
        for (const [id, part] of Object.entries(m.parts)) {
          const el = document.getElementById(id);
          if (!el) continue;
          if (el.contains(active)) had = true;
          el.innerHTML = part;
        }
        seq = m.seq; root.dataset.seq = String(m.seq); error('');
        refocus(had, key);
      } else if (m.type === 'error') {
        error(m.message);
        document.querySelectorAll('button[data-action]').forEach(b => { b.disabled = false; });
      }
    };
    ws.onclose = ev => {
      root.dataset.online = '0';
      // 4403: this seat's place was given to another browser: no reconnecting.
      if (ev.code === 4403) { error(root.dataset.gone || ''); return; }
      // 4301: the teacher moved this learner: the page reloads, to the new place.
      if (ev.code === 4301) { location.reload(); return; }
      setTimeout(connect, wait); wait = Math.min(wait * 2, 4000);
    };
  }
  document.addEventListener('click', ev => {
    const b = ev.target.closest('button[data-action]');
    if (!b || !ws || ws.readyState !== 1) return;
    b.disabled = true;
    ws.send(JSON.stringify({type: b.dataset.kind, action: b.dataset.action, seq: seq}));
  });
  if (root.dataset.ws) connect();
})();
</script>"""

__all__ = ["PAGE_STYLE", "SCRIPT"]
