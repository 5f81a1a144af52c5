"""A match cut short by the time-out, entered from the phones smazzata by smazzata
(RULES.md §8.2, FIBur Art. 15: no new smazzata is dealt after time is called; the match is
scored on the smazzate played), against a real ``burraco serve``."""

from __future__ import annotations

from harness import ServerProcess
from test_tournament_tables import _enter, _event, _links, _state, _text


def test_the_phones_enter_a_match_cut_short_by_time(server: ServerProcess) -> None:
    tid = _event(server)
    link = _links(server, tid)[1]
    played = {"h1_ns": "450", "h1_ew": "-100", "h2_ns": "300", "h2_ew": "200"}  # 750 – 100
    without = _enter(server, link["ns"], "750", "100", **played)
    assert without.status_code == 422 and "smazzata 3, the NS score is missing" in \
        _text(without, "error")
    assert "name='timed_out' value='1'" in without.text  # the box is offered on the form
    gap = _enter(server, link["ns"], "750", "100", timed_out="1", h1_ns="450", h1_ew="-100",
                 h3_ns="300", h3_ew="200")
    assert gap.status_code == 422 and "smazzata 2 is empty" in _text(gap, "error")
    assert "value='1' checked" in gap.text  # what was typed stays, the box ticked
    assert _state(server, tid)["results"] == []
    assert _enter(server, link["ns"], "750", "100", timed_out="1", **played).status_code == 200
    page = server.http.get(link["ew"])
    assert "name='timed_out'" in page.text
    assert _enter(server, link["ew"], "750", "100").status_code == 200
    result = _state(server, tid)["results"][0]
    assert result["hands"] == [[450, -100], [300, 200]] and result["mp"] == [750, 100]
    director = server.http.get(f"/tournaments/{tid}/?lang=it")
    assert "data-mark='timeout'" in director.text
