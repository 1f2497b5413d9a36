#!/usr/bin/env bash
# Stages what the GPU machine needs to open the real GLFW window there (it has no display and no
# network): Xvfb with Mesa's software driver and GLX (the window's GL) and xkbcomp, unpacked from
# Debian's packages and pruned (docs, the hardware DRI drivers) into .gpu-stage/xvfb-root.tar.xz
# (git-ignored, ~50 MB: it must fit the 64 MiB that travels), for
# `scripts/gpu-check.sh BIN OUT window`. Run here, once the GPU stage's .gpu-stage/ exists.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
out=.gpu-stage/xvfb-root.tar.xz
[[ -f $out ]] && { echo "already staged: $out"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/debs" "$dir/root" ${TMPDIR:-/tmp}/gpu-box-lists/partial
apt_opts=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=${TMPDIR:-/tmp}/gpu-box-lists)
ls ${TMPDIR:-/tmp}/gpu-box-lists/*Packages* >/dev/null 2>&1 || apt-get "${apt_opts[@]}" update >/dev/null
packages=(
  xvfb xserver-common libxfont2 libfontenc1 libfreetype6 libpng16-16 libbrotli1 libpixman-1-0 libunwind8
  libaudit1 libcap-ng0 libxau6 libxdmcp6 libbsd0 libmd0 libx11-6 libx11-data libxcb1 libxkbfile1
  x11-xkb-utils xkb-data
  libgl1-mesa-dri libglapi-mesa libllvm15 libz3-4 libedit2 libxml2 libicu72 libdrm2 libdrm-amdgpu1
  libdrm-intel1 libdrm-nouveau2 libdrm-radeon1 libpciaccess0 libelf1 libsensors5 libxcb-dri3-0
  libxcb-glx0 libxcb-dri2-0 libxcb-present0 libxcb-sync1 libxcb-xfixes0 libxcb-randr0 libxshmfence1 libxxf86vm1
  libxext6 libxfixes3 libx11-xcb1
  libxrandr2 libxinerama1 libxcursor1 libxi6 libxrender1
  libglx-mesa0 libxcb-shm0
)
(cd "$dir/debs" && apt-get "${apt_opts[@]}" download "${packages[@]}" >/dev/null)
for f in "$dir"/debs/*.deb; do dpkg -x "$f" "$dir/root"; done
rm -rf "$dir"/root/usr/share/{doc,man,locale,lintian,bug}
find "$dir/root/usr/lib/x86_64-linux-gnu/dri" -type f ! -name swrast_dri.so -delete
# ICU comes in for libxml2, which Mesa's LLVM links; nothing the window draws converts text
# through it. Its 30 MB data library becomes the one symbol libicuuc takes from it, an empty
# table (ICU then answers "no data", never read here), and the ICU libraries no one links go:
# the root then fits in what may travel beside the binaries.
lib=$dir/root/usr/lib/x86_64-linux-gnu
rm -f "$lib"/libicu{i18n,io,test,tu}.so*
printf 'const char icudt72_dat[64] = {0};\n' >"$dir/icudata.c"
cc -shared -fPIC -Wl,-soname,libicudata.so.72 -o "$lib/libicudata.so.72.1" "$dir/icudata.c"
tar -C "$dir/root" -cf - . | xz -T0 -6 > "$out"
du -sh "$out" | awk '{print "staged " $1 " in " $2}'
