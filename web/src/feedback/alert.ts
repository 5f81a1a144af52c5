/**
 * "It is your turn": a short two-note chime made with WebAudio (no file to load), a vibration
 * on phones and the page title, unless the player muted the table (remembered).
 */
import { useEffect, useRef } from "preact/hooks";
import { pref } from "./prefs";

let audio: AudioContext | null = null;

type AudioCtor = typeof AudioContext;

/** Play the chime; false when the browser has no WebAudio. */
export function chime(): boolean {
  const Ctor: AudioCtor | undefined = typeof window === "undefined" ? undefined
    : window.AudioContext ?? (window as unknown as { webkitAudioContext?: AudioCtor }).webkitAudioContext;
  if (!Ctor) return false;
  try {
    audio ??= new Ctor();
    if (audio.state === "suspended") audio.resume().catch(() => undefined);
    const now = audio.currentTime;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.setValueAtTime(660, now);
    osc.frequency.setValueAtTime(880, now + 0.1);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.12, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.28);
    osc.connect(gain).connect(audio.destination);
    osc.start(now);
    osc.stop(now + 0.3);
    return true;
  } catch {
    return false;
  }
}

function count(name: "turnAlerts" | "sounds"): void {
  const data = document.documentElement.dataset;
  data[name] = String(Number(data[name] ?? 0) + 1);
}

/** Say once, when the turn comes to the player, that it is theirs; the title says it all along. */
export function useTurnAlert(myTurn: boolean, title: string, idle: string): void {
  const was = useRef(myTurn);
  useEffect(() => {
    document.title = myTurn ? title : idle;
  }, [myTurn, title, idle]);
  useEffect(() => () => {
    document.title = idle;
  }, []);
  useEffect(() => {
    const started = myTurn && !was.current;
    was.current = myTurn;
    if (!started) return;
    count("turnAlerts");
    if (pref("muted")) return;
    if (chime()) count("sounds");
    if (typeof navigator.vibrate === "function") navigator.vibrate(120);
  }, [myTurn]);
}
