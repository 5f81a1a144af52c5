/** A gettext catalog, read by the build (po-catalogs.ts): the messages by key (their
 * msgctxt), and the refusal reasons' groups (msgctxt `reason…`) by English msgid. */
interface Catalog {
  messages: Record<string, string>;
  groups: Record<string, Record<string, string>>;
}
declare module "*.po" {
  const catalog: Catalog;
  export default catalog;
}
declare module "*.pot" {
  const catalog: Catalog;
  export default catalog;
}
