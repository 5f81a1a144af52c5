/**
 * Every move said to screen readers: a polite live region that speaks the moves that came
 * since the last render (in the page's language, as the move log writes them) and the start
 * of the player's turn. The history already there when the page opens is not read out.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { LogLine } from "../connection";

export function Announcer(props: { log: LogLine[]; text: (line: LogLine) => string | null; myTurn: boolean; turnText: string }) {
  const last = useRef<number>(props.log.length ? props.log[props.log.length - 1].v : -1);
  const wasMine = useRef(props.myTurn);
  const [message, setMessage] = useState("");
  useEffect(() => {
    const lines = props.log.filter((l) => l.v > last.current);
    if (props.log.length) last.current = Math.max(last.current, props.log[props.log.length - 1].v);
    const said = lines.map(props.text).filter((s): s is string => Boolean(s)).slice(-4);
    const turnStarts = props.myTurn && !wasMine.current;
    wasMine.current = props.myTurn;
    if (turnStarts) said.push(props.turnText);
    if (said.length) setMessage(said.join(". "));
  }, [props.log, props.myTurn]);
  return (
    <div class="sr-only" role="log" aria-live="polite" aria-atomic="true" data-testid="announcer">{message}</div>
  );
}
