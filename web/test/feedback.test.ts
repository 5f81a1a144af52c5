import { describe, expect, it } from "vitest";
import { keptActive, rovingTarget } from "../src/a11y/roving";
import { cardSpoken } from "../src/a11y/spoken";
import { faceImage } from "../src/cards";
import { planFlights, type Spot } from "../src/feedback/flip";
import { nextFresh, type TurnView } from "../src/feedback/fresh";
import { setLang } from "../src/i18n";
import { cacheName, policy } from "../src/pwa/policy";

const spot = (key: string, face: string, zone: string, x: number, y: number): Spot => ({ key, face, zone, x, y });
const none = { handFrom: null, otherFrom: null };

describe("card flights", () => {
  it("a card drawn from the stock flies from the stock", () => {
    const before = [spot("h1", "7H", "hand", 100, 500)];
    const after = [spot("h1", "7H", "hand", 100, 500), spot("h2", "9S", "hand", 160, 500)];
    expect(planFlights(before, after, { handFrom: { x: 300, y: 200 }, otherFrom: null }))
      .toEqual([{ key: "h2", dx: 140, dy: -300 }]);
  });

  it("a discard flies from where the card was in the hand, not from the stock", () => {
    const before = [spot("h1", "7H", "hand", 100, 500), spot("h2", "9S", "hand", 160, 500)];
    const after = [spot("h1", "7H", "hand", 130, 500), spot("p5", "9S", "pile", 400, 200)];
    const flights = planFlights(before, after, { handFrom: { x: 0, y: 0 }, otherFrom: { x: 9, y: 9 } });
    expect(flights).toContainEqual({ key: "p5", dx: -240, dy: 300 });
    expect(flights).toContainEqual({ key: "h1", dx: -30, dy: 0 }); // the hand closes up
  });

  it("each of two cards of a face melded from the hand claims its own old place", () => {
    const before = [spot("h1", "5D", "hand", 10, 500), spot("h2", "5D", "hand", 70, 500)];
    const after = [spot("m0:0:5D:0", "5D", "meld", 10, 100), spot("m0:0:5D:1", "5D", "meld", 30, 100)];
    const flights = planFlights(before, after, none);
    expect(flights.map((f) => f.dy)).toEqual([400, 400]);
    expect(flights.map((f) => f.dx)).toEqual([0, 40]);
  });

  it("an opponent's new meld comes from their seat; cards that did not move do not fly", () => {
    const before = [spot("m1:0:KS:0", "KS", "meld", 50, 50)];
    const after = [spot("m1:0:KS:0", "KS", "meld", 50, 50), spot("m1:1:4C:0", "4C", "meld", 90, 50)];
    expect(planFlights(before, after, { handFrom: null, otherFrom: { x: 90, y: 0 } }))
      .toEqual([{ key: "m1:1:4C:0", dx: 0, dy: -50 }]);
  });
});

describe("cards just taken stay marked until the discard", () => {
  const view = (turn: number, phase: string, ids: number[]): TurnView => ({ number: 1, turn, phase, ids });

  it("marks the drawn card, keeps it through the melds, clears it at the discard", () => {
    let fresh = nextFresh(view(0, "draw", [1, 2, 3]), view(0, "play", [1, 2, 3, 9]), 0, []);
    expect(fresh).toEqual([9]);
    fresh = nextFresh(view(0, "play", [1, 2, 3, 9]), view(0, "play", [3, 9]), 0, fresh);
    expect(fresh).toEqual([9]);
    expect(nextFresh(view(0, "play", [3, 9]), view(1, "draw", [3]), 0, fresh)).toEqual([]);
  });

  it("marks every card taken with the pile, not the cards coming back on an undo", () => {
    const picked = nextFresh(view(0, "draw", [1, 2]), view(0, "play", [1, 2, 40, 41, 42]), 0, []);
    expect(picked).toEqual([40, 41, 42]);
    expect(nextFresh(view(0, "play", [1, 42]), view(0, "play", [1, 2, 42]), 0, [42])).toEqual([42]);
  });

  it("marks nothing for a spectator or in another player's turn", () => {
    expect(nextFresh(view(1, "draw", [1]), view(1, "play", [1, 5]), null, [])).toEqual([]);
    expect(nextFresh(view(1, "draw", [1]), view(1, "play", [1]), 0, [])).toEqual([]);
  });
});

