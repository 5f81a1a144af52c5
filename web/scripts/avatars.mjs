// The avatars: small flat drawings on a round tile, in the table's felt greens and gold, each
// a few hundred bytes of SVG. Sixteen animals a person picks from, one robot per bot level
// (and one for an outside engine), and the guests' neutral silhouette. render-avatars.mjs
// writes them to public/avatars/<id>.svg at build time; the server knows only their ids
// (src/burraco/accounts/avatars.py), and web/test/avatars.test.ts holds the two lists together.

const INK = "#10231a", PAPER = "#fbfaf5", CREAM = "#f3e6c8", GOLD = "#f2c14e";
const FELT = "#2f8a4f", FELT_DARK = "#14532d", MINT = "#cfe6d5", PINK = "#eda2a6", NOSE = "#d9707f";

const n = (v) => +v.toFixed(1);

/** Two eyes with a glint. */
function eyes(lx, rx, y, r = 4) {
  return [lx, rx].map((x) => `<circle cx="${x}" cy="${y}" r="${r}" fill="${INK}"/>`
    + `<circle cx="${n(x + r * 0.35)}" cy="${n(y - r * 0.4)}" r="${n(r * 0.38)}" fill="#fff"/>`).join("");
}

/** Rosy cheeks. */
function cheeks(lx, rx, y, colour = PINK) {
  return [lx, rx].map((x) => `<ellipse cx="${x}" cy="${y}" rx="5" ry="3" fill="${colour}" opacity=".7"/>`).join("");
}

/** A shape and its mirror image across the middle (x = 50). */
function pair(shape) {
  return `${shape}<g transform="matrix(-1 0 0 1 100 0)">${shape}</g>`;
}

function whiskers(y) {
  return pair(`<path d="M30 ${y}L12 ${y - 3}M30 ${y + 4}L13 ${y + 6}" stroke="${INK}" stroke-width="1.4" stroke-linecap="round" opacity=".45"/>`);
}

const smile = (y, w = 6, colour = INK) =>
  `<path d="M${50 - w} ${y}q${w / 2} ${w * 0.6} ${w} 0q${w / 2} ${w * 0.6} ${w} 0" fill="none" stroke="${colour}" stroke-width="2" stroke-linecap="round"/>`;

