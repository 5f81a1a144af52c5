/**
 * The rules digest (Markdown) as HTML with an anchor for every section and numbered item.
 *
 * The digest uses a small part of Markdown: headings, numbered and bulleted lists with
 * indented continuation lines, tables, `code`, **bold**, *italic*, bare links and `§`
 * references. This reader knows exactly that much, so the help page needs no library. A
 * heading `### 3.1 Draw phase` gets the anchor `rule-3-1`, and item 4 of its numbered list
 * `rule-3-1-4`: the ids a refusal's `§3.1.4` links to (refs.ts). Loaded with the help page only.
 */
import { ruleAnchor, splitRefs } from "./refs";

export interface TocEntry {
  id: string;
  title: string;
  level: number;
}

export interface Rendered {
  html: string;
  toc: TocEntry[];
}

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function links(text: string): string {
  // text is escaped already; a bare address ends before a closing bracket or final punctuation
  return text.replace(/https?:\/\/[^\s<)\]]+[^\s<)\].,;:]/g, (url) => `<a href="${url}" rel="noopener noreferrer" target="_blank">${url}</a>`);
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
    return refs(links(out));
  }).join("");
}

function slug(text: string): string {
  return text.toLowerCase().normalize("NFD").replace(/[^\w\s-]/g, "").trim().replace(/\s+/g, "-");
}

interface Item {
  id: string | null;
  lines: string[];
  subs: string[][];
}

/** Render the digest. */
export function renderRules(markdown: string): Rendered {
  const out: string[] = [];
  const toc: TocEntry[] = [];
  let section: string | null = null;
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: Item[] } | null = null;
  let table: string[][] | null = null;

  const flushParagraph = () => {
    if (paragraph.length) out.push(`<p>${inline(paragraph.join(" "))}</p>`);
    paragraph = [];
  };
  const flushList = () => {
    if (!list) return;
    const tag = list.ordered ? "ol" : "ul";
    out.push(`<${tag}>`);
    for (const item of list.items) {
      const id = item.id ? ` id="${item.id}"` : "";
      const number = item.id ? ` data-item="${item.id}"` : "";
      const subs = item.subs.length
        ? `<ul>${item.subs.map((s) => `<li>${inline(s.join(" "))}</li>`).join("")}</ul>` : "";
      out.push(`<li${id}${number}>${inline(item.lines.join(" "))}${subs}</li>`);
    }
    out.push(`</${tag}>`);
    list = null;
  };
  const flushTable = () => {
    if (!table) return;
    const [head, ...body] = table.filter((row) => !row.every((cell) => /^:?-{2,}:?$/.test(cell)));
    out.push(`<div class="table-wrap"><table><thead><tr>${head.map((c) => `<th>${inline(c)}</th>`).join("")}</tr></thead><tbody>`);
    for (const row of body) out.push(`<tr>${row.map((c) => `<td>${inline(c)}</td>`).join("")}</tr>`);
    out.push("</tbody></table></div>");
    table = null;
  };
  const flush = () => { flushParagraph(); flushList(); flushTable(); };

  for (const raw of markdown.split("\n")) {
    const line = raw.replace(/\s+$/, "");
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = heading[1].length;
      const title = heading[2];
      const number = /^(\d+(?:\.\d+)*)\.?\s/.exec(title);
      section = number ? number[1] : level <= 2 ? null : section;
      const id = number ? ruleAnchor(number[1]) : slug(title);
      if (level >= 2) toc.push({ id, title, level });
      out.push(`<h${level + 1} id="${id}">${inline(title)}</h${level + 1}>`);
      continue;
    }
    if (line === "") { flush(); continue; }
    if (/^-{3,}$/.test(line)) { flush(); out.push("<hr>"); continue; }
    if (line.startsWith("|")) {
      flushParagraph(); flushList();
      table ??= [];
      table.push(line.replace(/^\||\|$/g, "").split("|").map((c) => c.trim()));
      continue;
    }
    const numbered = /^(\d+)\.\s+(.*)$/.exec(line);
    const bullet = /^[*-]\s+(.*)$/.exec(line);
    if (numbered || bullet) {
      flushParagraph(); flushTable();
      const ordered = Boolean(numbered);
      if (list && list.ordered !== ordered) flushList();
      list ??= { ordered, items: [] };
      const id = numbered && section ? ruleAnchor(`${section}.${numbered[1]}`) : null;
      list.items.push({ id, lines: [(numbered ? numbered[2] : bullet![1])], subs: [] });
      continue;
    }
    const indented = /^\s+(.*)$/.exec(line);
    if (indented && list) {
      const item = list.items[list.items.length - 1];
      const sub = /^[*-]\s+(.*)$/.exec(indented[1]);
      if (sub) item.subs.push([sub[1]]);
      else if (item.subs.length && /^\s{4,}/.test(line)) item.subs[item.subs.length - 1].push(indented[1]);
      else if (item.subs.length) item.subs[item.subs.length - 1].push(indented[1]);
      else item.lines.push(indented[1]);
      continue;
    }
    if (list) flushList();
    flushTable();
    paragraph.push(line.trim());
  }
  flush();
  return { html: out.join("\n"), toc };
}
