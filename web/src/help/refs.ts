/**
 * The rules' section references (`§3.1.4`) in any text, as links to the help page.
 *
 * The engine and the server cite the rules digest by section in their refusals; the help
 * page gives every section and numbered item an anchor built by `ruleAnchor`, so a refusal's
 * `§3.1.4` opens the rule it names. Kept tiny: it is part of the first page.
 */

/** `§` and a section number: `§3`, `§3.1`, `§3.1.4` (a trailing dot is not part of it). */
const REF = /§\s?(\d+(?:\.\d+)*)/g;

export type Part = string | { ref: string; text: string };

/** The id of a section's anchor on the help page: `3.1.4` → `rule-3-1-4`. */
export function ruleAnchor(ref: string): string {
  return `rule-${ref.split(".").filter(Boolean).join("-")}`;
}

/** The help page's address of a section. */
export function ruleHref(ref: string): string {
  return `/help/#${ruleAnchor(ref)}`;
}

/** ``text`` cut into plain strings and section references, in order. */
export function splitRefs(text: string): Part[] {
  const out: Part[] = [];
  let last = 0;
  for (const match of text.matchAll(REF)) {
    const at = match.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    out.push({ ref: match[1], text: match[0] });
    last = at + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** The anchors to try for a reference, most precise first: `3.1.4`, then `3.1`, then `3`. */
export function anchorsFor(ref: string): string[] {
  const parts = ref.split(".").filter(Boolean);
  return parts.map((_, i) => ruleAnchor(parts.slice(0, parts.length - i).join(".")));
}
