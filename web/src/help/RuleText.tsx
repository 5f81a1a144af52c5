/** A text (a refusal) whose `§` references are links to the rules' sections. */
import { navigate } from "../components";
import { ruleHref, splitRefs } from "./refs";

export function RuleText({ text }: { text: string }) {
  return (
    <>
      {splitRefs(text).map((part) => (typeof part === "string" ? part : (
        <a class="rule-ref" href={ruleHref(part.ref)} data-rule={part.ref}
          onClick={(e) => { e.stopPropagation(); navigate(e); }}>{part.text}</a>
      )))}
    </>
  );
}
