#!/usr/bin/env bash
# The Debian package as a user gets it: CPack builds it from this build tree, dpkg-deb extracts
# it into a temporary folder, and the extracted hashscope finds its installed assets (not the
# source tree's) and renders the default demo headless; the desktop entry, the icon and the
# scenario MIME type are where the desktop looks for them.
set -euo pipefail
build="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$build" && cpack -G DEB -B "$tmp/pkg" > "$tmp/cpack.log") || { cat "$tmp/cpack.log"; exit 1; }
deb=$(ls "$tmp"/pkg/hashscope_*.deb)
dpkg-deb -x "$deb" "$tmp/root"
dpkg-deb -f "$deb" Package Version Depends
for f in usr/bin/hashscope usr/share/applications/hashscope.desktop usr/share/icons/hicolor/scalable/apps/hashscope.svg \
         usr/share/mime/packages/hashscope-scenario.xml usr/share/hashscope/colormaps/viridis.txt \
         usr/share/hashscope/scenarios/linear-clustering.scn; do
  [[ -s "$tmp/root/$f" ]] || { echo "missing from the package: $f"; exit 1; }
done
grep -q '^Exec=hashscope %f$' "$tmp/root/usr/share/applications/hashscope.desktop"
grep -q 'MimeType=application/x-hashscope-scenario;' "$tmp/root/usr/share/applications/hashscope.desktop"
grep -q '<glob pattern="\*.scn"/>' "$tmp/root/usr/share/mime/packages/hashscope-scenario.xml"
if command -v desktop-file-validate > /dev/null; then desktop-file-validate "$tmp/root/usr/share/applications/hashscope.desktop"; fi
if command -v xmllint > /dev/null; then xmllint --noout "$tmp/root/usr/share/mime/packages/hashscope-scenario.xml" \
  "$tmp/root/usr/share/icons/hicolor/scalable/apps/hashscope.svg"; fi
cd "$tmp"  # no assets folder here: the installed ones must be found
version=$("$tmp/root/usr/bin/hashscope" --version)
echo "$version"
grep -q "assets: $tmp/root/usr/share/hashscope" <<< "$version" || { echo "the extracted hashscope did not use its installed assets"; exit 1; }
env -u DISPLAY -u WAYLAND_DISPLAY "$tmp/root/usr/bin/hashscope" --headless --backend cpu --capacity 2^16 | tee "$tmp/render.log"
pngs=$(find "$tmp/out/demo" -name '*.png' | wc -l)
[[ $pngs -ge 4 ]] || { echo "the extracted hashscope rendered $pngs PNGs of the demo"; exit 1; }
echo "the package installs and renders the demo headless: $pngs PNGs"
