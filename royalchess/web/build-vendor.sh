#!/bin/sh
# Rebuild royalchess/web/static/vendor/ from the npm registry (see README.md beside this).
# Needs node and npm. Usage: sh royalchess/web/build-vendor.sh
set -eu
CGX_VERSION=10.7.4
ESBUILD_VERSION=0.28.2
here=$(cd "$(dirname "$0")" && pwd)
out="$here/static/vendor"
pieces="$here/static/pieces"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund "chessgroundx@$CGX_VERSION" "esbuild@$ESBUILD_VERSION" >/dev/null
pkg=node_modules/chessgroundx
mkdir -p "$out" "$pieces"
npx esbuild "$pkg/chessground.js" --bundle --format=esm --minify --target=es2020 \
    --legal-comments=none --outfile="$out/chessgroundx.js"
{
    printf '/* chessgroundx %s (GPL-3.0), assets/chessground.base.css */\n' "$CGX_VERSION"
    cat "$pkg/assets/chessground.base.css"
} > "$out/chessground.base.css"
cp "$pkg/LICENSE" "$out/LICENSE.chessgroundx"
printf 'chessgroundx %s from the npm registry, bundled with esbuild %s\n' \
    "$CGX_VERSION" "$ESBUILD_VERSION" > "$out/VERSION"
# The standard pieces (cburnett), as files: the set our Guard artwork is drawn to match.
node -e '
const fs = require("fs");
const css = fs.readFileSync(process.argv[1], "utf8");
const names = {pawn: "P", knight: "N", bishop: "B", rook: "R", queen: "Q", king: "K"};
const re = /piece\.(\w+)\.(white|black)\s*\{\s*background-image:\s*url\(.data:image\/svg\+xml;base64,([^")\x27]+)/g;
let m, n = 0;
while ((m = re.exec(css))) {
  const file = (m[2] === "white" ? "w" : "b") + names[m[1]] + ".svg";
  fs.writeFileSync(process.argv[2] + "/" + file, Buffer.from(m[3], "base64"));
  n++;
}
if (n !== 12) { console.error("expected 12 pieces, found " + n); process.exit(1); }
' "$pkg/assets/chessground.cburnett.css" "$pieces"
echo "vendored chessgroundx $CGX_VERSION into $out"
