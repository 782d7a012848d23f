#!/usr/bin/env bash
# Install hivecam on Raspberry Pi OS Bookworm (Pi 4 or Pi 5) and start it at boot.
#
#   git clone <hivecam repository> ~/hivecam && cd ~/hivecam && ./deploy/install-pi.sh
#
# picamera2 comes from apt (it is tied to the system's libcamera), so the venv is created
# with --system-site-packages to see it; OpenCV >= 4.7 (ArUco API) comes from pip, since
# Bookworm's python3-opencv is 4.6.
set -euo pipefail

HERE="$(cd "$(dirname "$0")/.." && pwd)"
TARGET="$HOME/hivecam"
if [ "$HERE" != "$TARGET" ]; then
    echo "Put the hivecam checkout at $TARGET (it is at $HERE)" >&2
    exit 1
fi

echo "== system packages"
sudo apt-get update
sudo apt-get install -y python3-venv python3-pip python3-picamera2

echo "== Python environment"
python3 -m venv --system-site-packages "$TARGET/.venv"
"$TARGET/.venv/bin/pip" install --upgrade pip
"$TARGET/.venv/bin/pip" install "opencv-python-headless>=4.7" -e "$TARGET"
"$TARGET/.venv/bin/python" -c "import cv2; assert tuple(map(int, cv2.__version__.split('.')[:2])) >= (4, 7), cv2.__version__"

echo "== data folder"
mkdir -p "$HOME/.local/share/hivecam"

echo "== systemd service"
sed -e "s|@USER@|$USER|g" -e "s|@HOME@|$HOME|g" "$TARGET/deploy/hivecam.service" | sudo tee /etc/systemd/system/hivecam.service >/dev/null
sudo systemctl daemon-reload
sudo systemctl enable --now hivecam

echo "== checks"
"$TARGET/.venv/bin/hivecam" doctor --data "$HOME/.local/share/hivecam" || true
echo
echo "hivecam runs at http://$(hostname).local:8000/  (logs: journalctl -u hivecam -f)"
echo "The control PIN is printed once in the log: journalctl -u hivecam | grep PIN"