/** The people's avatars, in the picker's order: [background, drawing]. */
const PEOPLE = {
  fox: [FELT, () => {
    const fur = "#e57a35";
    return pair(`<path d="M19 48L23 13L45 31Z" fill="${fur}"/><path d="M25 38L26 22L37 31Z" fill="#6b2f14"/>`)
      + `<path d="M13 45C17 31 33 27 50 27S83 31 87 45C85 63 65 80 50 86C35 80 15 63 13 45Z" fill="${fur}"/>`
      + `<path d="M13 45C23 56 40 57 50 66C60 57 77 56 87 45C85 63 65 80 50 86C35 80 15 63 13 45Z" fill="${PAPER}"/>`
      + eyes(37, 63, 49) + `<ellipse cx="50" cy="79" rx="5.5" ry="4" fill="${INK}"/>`;
  }],
  owl: [GOLD, () => {
    const brown = "#87563a";
    return pair(`<path d="M23 38L20 14L40 29Z" fill="${brown}"/>`)
      + `<ellipse cx="50" cy="63" rx="31" ry="35" fill="${brown}"/>`
      + `<ellipse cx="50" cy="84" rx="19" ry="16" fill="#d9b48a"/>`
      + pair(`<circle cx="37" cy="47" r="13" fill="${CREAM}"/><circle cx="37" cy="47" r="7.5" fill="${GOLD}"/>`)
      + eyes(37, 63, 47, 4.2)
      + `<path d="M24 36Q37 31 50 41Q63 31 76 36" fill="none" stroke="#5a3622" stroke-width="3" stroke-linecap="round"/>`
      + `<path d="M45 55h10l-5 9z" fill="#d9892b"/>`;
  }],
  cat: [MINT, () => {
    const fur = "#8d97a5";
    return pair(`<path d="M19 52L21 15L45 34Z" fill="${fur}"/><path d="M25 41L25 25L37 34Z" fill="${PINK}"/>`)
      + `<ellipse cx="50" cy="59" rx="33" ry="28" fill="${fur}"/>`
      + `<path d="M44 35v6M50 34v7M56 35v6" stroke="#6b7482" stroke-width="3" stroke-linecap="round"/>`
      + pair(`<ellipse cx="38" cy="55" rx="5" ry="6" fill="#b5d86a"/><ellipse cx="38" cy="55" rx="1.7" ry="5" fill="${INK}"/>`)
      + `<ellipse cx="44" cy="69" rx="7" ry="5.5" fill="${PAPER}"/><ellipse cx="56" cy="69" rx="7" ry="5.5" fill="${PAPER}"/>`
      + `<path d="M46 63h8l-4 4.5z" fill="${NOSE}"/>` + whiskers(67);
  }],
  bear: [FELT_DARK, () => {
    const fur = "#8f603c";
    return pair(`<circle cx="26" cy="31" r="12" fill="${fur}"/><circle cx="26" cy="31" r="6" fill="#c99d72"/>`)
      + `<circle cx="50" cy="57" r="31" fill="${fur}"/>`
      + `<ellipse cx="50" cy="69" rx="14" ry="11" fill="#d9b68e"/>`
      + eyes(38, 62, 51) + `<ellipse cx="50" cy="64" rx="6" ry="4.5" fill="${INK}"/>`
      + `<path d="M50 68v3" stroke="${INK}" stroke-width="2"/>` + smile(71, 5);
  }],
  rabbit: [GOLD, () => {
    const fur = "#f4f1ea";
    return pair(`<ellipse cx="38" cy="26" rx="8.5" ry="22" fill="${fur}" transform="rotate(-10 38 26)"/>`
      + `<ellipse cx="38" cy="27" rx="4.2" ry="16" fill="${PINK}" transform="rotate(-10 38 27)"/>`)
      + `<ellipse cx="50" cy="65" rx="29" ry="25" fill="${fur}"/>`
      + eyes(40, 60, 61) + cheeks(32, 68, 70)
      + `<path d="M47 68h6l-3 3.5z" fill="${NOSE}"/>`
      + `<rect x="47" y="74" width="6" height="6" rx="1" fill="#fff" stroke="#cfc8b8"/>`
      + `<path d="M50 71.5v2.5M50 74q-4 3-7 1M50 74q4 3 7 1" fill="none" stroke="${INK}" stroke-width="1.6" stroke-linecap="round"/>`;
  }],
  frog: [MINT, () => {
    const skin = "#5fae45";
    return `<ellipse cx="50" cy="64" rx="37" ry="27" fill="${skin}"/>`
      + pair(`<circle cx="32" cy="41" r="13" fill="${skin}"/><circle cx="32" cy="41" r="9" fill="${PAPER}"/>`)
      + eyes(32, 68, 42, 5)
      + cheeks(25, 75, 68)
      + `<path d="M27 64Q50 82 73 64" fill="none" stroke="#2d5e22" stroke-width="3" stroke-linecap="round"/>`
      + `<path d="M46 56v1M54 56v1" stroke="#2d5e22" stroke-width="2.2" stroke-linecap="round"/>`;
  }],
  panda: [FELT, () =>
    pair(`<circle cx="24" cy="30" r="12" fill="${INK}"/>`)
    + `<ellipse cx="50" cy="57" rx="33" ry="30" fill="${PAPER}"/>`
    + pair(`<ellipse cx="37" cy="53" rx="8" ry="11" fill="${INK}" transform="rotate(35 37 53)"/>`
      + `<circle cx="38" cy="52" r="3.4" fill="#fff"/><circle cx="38.6" cy="52.4" r="1.8" fill="${INK}"/>`)
    + `<ellipse cx="50" cy="65" rx="5.5" ry="3.8" fill="${INK}"/>`
    + `<path d="M50 68v3" stroke="${INK}" stroke-width="2"/>` + smile(71, 5) + cheeks(30, 70, 66)],
  lion: [FELT_DARK, () => {
    const mane = "#b8662a", face = "#eab45a";
    let tufts = "";
    for (let k = 0; k < 14; k++) {
      const a = (k / 14) * 2 * Math.PI;
      tufts += `<circle cx="${n(50 + 33 * Math.cos(a))}" cy="${n(55 + 33 * Math.sin(a))}" r="11" fill="${mane}"/>`;
    }
    return tufts + `<circle cx="50" cy="55" r="34" fill="${mane}"/>`
      + pair(`<circle cx="31" cy="34" r="8" fill="${face}"/><circle cx="31" cy="34" r="4" fill="#c98a3a"/>`)
      + `<circle cx="50" cy="57" r="25" fill="${face}"/>`
      + `<ellipse cx="50" cy="68" rx="12" ry="9" fill="#f7deab"/>`
      + eyes(41, 59, 53, 3.6) + `<path d="M45 62h10l-5 6z" fill="#7a3f1d"/>`
      + `<path d="M50 68v2" stroke="${INK}" stroke-width="1.8"/>` + smile(70, 4.5);
  }],
  penguin: [GOLD, () =>
    `<ellipse cx="50" cy="62" rx="33" ry="37" fill="#24333d"/>`
    + `<path d="M50 41C44 31 26 34 26 53C26 72 38 84 50 84S74 72 74 53C74 34 56 31 50 41Z" fill="${PAPER}"/>`
    + eyes(40, 60, 53) + cheeks(33, 67, 63)
    + `<path d="M43 60h14l-7 8z" fill="#ef8b2c"/>`],
  hedgehog: [MINT, () => {
    let spikes = "";
    const spikesN = 22;
    for (let k = 0; k <= spikesN; k++) {
      const a = Math.PI * (1 + k / spikesN) - 0.25, b = a + Math.PI / spikesN;
      spikes += `${k ? "L" : "M"}${n(50 + 41 * Math.cos(a))} ${n(60 + 41 * Math.sin(a))}L${n(50 + 31 * Math.cos(b))} ${n(60 + 31 * Math.sin(b))}`;
    }
    return `<path d="${spikes}L86 72L14 72Z" fill="#6e4b30" stroke="#6e4b30" stroke-width="2" stroke-linejoin="round"/>`
      + `<ellipse cx="50" cy="62" rx="33" ry="27" fill="#8a6040"/>`
      + `<ellipse cx="50" cy="66" rx="24" ry="21" fill="#edd0a6"/>`
      + eyes(41, 59, 61, 3.6) + cheeks(34, 66, 71)
      + `<circle cx="50" cy="71" r="4.5" fill="${INK}"/>` + smile(77, 3.5);
  }],
  koala: [FELT, () => {
    const fur = "#9aa4aa";
    return pair(`<circle cx="22" cy="39" r="16" fill="${fur}"/><circle cx="22" cy="39" r="9" fill="#e8ecee"/>`)
      + `<ellipse cx="50" cy="59" rx="29" ry="27" fill="${fur}"/>`
      + eyes(37, 63, 53, 3.6)
      + `<ellipse cx="50" cy="63" rx="8" ry="11" fill="#2b3035"/>`
      + `<path d="M44 79q6 3 12 0" fill="none" stroke="${INK}" stroke-width="2" stroke-linecap="round"/>`;
  }],
  tiger: [FELT_DARK, () => {
    const fur = "#ec8a2d";
    return pair(`<circle cx="27" cy="33" r="10" fill="${fur}"/><circle cx="27" cy="33" r="5" fill="${INK}"/>`)
      + `<ellipse cx="50" cy="58" rx="32" ry="28" fill="${fur}"/>`
      + `<path d="M50 31v8M42 33l2 6M58 33l-2 6" stroke="${INK}" stroke-width="3" stroke-linecap="round"/>`
      + pair(`<path d="M18 53l9 2M18 61l9 0M20 69l8-2" stroke="${INK}" stroke-width="3" stroke-linecap="round"/>`)
      + `<ellipse cx="44" cy="69" rx="8" ry="6.5" fill="${PAPER}"/><ellipse cx="56" cy="69" rx="8" ry="6.5" fill="${PAPER}"/>`
      + `<ellipse cx="50" cy="77" rx="7" ry="4" fill="${PAPER}"/>`
      + pair(`<ellipse cx="38" cy="52" rx="4.6" ry="4.6" fill="#cfe07a"/>`) + eyes(38, 62, 52, 2.8)
      + `<path d="M46 63h8l-4 5z" fill="${NOSE}"/>`;
  }],
  mouse: [GOLD, () => {
    const fur = "#a9a6a2";
    return pair(`<circle cx="24" cy="37" r="17" fill="${fur}"/><circle cx="24" cy="37" r="10" fill="${PINK}"/>`)
      + `<ellipse cx="50" cy="63" rx="25" ry="23" fill="${fur}"/>`
      + eyes(42, 58, 59, 3.6) + `<circle cx="50" cy="71" r="3.6" fill="${NOSE}"/>` + whiskers(71)
      + smile(76, 3.5);
  }],
  deer: [MINT, () => {
    const fur = "#b07a4a", horn = "#7d5a37";
    return pair(`<path d="M40 33L33 17M35 22L24 19M33 17L32 7M29 19L25 10" fill="none" stroke="${horn}" stroke-width="4" stroke-linecap="round"/>`
      + `<ellipse cx="24" cy="44" rx="13" ry="6.5" fill="${fur}" transform="rotate(-25 24 44)"/>`
      + `<ellipse cx="24" cy="44" rx="8" ry="3.2" fill="${PINK}" transform="rotate(-25 24 44)"/>`)
      + `<ellipse cx="50" cy="59" rx="22" ry="28" fill="${fur}"/>`
      + `<circle cx="45" cy="40" r="2" fill="${CREAM}"/><circle cx="55" cy="42" r="2" fill="${CREAM}"/><circle cx="50" cy="36" r="1.8" fill="${CREAM}"/>`
      + `<ellipse cx="50" cy="77" rx="13" ry="9" fill="#ecd6b8"/>`
      + eyes(41, 59, 56) + `<ellipse cx="50" cy="74" rx="5" ry="3.6" fill="${INK}"/>`;
  }],
  turtle: [GOLD, () => {
    const shell = "#4f8a3c", line = "#2f5e25", skin = "#9ccb78";
    return `<rect x="42" y="46" width="16" height="18" fill="${skin}"/>`
      + `<path d="M12 100C12 68 29 58 50 58S88 68 88 100Z" fill="${shell}"/>`
      + `<path d="M40 72h20l6 10-6 10H40l-6-10z" fill="#6aa551" stroke="${line}" stroke-width="2.2" stroke-linejoin="round"/>`
      + `<path d="M40 72L33 61M60 72l7-11M34 82H17M66 82h17M40 92l-6 8M60 92l6 8" stroke="${line}" stroke-width="2.2" stroke-linecap="round"/>`
      + `<circle cx="50" cy="36" r="21" fill="${skin}"/>`
      + eyes(42, 58, 33, 3.6) + cheeks(36, 64, 41) + smile(43, 5);
  }],
  dog: [FELT, () => {
    const fur = "#dca467", ear = "#7a4a2a";
    return `<ellipse cx="50" cy="57" rx="28" ry="29" fill="${fur}"/>`
      + pair(`<path d="M25 32C11 36 10 62 20 72C29 69 33 50 32 36Z" fill="${ear}"/>`)
      + `<ellipse cx="61" cy="49" rx="8.5" ry="8" fill="#b77a44"/>`
      + `<ellipse cx="50" cy="69" rx="14" ry="10.5" fill="#f5e3ca"/>`
      + eyes(40, 61, 50) + `<ellipse cx="50" cy="63" rx="6.5" ry="4.6" fill="${INK}"/>`
      + `<ellipse cx="50" cy="77" rx="3.6" ry="4.2" fill="#e0707a"/>`
      + `<path d="M50 67.5v4" stroke="${INK}" stroke-width="2"/>` + smile(72, 5);
  }],
};

