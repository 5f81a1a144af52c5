/**
 * The players' rules (Markdown, one file per language) as HTML, with an anchor for every
 * section the engine's refusals cite and pictures of melds made of real card images.
 *
 * The rules use a small part of Markdown: headings, paragraphs, numbered and bulleted lists
 * (a nested bullet is indented), tables, **bold**, *italic*, `>` notes, links inside the page
 * (`[text](#rule-5)`) and `§` references. Two additions:
 *
 * * anchors: a heading `## 3. The turn` or `### 3.1 Drawing` takes the anchor of its number
 *   (`rule-3`, `rule-3-1`, as `ruleAnchor` builds them); a block may name more with
 *   `{#3.1.4 #3.1.5}` at its end (the first becomes its id when it has none, the others are
 *   empty anchors inside it), so a refusal's `§3.1.4` lands on the paragraph that says it;
 * * meld pictures: a line `[[4H 5H 6H 7H]]` is a row of cards, read in words in the page's
 *   language. `JK(=7C)` is a wild with the card it stands for, `+` and `→` join the groups of
 *   a move (`[[5C 6C JK(=7C) + 8C → …]]`), a leading `!` marks what is not allowed, and a
 *   caption follows a `|`. Consecutive picture lines make one row of pictures.
 *
 * Addresses outside the page are not made links, and a raw HTML tag is shown as text. The
 * reader knows exactly that much, so the help page needs no library; it loads with the page.
 */
import { faceImage, parseCard, cardLabel } from "../cards";
import { cardSpoken } from "../a11y/spoken";
import { t, type Lang } from "../i18n";
import { ruleAnchor, splitRefs } from "./refs";

export interface TocEntry {
  id: string;
  /** The heading as plain text, its number included: "6. The pozzetto". */
  title: string;
  level: number;
}

export interface Rendered {
  html: string;
  toc: TocEntry[];
}

export interface RenderOptions {
  /** The language of the pictures' words ("4 of hearts", "4 di cuori"). */
  lang: Lang;
  /** Diamonds blue and clubs green, as the player's four-colour deck draws them. */
  fourColour?: boolean;
}

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function refs(text: string): string {
  return splitRefs(text).map((part) => (typeof part === "string" ? part
    : `<a class="rule-ref" href="#${ruleAnchor(part.ref)}" data-rule="${part.ref}">${part.text}</a>`)).join("");
}

