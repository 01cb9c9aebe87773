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
#    engine's own zone crops of generated hard pages and from the lower part of such pages as the
#    first passes read it (zone-lines.ts, `--band` since stop 45); each written with a WordStr
#    box of the whole line and turned into Tesseract's .lstmf by `tesseract IMAGE BASE --psm 13 lstm.train`.
# 3. From nothing on the easy lines for 20,000 iterations (the script stops there unless the error
#    is under 5 %: see the first stage below; a network trained from nothing on the hard lines alone
#    stayed at about 80 % for 18,000), then on the hard lines and zone lines together for 30,000
#    iterations more; the zone lines of pages 400 and on of seed 1001 are the evaluation list, never
#    trained on. lstmtraining's --target_error_rate
#    is a percentage, so neither stage stops before its --max_iterations.
# 4. Converted to an integer model (tesseract.js's core has no float dot product) as
#    WORK_DIR/mrz.traineddata.
# Two cores take about 90 minutes: stop 45's run (the band lines included, the script as it is now)
# took 86, while other jobs shared the machine for its first 50: the first stage ended at 43
# minutes, the rest at 62, and the second stage took 24. lstmeval on
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

# The last character error on the training lines lstmtraining printed to a log, in percent.
last_error() { grep -o 'BCER train=[0-9.]*' "$1" | tail -n 1 | cut -d= -f2; }
# True when that error is below $2 percent.
last_error_below() {
  local error
  error=$(last_error "$1")
  [ -n "$error" ] && awk -v error="$error" -v bound="$2" 'BEGIN { exit !(error < bound) }'
}

# 2. Line images (with their text and box, training-line.ts) and their .lstmf: of every line image
#    of a folder, or with a half (0 or 1) of every other one.
lstmf() {
  ls "$1"/*.png | awk -v half="${2:-}" 'half == "" || NR % 2 == half' | while read -r png; do
    [ -f "${png%.png}.lstmf" ] || tesseract "$png" "${png%.png}" --psm 13 lstm.train >/dev/null 2>&1
  done
}
easy() {
  bun "$here/training-lines.ts" --out easy --count 3000 --seed 201 --easy
  lstmf easy
  ls easy/*.lstmf >easy.list
}
# The rest runs two pieces at a time: while the first stage holds one core they share the other, and
# when it ends they have both. One at a time they held the second stage back by half an hour (stop
# 44): since stop 42's check with Debian's model a seed of zone pages takes about 15 minutes of a
# core, and the rest outlasted the first stage's 27 minutes by far.
two_at_a_time() {
  local pids=() pid job
  for job in "$@"; do
    if [ ${#pids[@]} -eq 2 ]; then
      wait "${pids[0]}"
      pids=("${pids[@]:1}")
    fi
    eval "$job" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
}
# A process and everything it started (the rest runs its pieces in subshells of subshells).
kill_tree() {
  local child
  for child in $(pgrep -P "$1"); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
rest() {
  two_at_a_time \
    'bun "$here/training-lines.ts" --out hard --count 3000 --seed 301' \
    'bun "$here/training-lines.ts" --out hard --count 3000 --seed 302' \
    'bun "$here/zone-lines.ts" --out zone --count 500 --seed 1000' \
    'bun "$here/zone-lines.ts" --out zone --count 500 --seed 1001' \
    'bun "$here/zone-lines.ts" --out zone --count 500 --seed 1002' \
    'bun "$here/zone-lines.ts" --out band --count 500 --seed 1003 --band' \
    'bun "$here/zone-lines.ts" --out band --count 500 --seed 1004 --band'
  two_at_a_time 'lstmf hard 0' 'lstmf hard 1' 'lstmf zone 0' 'lstmf zone 1' 'lstmf band 0' 'lstmf band 1'
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
  --model_output easy-model/mrz --learning_rate 0.001 --train_listfile easy.list \
  --max_iterations 20000 --target_error_rate 0.01 --debug_interval 0 2>&1 | tee easy-model/training.log || true
# A network trained from nothing does not always learn: at a learning rate of 0.002 (stops 41 and
# 42) stop 43's runs stayed at about 80 % character error for 20,000 iterations, and for 8,800 with
# the lines in another order, on lines the MRZ model reads at 3 %; at 0.001 the error was 2.4 % by
# iteration 11,600 (decision 0081). The second stage cannot mend a network that did not learn (one
# started on the hard lines stays at 80 % too), so stop here rather than make a model that reads
# nothing.
if ! last_error_below easy-model/training.log 5; then
  kill_tree "$rest_pid"
  echo "train.sh: the first stage did not learn (last training error:" \
    "$(last_error easy-model/training.log) %, want under 5 %); no model made" >&2
  exit 1
fi
wait "$rest_pid"
# The band lines twice over (stop 45): the lines the first passes read, slanted and unlevelled.
(cat zone-train.list zone-train.list zone-train.list; ls band/*.lstmf band/*.lstmf; ls hard/*.lstmf; head -n 1000 easy.list) |
  shuf --random-source=<(yes) >full.list
# lstmtraining (Debian's 5.3) has crashed once on its way out after "Finished!", its checkpoint written:
# that run counts. --continue_from starts the iteration count anew, so this stage is 30,000
# iterations of its own, and it keeps the first stage's learning rate unless --reset_learning_rate
# says otherwise: stops 41 and 42 trained it at 0.002 that way (their first stage's rate, which made
# their best models), so it is set to that rate now that the first stage runs at 0.001.
train_full() {
  OMP_THREAD_LIMIT=1 lstmtraining --traineddata start/mrz/mrz.traineddata --continue_from easy-model/mrz_checkpoint \
    --model_output full-model/mrz --reset_learning_rate --learning_rate 0.002 --train_listfile full.list \
    --eval_listfile zone-eval.list \
    --max_iterations 30000 --target_error_rate 0.005 --debug_interval 0 2>&1 | tee full-model/training.log
}
train_full || grep -q '^Finished!' full-model/training.log

# 4. The integer model.
lstmtraining --stop_training --convert_to_int --continue_from full-model/mrz_checkpoint \
  --traineddata start/mrz/mrz.traineddata --model_output mrz.traineddata
lstmeval --model mrz.traineddata --eval_listfile zone-eval.list | tail -n 1
