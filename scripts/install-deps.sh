#!/usr/bin/env bash
# Installs the system packages HashScope builds and runs with, only when something is missing.
# Debian 12 takes Catch2 v3 from bookworm-backports; Ubuntu 24.04 has it in universe.
# CUDA is not installed here: it comes with the NVIDIA toolkit (nvcc on PATH or in /usr/local/cuda).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  python3 python3-venv python3-pip
  libglfw3-dev libstb-dev
  libegl-dev libgl-dev libglvnd-dev libegl-mesa0 libgl1-mesa-dri
  xvfb xauth fonts-dejavu-core
  libcairo2-dev poppler-utils nlohmann-json3-dev libcli11-dev ffmpeg
  catch2 clang
)
# libFuzzer comes with the distribution's default clang: 14 on Debian 12, 18 on Ubuntu 24.04.
. /etc/os-release
case "${ID}-${VERSION_ID}" in
  ubuntu-24.04) packages+=(libfuzzer-18-dev) ;;
  *) packages+=(libfuzzer-14-dev) ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Catch2 v2 (bookworm main) does not count: we need the v3 headers.
[[ -f /usr/include/catch2/catch_test_macros.hpp ]] || { [[ " ${missing[*]} " == *" catch2 "* ]] || missing+=(catch2); }
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi

apt_install=(env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends)
echo "install-deps: installing ${missing[*]}"
if [[ ${ID} == debian && ${VERSION_CODENAME} == bookworm ]]; then
  list=/etc/apt/sources.list.d/hashscope-bookworm-backports.list
  if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "deb http://deb.debian.org/debian bookworm-backports main" | $sudo tee "$list" >/dev/null
  fi
  $sudo apt-get update -qq
  others=("${missing[@]/catch2}")
  # `if`, not `[[ ]] &&`: a false test as the script's last command would fail the whole set-up.
  if [[ -n "${others[*]// }" ]]; then $sudo "${apt_install[@]}" ${others[@]}; fi
  if [[ " ${missing[*]} " == *" catch2 "* ]]; then $sudo "${apt_install[@]}" -t bookworm-backports catch2; fi
else
  $sudo apt-get update -qq
  $sudo "${apt_install[@]}" "${missing[@]}"
fi
