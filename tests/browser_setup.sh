#!/bin/sh
# Install what tests/test_web_browser.py needs: Debian's Chromium and the Playwright client.
# Never runs `playwright install` (no browser download): the tests drive /usr/bin/chromium.
# Usage (from CI, as root): sh tests/browser_setup.sh [PYTHON]
set -eu
python=${1:-python3}
if [ ! -x /usr/bin/chromium ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
"$python" -m pip install -q playwright
/usr/bin/chromium --version
