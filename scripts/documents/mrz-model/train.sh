#!/usr/bin/env bash
# Trains an MRZ recogniser of our own for Tesseract from nothing (decision 0081), with Debian's
# Tesseract training tools (apt-get install -y tesseract-ocr fonts-ocr-b). No model is a starting
# point: tessdata's models are integer models, which Tesseract cannot train on, and the MRZ model
# the engine loads today comes from a repository that issue 20 reserves for an independent check.
#
#   scripts/documents/mrz-model/train.sh WORK_DIR
#
# 1. A starter traineddata holding only the 37 MRZ characters (no dictionary, no legacy engine).
# 2. Line images: easy ones (large, clean), hard ones (training-lines.ts), and lines cut from the
#    engine's own zone crops of generated hard pages (zone-lines.ts); each written with a WordStr
#    box of the whole line and turned into Tesseract's .lstmf by `tesseract IMAGE BASE --psm 13 lstm.train`.
# 3. From nothing on the easy lines for 20,000 iterations (the error is under 1 % from about 13,000;
#    a network trained from nothing on the hard lines alone stayed at about 80 % for 18,000), then
#    on the hard lines and zone lines together to iteration 30,000; the zone lines of pages 400 and
#    on of seed 1001 are the evaluation list, never trained on. lstmtraining's --target_error_rate
#    is a percentage, so neither stage stops before its --max_iterations.
# 4. Converted to an integer model (tesseract.js's core has no float dot product) as
#    WORK_DIR/mrz.traineddata.
# Two cores with nothing else running take about 70 minutes (stop 41): the easy lines and the first
# stage 33, while the other core makes the rest; the second stage 33. lstmeval on
# WORK_DIR/zone-eval.list compares a model with another line by line:
# `lstmeval --model M --eval_listfile WORK_DIR/zone-eval.list`.
set -euo pipefail

work=${1:?usage: train.sh WORK_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
cd "$work"

# 1. The starter: unicharset of the MRZ alphabet; combine_lang_model wants a radical table, which a
#    Latin script leaves empty (a comment line).
echo 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<' >alphabet.txt
unicharset_extractor --output_unicharset unicharset --norm_mode 1 alphabet.txt
mkdir -p langdata start
printf '# no Han\n' >langdata/radical-stroke.txt
combine_lang_model --input_unicharset unicharset --script_dir langdata --output_dir start --lang mrz
outputs=$(head -n1 start/mrz/mrz.unicharset)

# 2. Line images (with their text and box, training-line.ts) and their .lstmf.
lstmf() {
  for png in "$1"/*.png; do
    [ -f "${png%.png}.lstmf" ] || tesseract "$png" "${png%.png}" --psm 13 lstm.train >/dev/null 2>&1
  done
}
easy() {
  bun "$here/training-lines.ts" --out easy --count 3000 --seed 201 --easy
  lstmf easy
  ls easy/*.lstmf >easy.list
}
rest() {
  bun "$here/training-lines.ts" --out hard --count 3000 --seed 301
  bun "$here/training-lines.ts" --out hard --count 3000 --seed 302
  for seed in 1000 1001 1002; do bun "$here/zone-lines.ts" --out zone --count 500 --seed $seed; done
  lstmf hard
  lstmf zone
  ls zone/*.lstmf | awk -F- '{ if ($1 ~ /c1001$/ && $2 >= 400) print > "zone-eval.list"; else print > "zone-train.list" }'
}

# 3. From nothing on the easy lines, on one core as soon as they exist, while the other core makes
#    the rest; then on everything, the zone lines three times over.
mkdir -p easy-model full-model
rest &
rest_pid=$!
easy
OMP_THREAD_LIMIT=1 lstmtraining --traineddata start/mrz/mrz.traineddata \
  --net_spec "[1,36,0,1 Ct3,3,16 Mp3,3 Lfys48 Lfx96 Lrx96 Lfx192 O1c$outputs]" \
  --model_output easy-model/mrz --learning_rate 0.002 --train_listfile easy.list \
  --max_iterations 20000 --target_error_rate 0.01 --debug_interval 0
wait "$rest_pid"
(cat zone-train.list zone-train.list zone-train.list; ls hard/*.lstmf; head -n 1000 easy.list) | shuf --random-source=<(yes) >full.list
# lstmtraining (Debian's 5.3) has crashed once on its way out after "Finished!", its checkpoint written:
# that run counts.
train_full() {
  OMP_THREAD_LIMIT=1 lstmtraining --traineddata start/mrz/mrz.traineddata --continue_from easy-model/mrz_checkpoint \
    --model_output full-model/mrz --learning_rate 0.002 --train_listfile full.list --eval_listfile zone-eval.list \
    --max_iterations 30000 --target_error_rate 0.005 --debug_interval 0 2>&1 | tee full-model/training.log
}
train_full || grep -q '^Finished!' full-model/training.log

# 4. The integer model.
lstmtraining --stop_training --convert_to_int --continue_from full-model/mrz_checkpoint \
  --traineddata start/mrz/mrz.traineddata --model_output mrz.traineddata
lstmeval --model mrz.traineddata --eval_listfile zone-eval.list | tail -n 1
