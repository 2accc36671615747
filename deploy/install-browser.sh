#!/bin/sh
# Installs Debian's headless-capable Chromium for the browser tests (tests/web/).
# Playwright drives it through executable_path; Playwright's own browser builds are
# never downloaded. Needs root (or sudo) and Debian's package lists.
set -eu
if command -v chromium >/dev/null 2>&1; then
    echo "chromium is already installed: $(command -v chromium)"
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core
command -v chromium
