/**
 * A sheet shared as a link: the whole sheet travels in the URL fragment (after `#`, which the
 * browser never sends to the server), so sharing needs no server storage and works offline.
 * The fragment is base64url of the sheet's JSON, prefixed with a version.
 */
import { presetRules } from "./score";
import { computeSheet, PLAYER_COUNTS, type Sheet } from "./sheet";

const PREFIX = "s1.";

export function encodeSheet(sheet: Sheet): string {
  const bytes = new TextEncoder().encode(JSON.stringify(sheet));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return PREFIX + btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The sheet of a fragment, or an Error naming what is wrong with it. */
export function decodeSheet(fragment: string): Sheet | Error {
  const text = fragment.replace(/^#/, "");
  if (!text.startsWith(PREFIX)) return new Error("it does not start with the sheet's version");
  let sheet: Sheet;
  try {
    const binary = atob(text.slice(PREFIX.length).replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    sheet = JSON.parse(new TextDecoder().decode(bytes)) as Sheet;
  } catch {
    return new Error("it is cut short or altered");
  }
  if (!sheet || sheet.version !== 1 || !Array.isArray(sheet.names) || !Array.isArray(sheet.hands)) {
    return new Error("it is not a score sheet");
  }
  if (!PLAYER_COUNTS.includes(sheet.names.length)) return new Error(`${sheet.names.length} players`);
  try {
    presetRules(sheet.preset);
    computeSheet(sheet); // every hand must score
  } catch (err) {
    return err as Error;
  }
  return sheet;
}

export function shareUrl(sheet: Sheet, origin: string = location.origin): string {
  return `${origin}/pad/view#${encodeSheet(sheet)}`;
}