/** One line's inline marks: code spans first (nothing inside them is read), then the rest. */
export function inline(text: string): string {
  return text.split("`").map((piece, i) => {
    if (i % 2 === 1) return `<code>${escape(piece)}</code>`;
    let out = escape(piece);
    out = out.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
    out = out.replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>");
    // links inside the page only: [text](#id)
    out = out.replace(/\[([^\]]+)\]\((#[\w-]+)\)/g, '<a href="$2">$1</a>');
    return refs(out);
  }).join("");
}

/** A heading's text as the contents shows it: no marks, no anchors. */
function plain(text: string): string {
  return text.replace(/\*\*([^*]+)\*\*/g, "$1").replace(/\*([^*]+)\*/g, "$1").replace(/`/g, "")
    .replace(/\[([^\]]+)\]\(#[\w-]+\)/g, "$1");
}

function slug(text: string): string {
  return text.toLowerCase().normalize("NFD").replace(/[^\w\s-]/g, "").trim().replace(/\s+/g, "-");
}

const ANCHORS = /\s*\{((?:#\d+(?:\.\d+)*\s*)+)\}\s*$/;

/** A block's text without its trailing `{#3.1.4 #3.1.5}`, and the anchors it names. */
export function takeAnchors(text: string): { text: string; ids: string[] } {
  const match = ANCHORS.exec(text);
  if (!match) return { text, ids: [] };
  const ids = match[1].split(/\s+/).filter(Boolean).map((ref) => ruleAnchor(ref.slice(1)));
  return { text: text.slice(0, match.index), ids };
}

/** The id attribute of a block and the empty anchors that go inside it. */
function anchorMarkup(ids: string[], own: string | null = null): { attr: string; inner: string } {
  const id = own ?? ids[0] ?? null;
  const rest = ids.filter((x) => x !== id);
  return {
    attr: id ? ` id="${id}"` : "",
    inner: rest.map((x) => `<span class="anchor" id="${x}"></span>`).join(""),
  };
}

// --- meld pictures -------------------------------------------------------------------------

const PICTURE = /^\[\[(.*)\]\]$/;
const CARD = /^(?:10|[2-9AJQK])[HDCS](?:\(=(?:10|[2-9AJQK])[HDCS]\))?$|^JK(?:\(=(?:10|[2-9AJQK])[HDCS]\))?$/;

/** The card's words: "joker as 7 of clubs" for a wild with its role. */
function cardWords(token: string, lang: Lang): string {
  const card = parseCard(token);
  if (!card.role) return cardSpoken(card.face, lang);
  return t("help.pic.as", { card: cardSpoken(card.face, lang), role: cardSpoken(card.role, lang) }, lang);
}

function cardImage(token: string, options: RenderOptions): string {
  const card = parseCard(token);
  const src = faceImage(card.face, undefined, options.fourColour ?? false);
  const role = card.role ? `<span class="role">${escape(cardLabel(card.role))}</span>` : "";
  return `<span class="card-face small" data-card="${card.face}"><img src="${src}" alt="" draggable="false">${role}</span>`;
}

/** One `[[…]]` line as a figure: the cards drawn, their words as the figure's name. */
export function picture(line: string, options: RenderOptions): string {
  let body = PICTURE.exec(line.trim())?.[1] ?? "";
  const bar = body.indexOf("|");
  const caption = bar >= 0 ? body.slice(bar + 1).trim() : "";
  if (bar >= 0) body = body.slice(0, bar);
  body = body.trim();
  const wrong = body.startsWith("!");
  if (wrong) body = body.slice(1).trim();
  const { lang } = options;
  const drawn: string[] = [];
  const said: string[] = []; // the groups' words and the moves between them
  let group: string[] = [];
  const closeGroup = () => {
    if (!group.length) return;
    drawn.push(`<span class="pic-cards">${group.map((c) => cardImage(c, options)).join("")}</span>`);
    said.push(group.map((c) => cardWords(c, lang)).join(", "));
    group = [];
  };
  for (const token of body.split(/\s+/).filter(Boolean)) {
    if (token === "+" || token === "→" || token === "->") {
      closeGroup();
      const arrow = token !== "+";
      drawn.push(`<span class="pic-op">${arrow ? "→" : "+"}</span>`);
      said.push(t(arrow ? "help.pic.becomes" : "help.pic.plus", undefined, lang));
      continue;
    }
    if (!CARD.test(token)) throw new Error(`meld picture: cannot read ${JSON.stringify(token)} in ${line}`);
    group.push(token);
  }
  closeGroup();
  if (!drawn.some((d) => d.includes("card-face"))) throw new Error(`meld picture without cards: ${line}`);
  let name = said.join(" ");
  if (wrong) name = `${t("help.pic.wrong", undefined, lang)}: ${name}`;
  const mark = wrong ? `<span class="pic-wrong">✗ ${escape(t("help.pic.wrong", undefined, lang))}</span>` : "";
  const text = caption ? `<figcaption>${mark}${inline(caption)}</figcaption>`
    : mark ? `<figcaption>${mark}</figcaption>` : "";
  return `<figure class="meld-picture${wrong ? " wrong" : ""}">`
    + `<span class="pic-row" role="img" aria-label="${escape(name)}">${drawn.join("")}</span>${text}</figure>`;
}

// --- blocks ----------------------------------------------------------------------------------

interface Item {
  lines: string[];
  subs: string[][];
}

/** Render the rules in ``options.lang``. */
export function renderRules(markdown: string, options: RenderOptions): Rendered {
  const out: string[] = [];
  const toc: TocEntry[] = [];
  let paragraph: string[] = [];
  let note: string[] = [];
  let pictures: string[] = [];
  let list: { ordered: boolean; items: Item[] } | null = null;
  let table: string[][] | null = null;

  const block = (tag: string, text: string, cls = "") => {
    const { text: body, ids } = takeAnchors(text);
    const a = anchorMarkup(ids);
    return `<${tag}${a.attr}${cls ? ` class="${cls}"` : ""}>${a.inner}${inline(body)}</${tag}>`;
  };
  const flushParagraph = () => {
    if (paragraph.length) out.push(block("p", paragraph.join(" ")));
    paragraph = [];
  };
  const flushNote = () => {
    if (note.length) out.push(`<blockquote class="note">${block("p", note.join(" "))}</blockquote>`);
    note = [];
  };
  const flushPictures = () => {
    if (pictures.length) out.push(`<div class="meld-pictures">${pictures.map((p) => picture(p, options)).join("")}</div>`);
    pictures = [];
  };
  const flushList = () => {
    if (!list) return;
    const tag = list.ordered ? "ol" : "ul";
    out.push(`<${tag}>`);
    for (const item of list.items) {
      const subs = item.subs.length
        ? `<ul>${item.subs.map((s) => block("li", s.join(" "))).join("")}</ul>` : "";
      const { text, ids } = takeAnchors(item.lines.join(" "));
      const a = anchorMarkup(ids);
      out.push(`<li${a.attr}>${a.inner}${inline(text)}${subs}</li>`);
    }
    out.push(`</${tag}>`);
    list = null;
  };
  const flushTable = () => {
    if (!table) return;
    const [head, ...body] = table.filter((row) => !row.every((cell) => /^:?-{2,}:?$/.test(cell)));
    out.push(`<div class="table-wrap"><table><thead><tr>${head.map((c) => `<th scope="col">${inline(c)}</th>`).join("")}</tr></thead><tbody>`);
    for (const row of body) out.push(`<tr>${row.map((c) => `<td>${inline(c)}</td>`).join("")}</tr>`);
    out.push("</tbody></table></div>");
    table = null;
  };
  const flush = () => { flushParagraph(); flushNote(); flushPictures(); flushList(); flushTable(); };

  for (const raw of markdown.split("\n")) {
    const line = raw.replace(/\s+$/, "");
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = heading[1].length;
      const { text: title, ids } = takeAnchors(heading[2]);
      const number = /^(\d+(?:\.\d+)*)\.?\s/.exec(title);
      const own = number ? ruleAnchor(number[1]) : ids[0] ?? slug(plain(title));
      const a = anchorMarkup(ids, own);
      if (level >= 2) toc.push({ id: own, title: plain(title), level });
      out.push(`<h${level + 1}${a.attr}>${a.inner}${inline(title)}</h${level + 1}>`);
      continue;
    }
    if (line === "") { flush(); continue; }
    if (/^-{3,}$/.test(line)) { flush(); out.push("<hr>"); continue; }
    if (PICTURE.test(line.trim())) {
      flushParagraph(); flushNote(); flushList(); flushTable();
      pictures.push(line.trim());
      continue;
    }
    flushPictures();
    if (line.startsWith(">")) {
      flushParagraph(); flushList(); flushTable();
      note.push(line.replace(/^>\s?/, ""));
      continue;
    }
    if (line.startsWith("|")) {
      flushParagraph(); flushNote(); flushList();
      table ??= [];
      table.push(line.replace(/^\||\|$/g, "").split("|").map((c) => c.trim()));
      continue;
    }
    const numbered = /^(\d+)\.\s+(.*)$/.exec(line);
    const bullet = /^[*-]\s+(.*)$/.exec(line);
    if (numbered || bullet) {
      flushParagraph(); flushNote(); flushTable();
      const ordered = Boolean(numbered);
      if (list && list.ordered !== ordered) flushList();
      list ??= { ordered, items: [] };
      list.items.push({ lines: [(numbered ? numbered[2] : bullet![1])], subs: [] });
      continue;
    }
    const indented = /^\s+(.*)$/.exec(line);
    if (indented && list) {
      const item = list.items[list.items.length - 1];
      const sub = /^[*-]\s+(.*)$/.exec(indented[1]);
      if (sub) item.subs.push([sub[1]]);
      else if (item.subs.length) item.subs[item.subs.length - 1].push(indented[1]);
      else item.lines.push(indented[1]);
      continue;
    }
    if (list) flushList();
    flushTable(); flushNote();
    paragraph.push(line.trim());
  }
  flush();
  return { html: out.join("\n"), toc };
}
