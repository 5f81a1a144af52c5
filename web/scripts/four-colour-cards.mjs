// The four-colour deck: copies of the diamond and club faces (public/cards/4c/) with their
// rank indices and suit pips recoloured, diamonds blue and clubs green, so the four suits
// differ by colour as well as by shape. Court figures keep their colours. Runs after
// render-cards.mjs, from its SVGs.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const cards = join(dirname(fileURLToPath(import.meta.url)), "..", "public", "cards");
const out = join(cards, "4c");
const BLUE = "#1d4ed8";
const GREEN = "#15803d";
mkdirSync(out, { recursive: true });

// a rank index (viewBox -500…500) or a suit pip (-600…600): one path in a symbol
const SYMBOL = /(<symbol id="[^"]*" viewBox="-(?:500 -500 1000 1000|600 -600 1200 1200)"[^>]*>)(<path [^>]*>)(<\/path><\/symbol>)/g;

let count = 0;
for (const file of readdirSync(cards)) {
  const suit = /^(?:10|[2-9AJQK])([DC])\.svg$/.exec(file)?.[1];
  if (!suit) continue;
  const svg = readFileSync(join(cards, file), "utf8");
  const recoloured = svg.replace(SYMBOL, (_all, open, path, close) => {
    let p = suit === "D" ? path.replaceAll('"red"', `"${BLUE}"`) : path.replaceAll('stroke="#000"', `stroke="${GREEN}"`);
    if (suit === "C" && !/ fill=/.test(p)) p = p.replace("<path ", `<path fill="${GREEN}" `);
    return open + p + close;
  });
  if (recoloured === svg) throw new Error(`four-colour: nothing recoloured in ${file}`);
  writeFileSync(join(out, file), recoloured);
  count += 1;
}
if (count !== 26) throw new Error(`four-colour: ${count} faces instead of 26`);
