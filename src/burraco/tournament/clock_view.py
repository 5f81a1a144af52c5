"""The round clock as the pages show it: the time left, the 5-minute warning, the time-out.

:func:`clock_html` is the clock of the phones, the big screen and the director's desk:
the time left (counted down by ``/tournaments/clock.js``, :data:`.pages.SCRIPT`), a line
"5 minutes left" once :data:`~.clock.WARNING_MINUTES` or less are left, and, once the
time is up, the time-out of RULES.md §8.2 (FIBur Art. 15) spelled out: one last lap, no
closing bonus if nobody closes in it, no new smazzata, the match scored on the smazzate
played.  The page is right as it is served (without JavaScript too); the scripts keep it
right as the time passes, without reloading: ``clock.js`` shows the time-out,
``/tournaments/clock-warning.js`` (:data:`WARNING_SCRIPT`) the warning, and on the big
screen (``beep``) plays a short beep once per clock (WebAudio: no sound file).
"""

from __future__ import annotations

from datetime import datetime

from burraco.tournament.clock import WARNING, WARNING_MINUTES, Clock
from burraco.tournament.i18n import Lang, time_of_day, tr

WARNING_SCRIPT_PATH = "/tournaments/clock-warning.js"
WARNING_TAG = f"<script src='{WARNING_SCRIPT_PATH}' defer></script>"


def clock_html(lang: Lang, clock: Clock | None, at: datetime, *, beep: bool = False) -> str:
    """The time left, the warning and, once it is up, the time-out rule; ``beep``: the
    warning beeps (the big screen)."""
    if clock is None:
        return f"<section class='clock none' id='clock'><p>{tr(lang, 'clock_none')}</p></section>"
    out = clock.expired(at)
    # the server's time zone; the script shows the phone's
    at_time = (f"<time datetime='{clock.ends_at.isoformat()}'>"
               f"{time_of_day(lang, clock.ends_at)}</time>")
    ends = tr(lang, "clock_ends", at=at_time)
    seconds = int(WARNING.total_seconds())
    warning = (f"<p class='warn clock-warning' id='clock-warning' role='status' "
               f"data-warn='{seconds}'{' data-beep' if beep else ''}"
               f"{'' if clock.warning(at) else ' hidden'}>"
               f"{tr(lang, 'clock_warning', n=WARNING_MINUTES)}</p>")
    return (f"<section class='clock{' out' if out else ''}' id='clock' "
            f"data-ends='{clock.ends_at.isoformat()}'>"
            f"<span class='label'>{tr(lang, 'clock')}</span> "
            f"<span class='left' id='clock-left'>{clock.left_text(at)}</span> "
            f"<small class='ends'>{ends}</small>{warning}"
            f"<p class='timeout' id='timeout' role='alert'{'' if out else ' hidden'}>"
            f"{tr(lang, 'time_out')} {tr(lang, 'time_out_end')}</p></section>{WARNING_TAG}")


WARNING_SCRIPT = """
// The clock's warning: shown while at most data-warn seconds are left, hidden once the time
// is up (the time-out shows then). With data-beep (the big screen) a short beep, once per
// clock: the page reloads on every result, and the end time names the clock.
(function () {
  var context = null;
  function sound() {
    var Audio = window.AudioContext || window.webkitAudioContext;
    if (!Audio) return null;
    if (!context) {
      try { context = new Audio(); } catch (e) { return null; }
    }
    if (context.state === "suspended" && context.resume) {
      context.resume().catch(function () {});
    }
    return context;
  }
  function beep() {
    var c = sound();
    if (!c) return;
    var tone = c.createOscillator(), volume = c.createGain(), now = c.currentTime;
    tone.type = "sine";
    tone.frequency.value = 880;
    volume.gain.setValueAtTime(0.0001, now);
    volume.gain.exponentialRampToValueAtTime(0.5, now + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, now + 0.7);
    tone.connect(volume);
    volume.connect(c.destination);
    tone.start(now);
    tone.stop(now + 0.75);
  }
  // a browser lets a page sound only after a click or a key: the first one readies it
  ["pointerdown", "keydown"].forEach(function (name) {
    document.addEventListener(name, function () { sound(); }, { once: true });
  });
  function once(key) {
    try {
      if (sessionStorage.getItem(key)) return false;
      sessionStorage.setItem(key, "1");
    } catch (e) {}
    return true;
  }
  function tick() {
    document.querySelectorAll("[data-ends]").forEach(function (clock) {
      var note = clock.querySelector("[data-warn]");
      if (!note) return;
      var left = Math.max(0, Math.round((Date.parse(clock.getAttribute("data-ends"))
        - Date.now()) / 1000));
      var on = left > 0 && left <= Number(note.getAttribute("data-warn"));
      note.hidden = !on;
      if (on && note.hasAttribute("data-beep") && !note.hasAttribute("data-beeped")) {
        note.setAttribute("data-beeped", "");
        if (once("burraco-clock-warning:" + clock.getAttribute("data-ends"))) beep();
      }
    });
  }
  tick();
  setInterval(tick, 1000);
})();
"""
