"""Legal actions, one decision at a time (RULES.md §3, §7.3).

``legal_actions`` lists every legal action of the current phase, complete and
in a fixed order: new melds, attachments (by meld, then face), discards (by
face).  Attachments are listed one card at a time, because any legal
multi-card attachment can be made as a sequence of single ones, except when
it empties the hand while holding the card taken from a one-card pile (that
card may not be left as the last one): those whole-hand attachments are
listed too.  The conformance tests check this claim on random positions.
"""

from __future__ import annotations

from burraco.engine.actions import DRAW, PICKUP, Action, Attach, Discard, NewMeld
from burraco.engine.cards import CARD_FACE, FACE_IS_WILD, FACES
from burraco.engine.hand import DRAW_PHASE, OVER, HandBase, closing_ready, is_pinella
from burraco.engine.meld_search import accepts_by_shape, candidate_actions
from burraco.engine.melds import SET, Meld, read_attach, read_meld


def legal_actions(state: HandBase) -> list[Action]:
    """Every legal action for the player on turn, in a deterministic order."""
    if state.phase == OVER:
        return []
    if state.phase == DRAW_PHASE:
        return _draw_actions(state)
    return _play_actions(state)


def is_legal(state: HandBase, action: Action) -> bool:
    try:
        state.clone().apply_in_place(action)
    except ValueError:
        return False
    return True


def _draw_actions(state: HandBase) -> list[Action]:
    actions: list[Action] = [DRAW]
    if not state.pile:
        return actions
    rules = state.rules
    if rules.pile_requires_melded and not state.melds[state.side_of[state.turn]]:
        return actions
    if state.partner_wild_in_pile(state.turn):
        return actions
    conditional = rules.pile_pickup != "free" or (
        rules.collected_pinella != "free" and any(is_pinella(c) for c in state.pile))
    if not conditional or pickup_refusal(state) is None:
        actions.append(PICKUP)
    return actions


_PICKUP_REFUSAL = {
    "hand-or-pile": "you may take the pile only if you can use a card at once, of your hand or "
    "of the pile: attach one or open a meld (§14.1)",
    "from-pile": "you may take the pile only if you can use a card at once, one of its own: "
    "attach it or open a meld with it (§14.1)",
    "upcard": "you may take the lone first up-card only if you can then open a new meld (§14.1)",
    "upcard-in-meld": "you may take the lone first up-card only if you can open a meld with it "
    "(§14.1)",
    "must-meld-picked": "you may take the pile only if you can meld one of its cards (§14.3)",
    "pinella": "you may take a pile holding a pinella only if you can then meld it or open a "
    "meld of your own hand cards (§14.1)",
}


def pickup_refusal(state: HandBase) -> str | None:
    """Why the player on turn may not take the pile under a conditional pickup, or None.

    International, Revolution (§14.1–2, the International code's Art. 8): a card of the hand
    or of the pile is usable at once after the pickup (option ``pile_use``); the lone first
    up-card only if a new meld can then be opened (option ``upcard_pickup``); a collected
    pinella needs a way to meld it or to open a meld of hand cards (``collected_pinella``).
    Champion (§14.3): a picked card can be melded at once.
    """
    trial = state.clone()
    trial._take_pile(trial.turn, [])
    reason = _unusable(state, trial) if state.rules.pile_pickup != "free" else None
    if reason is None and trial.pinella_duty and not pinella_duty_feasible(trial):
        return _PICKUP_REFUSAL["pinella"]
    return reason


def _unusable(state: HandBase, trial: HandBase) -> str | None:
    """The must-use and must-meld-picked conditions, judged on the state after the pickup."""
    rules = state.rules
    plays = [a for a in _play_actions(trial, duty=False)  # usability counts every play
             if not isinstance(a, Discard)]
    if rules.pile_pickup == "must-meld-picked":
        return None if plays else _PICKUP_REFUSAL["must-meld-picked"]
    if state.pile_from == [-1]:  # the lone first up-card: a new meld must be possible
        upcard = CARD_FACE[state.pile[0]]
        with_it = rules.upcard_pickup == "meld-with-upcard" or rules.pile_use == "from-pile"
        if any(isinstance(a, NewMeld) and (not with_it or upcard in a.faces) for a in plays):
            return None
        return _PICKUP_REFUSAL["upcard-in-meld" if with_it else "upcard"]
    if rules.pile_use == "from-pile":
        pile_faces = {CARD_FACE[c] for c in state.pile}
        if any(pile_faces.intersection(_faces_of(a)) for a in plays):
            return None
        return _PICKUP_REFUSAL["from-pile"]
    return None if plays else _PICKUP_REFUSAL["hand-or-pile"]


def pickup_usable(state: HandBase) -> bool:
    """Whether a conditional pickup (§14.1–14.3) is allowed now (see :func:`pickup_refusal`)."""
    return pickup_refusal(state) is None


def pinella_duty_feasible(state: HandBase) -> bool:
    """International (§14.1): some play still meets the duty of a collected pinella.

    In that phase only such plays are listed, each checked by applying it, so the answer is
    whether any play is listed (the recursion ends: each play that leaves the duty in force
    melds a collected pinella).
    """
    return not state.pinella_duty or bool(_play_actions(state))


def _faces_of(action: Action) -> tuple[int, ...]:
    return action.faces if isinstance(action, NewMeld | Attach) else ()


