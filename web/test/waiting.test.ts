import { describe, expect, it } from "vitest";
import type { Presence } from "../src/api";
import { awaitedNames, cancellable } from "../src/table/waiting";

function seat(n: number, nickname: string | null, arrived: boolean | null, kind: "human" | "bot" = "human"): Presence {
  return { seat: n, kind, level: kind === "bot" ? "basic" : null, nickname, online: false, grace_deadline_ms: null,
    grace_seconds: 60, standin: null, arrived: arrived ?? undefined };
}

describe("the waiting room", () => {
  it("names the holders the match still waits for, and no one else", () => {
    const seats = [seat(0, "Cleo", false), seat(1, "Dan", true), seat(2, null, null), seat(3, null, null, "bot")];
    expect(awaitedNames(seats)).toEqual(["Cleo"]);
    expect(awaitedNames([seat(0, "Cleo", true)])).toEqual([]);
  });

  it("lets the creator cancel only while nobody else holds a seat", () => {
    expect(cancellable([seat(0, "Cleo", true), seat(1, null, null), seat(2, null, null, "bot")], 0)).toBe(true);
    expect(cancellable([seat(0, "Cleo", true), seat(1, "Dan", true)], 0)).toBe(false);
  });
});
