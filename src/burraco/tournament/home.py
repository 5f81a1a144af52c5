"""The tournaments' home page, in the visitor's language: every tournament and the form to
create one.

The form's fields are those of ``burraco tournament create`` (see :func:`.web.settings_from_form`).
"""

from __future__ import annotations

from html import escape
from urllib.parse import quote

from burraco.tournament.export import status_text
from burraco.tournament.i18n import count, tr
from burraco.tournament.model import DEFAULT_TIE_BREAKS
from burraco.tournament.pages import Lang, layout
from burraco.tournament.service import Director


def home_page(director: Director, *, error: str | None = None, lang: Lang = "en") -> str:
    def x(key: str) -> str:
        return tr(lang, f"home.{key}")

    rows = "".join(
        f"<tr><td><a href='/tournaments/{quote(s.id)}/'>{escape(s.name)}</a></td>"
        f"<td>{escape(count(lang, s.entrants.removesuffix('s'), s.pairs))}</td>"
        f"<td><code>{escape(s.schedule)}</code></td>"
        f"<td>{escape(status_text(lang, s.status))}</td></tr>" for s in director.summaries())
    listing = (f"<table id='tournaments'><tr><th>{x('tournament')}</th><th>{x('entrants')}</th>"
               f"<th>{x('schedule')}</th><th>{x('status')}</th></tr>{rows}</table>"
               if rows else f"<p>{x('none')}</p>")
    notice = f"<p class='error' role='alert' id='error'>{escape(error)}</p>" if error else ""
    form = f"""
<section class='panel'><h2>{x('new')}</h2>
<form method='post' action='/tournaments/' id='create'>
<p><label>{x('name')} <input name='name' required size='40'></label></p>
<p><label>{x('event')} <select name='kind'><option value='pairs'>{x('pairs')}</option>
<option value='individual'>{x('individual')}</option>
<option value='teams'>{x('teams')}</option></select></label></p>
<p><label>{x('schedule_label')} <input name='schedule' placeholder='mitchell:3,danish:1'
 size='30'></label> <small>{escape(x('schedule_hint'))}</small></p>
<p><label>{x('hands')} <input type='number' name='hands' value='3' min='1' max='12'>
</label> <label>{x('vp_table')}
 <input name='vp_table' placeholder='NAME:B1,...,B10' size='30'></label></p>
<p><label><input type='checkbox' name='duplicate' value='1'> {x('duplicate')}</label></p>
<p><label>{x('bye_vp')} <input type='number' name='bye_vp' value='14' min='0' max='20'></label>
 <label>{x('bye_mp')} <input type='number' name='bye_mp' value='355' step='5'></label></p>
<p><label>{x('tie_breaks')} <input name='tie_breaks' value='{",".join(DEFAULT_TIE_BREAKS)}'>
</label> <small>mp_diff, h2h, mp, lot</small></p>
<p><label>{x('seating')} <select name='seating'><option value='registration'>
{x('registration')}</option><option value='draw'>{x('draw')}</option></select></label>
 <label>{x('seed')} <input type='number' name='seed' value='1'></label>
 <small>{x('seed_hint')}</small></p>
<p><button type='submit'>{x('create')}</button></p>
</form></section>"""
    return layout(x("title"), f"<h1>{x('title')}</h1>{notice}{listing}{form}", lang=lang,
                  path="/tournaments/")
