#!/usr/bin/env bash
# Ingest rates per modality and layout: builds a media folder per modality (images from `layoutbench generate`;
# audio and video made with ffmpeg; text written here), ingests each into l1, l2 and l3 with `ingest --from`, and
# prints the ingest tables. Usage: scripts/modality-ingest.sh [WORKDIR]   (needs ffmpeg; about 5 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-/tmp/modality-ingest}
rm -rf "$W" && mkdir -p "$W/media"
M="$W/media"

./layoutbench generate --scale tiny --out "$M/image" > /dev/null

# Audio: 16 kHz mono speech-like clips of 2-20 s (sine sweeps plus noise), as WAV, FLAC and MP3.
for label in wav flac mp3; do mkdir -p "$M/audio/$label"; done
for i in $(seq 0 119); do
  d=$(( 2 + (i * 7) % 19 ))
  src="aevalsrc=0.3*sin(2*PI*(200+${i})*t)+0.05*random(0):s=16000:d=$d"
  ffmpeg -loglevel error -f lavfi -i "$src" -ac 1 "$M/audio/wav/clip-$i.wav"
  [ $((i % 3)) -eq 0 ] && ffmpeg -loglevel error -f lavfi -i "$src" -ac 1 "$M/audio/flac/clip-$i.flac"
  [ $((i % 3)) -eq 1 ] && ffmpeg -loglevel error -f lavfi -i "$src" -ac 1 -b:a 64k "$M/audio/mp3/clip-$i.mp3"
done

# Video: 24 clips of 10 s, 640x360 at 25 fps, H.264 (ultrafast) with AAC audio.
mkdir -p "$M/video/testsrc"
for i in $(seq 0 23); do
  ffmpeg -loglevel error -f lavfi -i "testsrc2=size=640x360:rate=25:duration=10" \
    -f lavfi -i "sine=frequency=$((300 + i * 10)):duration=10" -c:v libx264 -preset ultrafast -crf 28 \
    -c:a aac -shortest "$M/video/testsrc/clip-$i.mp4"
done

# Text: 4,000 captions and JSON records.
python3 - "$M/text" <<'PY'
import json, os, random, sys
random.seed(7)
words = "the a river grey sky north ran under over bright cold slow quick green house light".split()
for label in ("captions", "records"):
    os.makedirs(os.path.join(sys.argv[1], label), exist_ok=True)
for i in range(2000):
    text = " ".join(random.choice(words) for _ in range(random.randint(5, 60)))
    open(os.path.join(sys.argv[1], "captions", f"{i:05d}.txt"), "w").write(text + "\n")
    record = {"id": i, "score": random.random(), "tags": random.sample(words, 3), "text": text}
    open(os.path.join(sys.argv[1], "records", f"{i:05d}.json"), "w").write(json.dumps(record))
PY

for modality in image audio video text; do
  echo "== $modality: $(find "$M/$modality" -type f | wc -l) files, $(du -sm "$M/$modality" | cut -f1) MB"
  ./layoutbench ingest --from "$M/$modality" --name "$modality" --layouts l1,l2,l3 --data-dir "$W/store" 2>&1 \
    | grep -v "^WARN"
done