def _play_actions(state: HandBase, *, duty: bool = True) -> list[Action]:
    """The plays of the phase; with ``duty`` false, as if no collected pinella were owed."""
    seat = state.turn
    side = state.side_of[seat]
    rules = state.rules
    hand = state.hands[seat]
    counts = [0] * FACES
    masks = [0, 0, 0, 0, 0]  # per suit, a bit per rank held; the joker's slot is the fifth
    ranks = [0] * 14  # cards held of each rank (index: face % 13; the joker's slot is 13)
    held: list[int] = []  # faces held, in face order (the display order)
    for card in hand:
        face = CARD_FACE[card]
        if not counts[face]:
            held.append(face)
        counts[face] += 1
        masks[_SUIT_OF[face]] |= _BIT_OF[face]
        ranks[_RANK_SLOT[face]] += 1
    held.sort()
    size = len(hand)
    has_pozzetto = state.pozzetto_taker[side] >= 0
    can_go_down = not has_pozzetto and bool(state.pozzetti)
    barred_face = CARD_FACE[state.barred] if state.barred in hand else -1
    melds = state.melds[side]
    actions: list[Action] = []
    owed = {CARD_FACE[c] for c in state.picked if c in hand} if state.owes_meld else None

    set_ranks = {m.rank for m in melds if m.kind == SET} if rules.one_set_per_rank else set()
    seq_suits = {m.suit for m in melds if m.kind != SET}
    for meld_action in candidate_actions(
        counts, rules, set_ranks_taken=set_ranks, sequence_suits_taken=seq_suits,
        suit_masks=masks, rank_counts=ranks,
    ):
        faces = meld_action.faces
        rest = size - len(faces)
        if owed is not None and owed.isdisjoint(faces):
            continue
        if rest >= 2 or (rest == 0 and can_go_down) or (
            rest == 1 and _last_card_ok(state, counts, faces, barred_face, melds, new=faces)
        ):
            actions.append(meld_action)

    rest = size - 1
    for index, meld in enumerate(melds):
        fits = accepts_by_shape(meld, rules)
        if not fits:
            continue
        attaches = _attach_one(index)
        for face in held:
            if face not in fits or (owed is not None and face not in owed):
                continue
            if rest >= 2 or (rest == 0 and can_go_down) or (
                rest == 1 and _last_card_ok(
                    state, counts, (face,), barred_face, melds, onto=index)
            ):
                actions.append(attaches[face])
    if barred_face >= 0 and counts[barred_face] == 1 and size >= 2 and can_go_down:
        actions += _whole_hand_attaches(state, melds)

    if duty and state.pinella_duty:  # §14.1: only plays that meet the duty, each applied to check
        return [a for a in actions if is_legal(state, a)]
    if owed is not None:
        return actions  # no discard before a picked card is melded (§14.3)
    if size >= 2 and barred_face < 0 and rules.wild_discard != "never":
        actions += [_DISCARDS[face] for face in held]  # the common case: every face
        return actions
    for face in held:
        if face == barred_face and counts[face] == 1:
            continue
        wild = FACE_IS_WILD[face]
        if wild and rules.wild_discard == "never":
            continue
        if size == 1 and has_pozzetto and (wild or not closing_ready(melds, rules)):
            continue
        actions.append(_DISCARDS[face])
    return actions


_DISCARDS = tuple(Discard(face) for face in range(FACES))
_SUIT_OF = tuple(face // 13 for face in range(FACES))
_RANK_SLOT = tuple(face % 13 if face < 52 else 13 for face in range(FACES))
_BIT_OF = tuple(1 << (face % 13) for face in range(FACES))
_ATTACH_ONE: list[tuple[Attach, ...]] = []


def _attach_one(index: int) -> tuple[Attach, ...]:
    """``Attach(index, (face,))`` for every face, made once (actions are frozen values)."""
    while len(_ATTACH_ONE) <= index:
        meld = len(_ATTACH_ONE)
        _ATTACH_ONE.append(tuple(Attach(meld, (face,)) for face in range(FACES)))
    return _ATTACH_ONE[index]


def _last_card_ok(
    state: HandBase, counts: list[int], used: tuple[int, ...], barred_face: int,
    melds: list[Meld], *, new: tuple[int, ...] | None = None, onto: int = -1,
) -> bool:
    """§7.3 guard when a play leaves exactly one card in hand."""
    left = counts[:]
    for face in used:
        left[face] -= 1
    last = next(f for f in range(FACES) if left[f])
    if last == barred_face and barred_face not in used:
        return False  # the physical card left is the one taken from a one-card pile
    wild = FACE_IS_WILD[last]
    rules = state.rules
    if wild and rules.wild_discard == "never":
        return False
    side = state.side_of[state.turn]
    if state.pozzetto_taker[side] < 0:
        return True
    if wild:
        return False
    return closing_ready(_melds_after(state, melds, used, new, onto), rules)


def _melds_after(
    state: HandBase, melds: list[Meld], used: tuple[int, ...], new: tuple[int, ...] | None,
    onto: int,
) -> list[Meld]:
    cards = state._take_cards(state.turn, tuple(used), prefer_barred=True)
    result = read_meld(cards, state.rules) if new is not None else read_attach(
        melds[onto], cards, state.rules)
    assert isinstance(result, Meld), result
    if new is not None:
        return [*melds, result]
    after = melds[:]
    after[onto] = result
    return after


def _whole_hand_attaches(state: HandBase, melds: list[Meld]) -> list[Action]:
    """Attachments of the whole hand that no sequence of single cards can make."""
    hand = state.hands[state.turn]
    out: list[Action] = []
    for index, meld in enumerate(melds):
        if isinstance(read_attach(meld, hand, state.rules), Meld):
            faces = tuple(sorted(CARD_FACE[c] for c in hand))
            out.append(Attach(index, faces))
    return out
