/**
 * The message catalogs for the browser: a `.po` (or the `.pot` template, for the English of
 * messages whose source is Python) imported as a module gives `{ messages, groups }`: each
 * translated entry by its context (the message's key), and the refusal reasons' entries
 * (contexts `reason`, `reason.*`) by their English text. The terminal's and the club pages'
 * messages (Python's own) are left out, and so are fuzzy and empty entries, which fall back to
 * English.
 */
import { po } from "gettext-parser";
import type { Plugin } from "vite";

const GROUP = /^reason(\.|$)/;
/** The browser's messages: its own (flagged icu-format) and the server's it shows. */
const SHOWN = /^(code|presetNote)\./;

export function poCatalogs(): Plugin {
  return {
    name: "po-catalogs",
    enforce: "pre",
    transform(code, id) {
      const path = id.split("?")[0];
      const template = path.endsWith(".pot");
      if (!template && !path.endsWith(".po")) return null;
      const parsed = po.parse(code, { defaultCharset: "utf-8" });
      const messages: Record<string, string> = {};
      const groups: Record<string, Record<string, string>> = {};
      for (const [context, entries] of Object.entries(parsed.translations)) {
        if (!context) continue; // the Python side's own messages
        for (const [msgid, entry] of Object.entries(entries)) {
          if (!msgid) continue;
          const flags = (entry.comments?.flag ?? "").split(/,\s*/);
          if (flags.includes("fuzzy")) continue;
          const text = template ? msgid : entry.msgstr[0];
          if (!text) continue;
          if (GROUP.test(context)) (groups[context] ??= {})[msgid] = text;
          // the template's browser messages are en.json's own: only the server's are needed
          else if ((flags.includes("icu-format") && !template) || SHOWN.test(context)) messages[context] = text;
        }
      }
      return { code: `export default ${JSON.stringify({ messages, groups })};`, map: null };
    },
  };
}