/** A robot's head: the pieces every bot shares, with the level's own colour and face. */
function robot({ metal, dark, accent, face, top, lights }) {
  const antenna = top ?? `<path d="M50 34V22" stroke="${dark}" stroke-width="3"/><circle cx="50" cy="19" r="5" fill="${accent}"/>`;
  let dots = "";
  for (let k = 0; k < lights; k++) dots += `<circle cx="${50 + (k - (lights - 1) / 2) * 8}" cy="74" r="2.4" fill="${accent}"/>`;
  return antenna
    + pair(`<rect x="15" y="48" width="9" height="18" rx="3" fill="${dark}"/>`)
    + `<rect x="22" y="33" width="56" height="48" rx="12" fill="${metal}"/>`
    + `<rect x="22" y="33" width="56" height="48" rx="12" fill="none" stroke="${dark}" stroke-width="2.5"/>`
    + face + dots;
}

const BOT_BG = INK;

/** The bots' avatars, one per level (and one for an outside engine): never offered to people. */
const BOTS = {
  "bot-random": [BOT_BG, () => robot({
    metal: "#b9c2c6", dark: "#5d6a70", accent: "#e0533f", lights: 0,
    face: `<rect x="31" y="41" width="38" height="30" rx="6" fill="${PAPER}" stroke="#5d6a70" stroke-width="2"/>`
      + [[38, 47], [62, 47], [50, 56], [38, 65], [62, 65]].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="3.4" fill="#e0533f"/>`).join(""),
  })],
  "bot-basic": [BOT_BG, () => robot({
    metal: "#e6dcc2", dark: "#7b6f55", accent: "#5fae45", lights: 1,
    face: `<circle cx="39" cy="52" r="6" fill="${INK}"/><circle cx="61" cy="52" r="6" fill="${INK}"/>`
      + `<circle cx="41" cy="50" r="2" fill="#fff"/><circle cx="63" cy="50" r="2" fill="#fff"/>`
      + `<rect x="40" y="63" width="20" height="5" rx="2.5" fill="#7b6f55"/>`,
  })],
  "bot-advanced": [BOT_BG, () => robot({
    metal: "#9fc3d1", dark: "#3f6677", accent: "#4fc3e0", lights: 2,
    top: pair(`<path d="M40 34L34 21" stroke="#3f6677" stroke-width="3"/><circle cx="33" cy="19" r="4.5" fill="#4fc3e0"/>`),
    face: `<rect x="28" y="44" width="44" height="15" rx="7.5" fill="${INK}"/>`
      + `<ellipse cx="40" cy="51.5" rx="5" ry="3.6" fill="#4fc3e0"/><ellipse cx="60" cy="51.5" rx="5" ry="3.6" fill="#4fc3e0"/>`
      + `<path d="M42 65h16" stroke="#3f6677" stroke-width="3" stroke-linecap="round"/>`,
  })],
  "bot-expert": [BOT_BG, () => robot({
    metal: GOLD, dark: "#9a6f12", accent: "#fff4c9", lights: 3,
    top: `<path d="M33 34L35 16L43 26L50 12L57 26L65 16L67 34Z" fill="${GOLD}" stroke="#9a6f12" stroke-width="2" stroke-linejoin="round"/>`,
    face: `<rect x="28" y="43" width="44" height="17" rx="8.5" fill="${INK}"/>`
      + `<path d="M35 54q5-7 10 0M55 54q5-7 10 0" fill="none" stroke="#fff4c9" stroke-width="3" stroke-linecap="round"/>`
      + `<path d="M43 65q7 5 14 0" fill="none" stroke="#9a6f12" stroke-width="3" stroke-linecap="round"/>`,
  })],
  "bot-engine": [BOT_BG, () => {
    let teeth = "";
    for (let k = 0; k < 8; k++) teeth += `<rect x="47" y="8" width="6" height="8" rx="1" fill="#8e9aa0" transform="rotate(${k * 45} 50 20)"/>`;
    return robot({
      metal: "#c3ccd0", dark: "#5d6a70", accent: GOLD, lights: 0,
      top: `<path d="M50 34V28" stroke="#5d6a70" stroke-width="3"/>${teeth}<circle cx="50" cy="20" r="9" fill="#8e9aa0"/><circle cx="50" cy="20" r="3.6" fill="${INK}"/>`,
      face: `<rect x="33" y="45" width="12" height="12" rx="2" fill="${INK}"/><rect x="55" y="45" width="12" height="12" rx="2" fill="${INK}"/>`
        + `<rect x="36" y="48" width="5" height="5" fill="${GOLD}"/><rect x="58" y="48" width="5" height="5" fill="${GOLD}"/>`
        + `<path d="M38 66h24" stroke="#5d6a70" stroke-width="3" stroke-dasharray="3 2"/>`,
    });
  }],
};

/** A guest's avatar: the same neutral silhouette for everyone without an account. */
const GUEST = {
  guest: ["#9dbfa8", () =>
    `<circle cx="50" cy="40" r="17" fill="${MINT}"/><path d="M16 100C16 72 31 62 50 62S84 72 84 100Z" fill="${MINT}"/>`],
};

const ALL = { ...PEOPLE, ...BOTS, ...GUEST };

export const PEOPLE_IDS = Object.keys(PEOPLE);
export const BOT_IDS = Object.keys(BOTS);
export const GUEST_ID = "guest";
export const AVATAR_IDS = Object.keys(ALL);

/** The SVG text of avatar ``id``: a round tile, 100 units across. */
export function avatarSvg(id) {
  const entry = ALL[id];
  if (!entry) throw new Error(`no avatar ${id}`);
  const [background, draw] = entry;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">`
    + `<clipPath id="c"><circle cx="50" cy="50" r="50"/></clipPath>`
    + `<g clip-path="url(#c)"><rect width="100" height="100" fill="${background}"/>${draw()}</g></svg>\n`;
}