describe("the hand's roving Tab stop", () => {
  it("arrow keys, Home and End move within the hand and stop at its ends", () => {
    const hand = [4, 8, 15, 16];
    expect(rovingTarget(hand, 8, "ArrowRight")).toBe(15);
    expect(rovingTarget(hand, 4, "ArrowLeft")).toBe(4);
    expect(rovingTarget(hand, 16, "ArrowRight")).toBe(16);
    expect(rovingTarget(hand, 15, "Home")).toBe(4);
    expect(rovingTarget(hand, 4, "End")).toBe(16);
    expect(rovingTarget(hand, 4, "Tab")).toBeNull();
  });

  it("after a discard the Tab stop goes to the next card, not back to the first", () => {
    expect(keptActive([4, 8, 15, 16], [4, 15, 16], 8)).toBe(15);
    expect(keptActive([4, 8, 15, 16], [4, 8, 15], 16)).toBe(15);
    expect(keptActive([4, 8], [4, 8, 9], 8)).toBe(8);
    expect(keptActive([], [3, 5], null)).toBe(3);
    expect(keptActive([1], [], 1)).toBeNull();
  });
});

describe("cards for screen readers and the four-colour deck", () => {
  it("says the suit in words, in both languages", () => {
    setLang("en");
    expect(cardSpoken("10H")).toBe("10 of hearts");
    expect(cardSpoken("QS")).toBe("queen of spades");
    expect(cardSpoken("JK(=7D)")).toBe("joker (= 7 of diamonds)");
    setLang("it");
    expect(cardSpoken("AC")).toBe("asso di fiori");
    expect(cardSpoken("KD")).toBe("re di quadri");
    setLang("en");
  });

  it("draws diamonds and clubs from the four-colour faces when asked", () => {
    expect(faceImage("7D", 3, true)).toBe("/cards/4c/7D.svg");
    expect(faceImage("QC", 3, true)).toBe("/cards/4c/QC.svg");
    expect(faceImage("7H", 3, true)).toBe("/cards/7H.svg");
    expect(faceImage("7D", 3)).toBe("/cards/7D.svg");
  });
});

describe("the service worker's policy", () => {
  const origin = "https://burraco.example";
  const at = (path: string) => new URL(path, origin);

  it("never caches the API, the WebSocket or another site", () => {
    expect(policy("GET", at("/api/tables"), origin, false)).toBe("network");
    expect(policy("GET", at("/ws/tables/abc"), origin, false)).toBe("network");
    expect(policy("GET", at("/healthz"), origin, false)).toBe("network");
    expect(policy("POST", at("/assets/x.js"), origin, false)).toBe("network");
    expect(policy("GET", new URL("https://elsewhere.example/cards/7H.svg"), origin, false)).toBe("network");
    expect(policy("GET", at("/api/tables"), origin, true)).toBe("network");
  });

  it("serves the pages from the shell and the built files and cards from the cache", () => {
    expect(policy("GET", at("/"), origin, true)).toBe("shell");
    expect(policy("GET", at("/play/t1?seat=0"), origin, true)).toBe("shell");
    expect(policy("GET", at("/replay/t1"), origin, true)).toBe("shell");
    expect(policy("GET", at("/assets/index-abc.js"), origin, false)).toBe("asset");
    expect(policy("GET", at("/cards/4c/7D.svg"), origin, false)).toBe("asset");
    expect(policy("GET", at("/manifest.webmanifest"), origin, false)).toBe("asset");
    expect(policy("GET", at("/nowhere"), origin, true)).toBe("network");
    expect(cacheName("abc123")).toBe("burraco-abc123");
  });
});
