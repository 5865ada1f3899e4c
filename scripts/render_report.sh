#!/usr/bin/env bash
# Render an HTML report (wsd eval --report / wsd compare --report) to a PNG
# with headless Chromium, so a person can look at it without a browser.
#
#   scripts/render_report.sh REPORT.html [OUT.png] [WIDTHxHEIGHT]
#
# Needs Debian's `chromium` (apt-get install -y chromium; any chromium or
# google-chrome on PATH works, or set CHROMIUM=/path/to/binary). The page
# is loaded from a file:// URL with networking, sync and updates off; the
# report needs nothing from the network. Default size 1200x2400.
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 3 ]; then
    echo "usage: $0 REPORT.html [OUT.png] [WIDTHxHEIGHT]" >&2
    exit 2
fi
html=$1
out=${2:-${html%.html}.png}
size=${3:-1200x2400}
[ -f "$html" ] || { echo "$0: no such file: $html" >&2; exit 1; }
browser=${CHROMIUM:-}
if [ -z "$browser" ]; then
    for b in chromium chromium-browser google-chrome; do
        if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
    done
fi
[ -n "$browser" ] || { echo "$0: no chromium found (apt-get install -y chromium, or set CHROMIUM)" >&2; exit 1; }
abs_html=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
abs_out=$(cd "$(dirname "$out")" 2>/dev/null && pwd)/$(basename "$out")
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
flags=(--headless --disable-gpu --disable-background-networking --disable-component-update
    --disable-sync --no-first-run --hide-scrollbars --user-data-dir="$profile"
    --screenshot="$abs_out" --window-size="${size/x/,}")
# Chromium refuses to run as root without --no-sandbox.
if [ "$(id -u)" = 0 ]; then flags+=(--no-sandbox); fi
"$browser" "${flags[@]}" "file://$abs_html" >/dev/null 2>"$profile/stderr" || {
    cat "$profile/stderr" >&2
    exit 1
}
[ -s "$abs_out" ] || { cat "$profile/stderr" >&2; echo "$0: no PNG written" >&2; exit 1; }
echo "$abs_out"
