// Renders the CC0 card faces of @letele/playing-cards (React components) to static SVG files,
// once, at build time: public/cards/<face>.svg for the 52 faces (7H, 10S, ...), JK1.svg and
// JK2.svg for the two jokers of a pack, B1.svg and B2.svg for the two backs (one per pack).
// The package imports React; a resolve hook hands it preact/compat instead, and
// preact-render-to-string turns each component into markup.
//
// The faces are Adrian Kennard's card designs, dedicated to the public domain (CC0 1.0, the
// package's LICENSE): they may be changed and need no attribution. Their ace of spades carries
// the designer's web address and a QR code drawn in white over the big spade; plainAceOfSpades
// takes both out and leaves the card as the other aces look (corner indices, the big pip).
import { mkdirSync, writeFileSync, existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "node:module";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "public", "cards");
const pkg = join(here, "..", "node_modules", "@letele", "playing-cards", "package.json");
const stamp = join(out, ".rendered");
const script = fileURLToPath(import.meta.url);
const { backSvg, BACKS } = await import("./card-backs.mjs");
/** Our own backs over the package's plain ones (cheap: written on every build). */
function writeBacks() {
  mkdirSync(out, { recursive: true });
  for (const name of BACKS) writeFileSync(join(out, `${name}.svg`), backSvg(name));
}
const fresh = (path) => statSync(stamp).mtimeMs >= statSync(path).mtimeMs;
if (existsSync(stamp) && fresh(pkg) && fresh(script) && !process.argv.includes("--force")) {
  writeBacks();
  process.exit(0);
}

register("data:text/javascript," + encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === "react") return next("preact/compat", context);
  return next(specifier, context);
}
export async function load(url, context, next) {
  // the package ships ES modules in .js files without "type": "module"
  if (url.includes("/@letele/playing-cards/")) return next(url, { ...context, format: "module" });
  return next(url, context);
}`), import.meta.url);

const { h } = await import("preact");
const { renderToStaticMarkup } = await import("preact-render-to-string");
const deck = await import("@letele/playing-cards/dist/index.esm.js");

const RANKS = { a: "A", j: "J", q: "Q", k: "K" };

/**
 * The ace of spades without its extras: the two lines of text under the spade (the designer's
 * address, "www.me.uk" "/cards/") and the QR code, one path filled white drawn over the spade.
 * Fails loudly if the package's drawing changed so that either is not found.
 */
function plainAceOfSpades(svg) {
  const texts = svg.match(/<text\b[^>]*>[^<]*<\/text>/g) ?? [];
  const qr = svg.match(/<path fill="#fff" d="[^"]*"[^>]*><\/path>/g) ?? [];
  if (texts.length !== 2 || qr.length !== 1) {
    throw new Error(`ace of spades: expected 2 texts and 1 QR path, found ${texts.length} and ${qr.length}`);
  }
  let plain = svg;
  for (const part of [...texts, ...qr]) plain = plain.replace(part, "");
  if (/<text\b|me\.uk|fill="#fff" d=/.test(plain)) throw new Error("ace of spades: extras left");
  return plain;
}
mkdirSync(out, { recursive: true });
let count = 0;
for (const [name, Component] of Object.entries(deck)) {
  // names: Ha, H10, Sq, ... J1 J2 (jokers), B1 B2 (backs)
  let file;
  if (/^J[12]$/.test(name)) file = `JK${name[1]}`;
  else if (/^B[12]$/.test(name)) file = name;
  else {
    const suit = name[0];
    const rank = name.slice(1);
    file = (RANKS[rank] ?? rank) + suit;
  }
  let svg = renderToStaticMarkup(h(Component, {}));
  if (!svg.startsWith("<svg")) throw new Error(`${name}: not an SVG`);
  if (file === "AS") svg = plainAceOfSpades(svg);
  svg = svg.replace("<svg", '<svg xmlns:xlink="http://www.w3.org/1999/xlink"').replace(
    /xmlns:xlink="[^"]*"(.*?)xmlns:xlink="[^"]*"/, 'xmlns:xlink="http://www.w3.org/1999/xlink"$1');
  writeFileSync(join(out, `${file}.svg`), '<?xml version="1.0" encoding="UTF-8"?>\n' + svg + "\n");
  count += 1;
}
if (count !== 56) throw new Error(`expected 56 cards (52 faces, 2 jokers, 2 backs), got ${count}`);
writeBacks();
writeFileSync(stamp, new Date().toISOString() + "\n");
console.log(`rendered ${count} card SVGs into ${out}`);
