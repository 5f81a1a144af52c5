// The guided hand's step, read from the table; the invitation's sentence in both languages.
import { describe, expect, it } from "vitest";
import type { HandView } from "../src/connection";
import { setLang } from "../src/i18n";
import { invitationText } from "../src/table/invite";
import { tutorialStep } from "../src/table/tutorial";
import type { Invitation } from "../src/table/extras-api";

function hand(change: Partial<HandView>): HandView {
  return {
    seat: 0, players: 2, rules: "fibur", dealer: 1, turn: 0, phase: "draw", side_of: [0, 1],
    hand: [], hand_ids: [], pozzetto_seen: [], hand_counts: [11, 11], melds: [[], []], pile: ["2C"],
    stock_count: 62, pozzetti_left: 2, pozzetto_taker: [-1, -1], known: [[], []], barred: null,
    pending_counts: [0, 0], final_turn: false, time_left: 0, moves: [], end_reason: null, closer: null,
    revealed: [], number: 1, commitment: "", ...change,
  };
}

describe("the guided hand", () => {
  it("moves on with each step the table shows", () => {
    expect(tutorialStep(hand({}), 0, false)).toBe("draw");
    expect(tutorialStep(hand({ phase: "play" }), 0, false)).toBe("meld");
    expect(tutorialStep(hand({ phase: "play", melds: [["4H 5H 6H 7H 8H"], []] }), 0, false)).toBe("attach");
    expect(tutorialStep(hand({ phase: "play", melds: [["4H 5H 6H 7H 8H 9H 10H"], []] }), 0, false)).toBe("pozzetto");
    expect(tutorialStep(hand({ phase: "play", melds: [["4H 5H 6H 7H 8H 9H 10H JH QH", "KC KD KS"], []],
      pozzetto_taker: [0, -1] }), 0, false)).toBe("close");
    expect(tutorialStep(hand({ phase: "over", closer: 0 }), 0, false)).toBe("done");
    expect(tutorialStep(hand({}), 0, true)).toBe("done");
  });

  it("does not count the bot's melds as the player's", () => {
    expect(tutorialStep(hand({ phase: "play", melds: [[], ["AC AD AS"]] }), 0, false)).toBe("meld");
  });
});

describe("the invitation", () => {
  const invitation: Invitation = {
    table_id: "abcdefghijkl", seat: 3, by: "Marco", status: "waiting", players: 4, holder: null,
    partners: [{ seat: 1, kind: "human", level: null, nickname: null }],
    opponents: [{ seat: 0, kind: "human", level: null, nickname: "Marco" },
      { seat: 2, kind: "bot", level: "basic", nickname: null }],
  };

  it("says who invites, to which table, seat and partner", () => {
    setLang("en");
    expect(invitationText(invitation)).toBe(
      "Marco invites you to table abcdefgh, seat 4 · partner: seat 2 (free) · against Marco, Bot 3 (basic)");
    setLang("it");
    expect(invitationText(invitation)).toMatch(/^Marco ti invita al tavolo abcdefgh, posto 4 · compagno: posto 2 \(libero\) · contro Marco, Bot 3/);
    setLang("en");
  });

  it("names no inviter it does not know", () => {
    expect(invitationText({ ...invitation, by: null, partners: [], opponents: [] })).toBe(
      "You are invited to table abcdefgh, seat 4");
  });
});
