#!/usr/bin/env bash
# Installs the Debian packages that the firmware build and the simulator tests need, and the card
# themes the card reader's held-out test uses (gnome-cards-data, rasterised by librsvg2-bin's
# rsvg-convert), espeak-ng, the speech engine of `--voice`, and chromium, the headless browser
# the post-game review's page is opened in (tests/review), and the typefaces the card reader's
# index templates are drawn from (`python -m vision.card_fonts`), when we can. As root we install them;
# otherwise we say which are missing, and those tests skip themselves.
set -u
packages=(gcc-avr avr-libc binutils-avr arduino-core-avr libsimavr-dev libelf-dev pkg-config make gcc
          gnome-cards-data librsvg2-bin espeak-ng chromium
          fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-urw-base35 fonts-freefont-ttf)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  echo "Installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || echo "Could not install ${missing[*]}; the simulator and card-theme tests will be skipped."
else
  echo "Not root: the firmware simulator and card-theme tests will be skipped. To run them: sudo apt-get install ${missing[*]}"
fi
exit 0
