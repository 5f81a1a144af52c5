// Writes the avatars (scripts/avatars.mjs) to public/avatars/<id>.svg, which the build copies to
// /avatars/ (the lobby, the profiles, the leaderboard and the table's badges show them).
// Cheap: run by every build, like the card backs.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { AVATAR_IDS, avatarSvg } from "./avatars.mjs";

const out = join(dirname(fileURLToPath(import.meta.url)), "..", "public", "avatars");
mkdirSync(out, { recursive: true });
for (const id of AVATAR_IDS) writeFileSync(join(out, `${id}.svg`), avatarSvg(id));
