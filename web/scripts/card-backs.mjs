// The two card backs (one per pack: red for the first, blue for the second), drawn here as
// small SVGs: a white border, a woven lattice and a medallion, like a real deck's back, in
// about a kilobyte each.  render-cards.mjs writes them over the package's plain backs.

const COLOURS = {
  B2: { base: "#b3261e", light: "#e8867f", dark: "#7a1712" },
  B1: { base: "#1e40af", light: "#7ea2f0", dark: "#15296b" },
};

/** The SVG text of back ``name`` (B1 or B2). */
export function backSvg(name) {
  const c = COLOURS[name];
  if (!c) throw new Error(`no card back ${name}`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="100" height="140">
<defs><pattern id="w" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
<rect width="8" height="8" fill="${c.base}"/><path d="M0 4h8M4 0v8" stroke="${c.light}" stroke-width="1.1"/>
<circle cx="4" cy="4" r="1.3" fill="${c.dark}"/></pattern></defs>
<rect x="0.5" y="0.5" width="99" height="139" rx="7" fill="#fbfaf5" stroke="#00000033"/>
<rect x="6" y="6" width="88" height="128" rx="4" fill="url(#w)"/>
<rect x="9" y="9" width="82" height="122" rx="3" fill="none" stroke="#fbfaf5" stroke-width="1.2"/>
<g transform="translate(50 70)">
<ellipse rx="21" ry="27" fill="${c.dark}" stroke="#fbfaf5" stroke-width="2.4"/>
<path d="M0-17L11 0L0 17L-11 0Z" fill="#fbfaf5"/><path d="M0-9L6 0L0 9L-6 0Z" fill="${c.base}"/>
</g>
</svg>
`;
}

export const BACKS = Object.keys(COLOURS);
