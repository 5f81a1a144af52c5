// Draws the app's PNG icons (public/icon-192.png, public/icon-512.png), the same picture as
// public/icon.svg: two cards on the green felt. Pure Node (zlib), no image library; the
// PNGs are committed, run `npm run icons` after changing the picture.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync } from "node:zlib";

const out = join(dirname(fileURLToPath(import.meta.url)), "..", "public");
const FELT = [0x14, 0x53, 0x2d], PAPER = [0xfb, 0xfa, 0xf5], INK = [0x10, 0x23, 0x1a];
const RED = [0xc0, 0x39, 0x2b], BLUE = [0x1d, 0x4e, 0xd8];

function crc32(buf) {
  let c, crc = 0xffffffff;
  for (let n = 0; n < buf.length; n++) {
    c = (crc ^ buf[n]) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** The colour at (x, y) of the 512-unit picture, or null (transparent). */
function colour(x, y) {
  const inRounded = (px, py, w, h, r) => {
    const qx = Math.max(Math.abs(px) - (w / 2 - r), 0), qy = Math.max(Math.abs(py) - (h / 2 - r), 0);
    return qx * qx + qy * qy <= r * r;
  };
  if (!inRounded(x - 256, y - 256, 512, 512, 96)) return null;
  let pick = FELT;
  for (const [cx, cy, deg, mark] of [[191, 225, -14, "heart"], [321, 225, 12, "diamond"]]) {
    const a = (-deg * Math.PI) / 180;
    const dx = x - cx, dy = y - cy;
    const u = dx * Math.cos(a) - dy * Math.sin(a), v = dx * Math.sin(a) + dy * Math.cos(a);
    if (inRounded(u, v, 176, 246, 20)) pick = INK;
    if (inRounded(u, v, 164, 234, 16)) {
      pick = PAPER;
      const my = v + 30;
      if (mark === "heart") {
        const inCircle = (ox, oy) => (u - ox) ** 2 + (my - oy) ** 2 <= 28 ** 2;
        if (inCircle(-24, -14) || inCircle(24, -14) || (my >= -12 && my <= 52 && Math.abs(u) <= 50 * (1 - (my + 12) / 64))) pick = RED;
      } else if (Math.abs(u) / 42 + Math.abs(my) / 60 <= 1) pick = BLUE;
    }
  }
  return pick;
}

function png(size) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      const c = colour(((x + 0.5) * 512) / size, ((y + 0.5) * 512) / size);
      if (c) row.set([...c, 255], 1 + x * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

for (const size of [192, 512]) writeFileSync(join(out, `icon-${size}.png`), png(size));
